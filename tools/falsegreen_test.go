package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/check"
	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/internal/projectgen"
	"github.com/tent-tools/tent-tools/internal/sample"
	"github.com/tent-tools/tent-tools/internal/soak"
	"github.com/tent-tools/tent-tools/remove"
	"github.com/tent-tools/tent-tools/rename"
	"github.com/tent-tools/tent-tools/schema"
)

// The bar of issue 21: a green check means the app runs. For each sample
// project and generated ones (20 and 200 tables), every table and column
// (a sample of them where a project has more than barNames) is renamed,
// and removed, on a fresh copy: the plan (rename.Plan, remove.Plan, as
// the tools apply it) on the files in memory, checked as the check tool
// checks; where the check then reports no error, the files are laid down
// in a new folder and every function is run with a valid input and every
// screen rendered (shot --html) that worked before the change, through
// the tools' Go API in-process. A call that worked before and fails after
// it is a false green.

// barNames is how many tables and columns of one project are tried (all
// of them where a project has fewer), spread evenly over its names, and
// barCallsMax how many of the calls that work before any change are made
// after each green one (spread evenly over them; a call slower than
// barSlow before any change is left out: a run of run-limits' loops
// proves nothing of names). TENT_SOAK=1 tries every name and call. The
// 200-table project tries fewer names: each fresh copy of it costs a
// build of its index.
const (
	barNames    = 24
	barNamesBig = 8
	barCallsMax = 24
	barSlow     = 300 * time.Millisecond
	barFillsMax = 6
	// barAfter bounds a call after a change: one that worked before and is
	// slow now is no name error, but it is not let to hold the test up.
	barAfter = 10 * time.Second
)

// barCall is one call of the bar: a function run or a screen shot.
type barCall struct {
	tool  string
	input string
	// alts are other inputs to try before any change where this one
	// fails (a screen's parameters filled otherwise).
	alts []barCall
}

func (c barCall) String() string { return c.tool + " " + c.input }

// barProject is a project of the bar: its name and its files.
type barProject struct {
	name  string
	files func(t *testing.T) map[string][]byte
}

func barProjects() []barProject {
	var out []barProject
	entries, _ := os.ReadDir("../testdata/projects")
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		src := filepath.Join("../testdata/projects", e.Name())
		out = append(out, barProject{e.Name(), func(t *testing.T) map[string][]byte { return sample.Load(t, src) }})
	}
	for _, n := range []int{20, 200} {
		out = append(out, barProject{fmt.Sprintf("generated-%d", n), func(*testing.T) map[string][]byte {
			return projectgen.Generate(projectgen.Options{Tables: n, Seed: 1})
		}})
	}
	return out
}

func TestNoFalseGreens(t *testing.T) {
	for _, p := range barProjects() {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			barProjectRun(t, p.files(t))
		})
	}
}

// lay writes files into a new folder and opens a workspace over it.
func lay(t *testing.T, files map[string][]byte) *Workspace {
	t.Helper()
	dir := t.TempDir()
	for p, b := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The runs that send are let: the bar is about names, not consent.
	w, err := Open(dir, Options{Approver: barYes{}})
	if err != nil {
		t.Fatal(err)
	}
	// The index and the test database are made before the first call, so
	// that no call is timed with them.
	ix, err := w.Index(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ix.Definitions() {
		if d.Table != nil {
			if _, err := call(w, "rows", fmt.Sprintf(`{"table":%q,"limit":1}`, d.Name)); err != nil {
				t.Fatalf("rows %s: %v", d.Name, err)
			}
			break
		}
	}
	return w
}

// applied is files after set: each changed file's new text at its new
// path, the deleted files gone.
func applied(t *testing.T, files map[string][]byte, set *change.Set) map[string][]byte {
	out := maps.Clone(files)
	for _, d := range set.Deletes {
		delete(out, d)
	}
	for _, f := range set.Files {
		text, err := f.Result()
		if err != nil {
			t.Fatal(err)
		}
		delete(out, f.Path)
		out[f.NewPath()] = text
	}
	return out
}

func barProjectRun(t *testing.T, files map[string][]byte) {
	ctx := context.Background()
	ix := definitions.FromFiles(ctx, files)
	if check.HasErrors(check.Run(ctx, ix, check.Options{})) {
		t.Skip("the project has errors before any change: a green check is no claim here")
	}
	w := lay(t, files)
	calls := spread(barCalls(ix), barCallsMax)
	var worked []barCall
	for _, c := range calls {
		var err error
		for _, alt := range append([]barCall{c}, c.alts...) {
			if err = barDo(w, alt, barSlow); err == nil {
				worked = append(worked, alt)
				break
			}
		}
		if err != nil && testing.Verbose() {
			t.Logf("before any change, %s fails: %v", c, err)
		}
	}
	w.Close()
	max := barNames
	if len(files) > 400 {
		max = barNamesBig
	}
	names := spread(barAll(ix), max)
	start := time.Now()
	greens, tried := 0, 0
	for _, name := range names {
		for _, op := range []string{"rename", "remove"} {
			var set *change.Set
			var err error
			if op == "rename" {
				set, err = rename.Plan(context.Background(), ix, name, barNewName(name))
			} else {
				set, err = remove.Plan(ix, name)
			}
			if err != nil {
				continue // refused: nothing changed, nothing to prove
			}
			tried++
			after := applied(t, files, set)
			if check.HasErrors(check.Run(ctx, definitions.FromFiles(ctx, after), check.Options{})) {
				continue // the check caught it
			}
			greens++
			if len(worked) == 0 {
				continue
			}
			w := lay(t, after)
			for _, c := range worked {
				if err := barDo(w, c, barAfter); err != nil {
					t.Errorf("false green: %s %s, check reports no error, then %s fails: %v", op, name, c, err)
				}
			}
			w.Close()
		}
	}
	t.Logf("%d calls work before (of %d tried), %d changes of %d names (of %d), %d of them green, in %v",
		len(worked), len(calls), tried, len(names), len(barAll(ix)), greens, time.Since(start).Round(time.Millisecond))
}

// barYes says yes to every question.
type barYes struct{}

func (barYes) Approve(context.Context, string) (bool, error) { return true, nil }

// barDo makes one call, cut short after limit.
func barDo(w *Workspace, c barCall, limit time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	_, err := Call(ctx, w, c.tool, json.RawMessage(c.input))
	return err
}

// barNewName is a new name for a table or column that no project has.
func barNewName(name string) string {
	if _, col, ok := strings.Cut(name, "."); ok {
		return col + "Renamed"
	}
	return name + "Renamed"
}

// barAll is every table and column of ix, sorted.
func barAll(ix *definitions.Index) []string {
	var out []string
	for _, d := range ix.Definitions() {
		if d.Table == nil {
			continue
		}
		out = append(out, d.Name)
		for _, c := range d.Table.Columns {
			out = append(out, d.Name+"."+c.Schema.Name)
		}
	}
	sort.Strings(out)
	return out
}

// spread is n of xs spread evenly (all of them where there are fewer, or
// under TENT_SOAK=1).
func spread[T any](xs []T, n int) []T {
	if len(xs) <= n || soak.Long() {
		return xs
	}
	out := make([]T, 0, n)
	for i := range n {
		out = append(out, xs[i*len(xs)/n])
	}
	return out
}

// barCalls is a run of every function, with a valid input, as the first
// user of the test data, and a shot of every screen, its parameters
// filled with ids of the test data.
func barCalls(ix *definitions.Index) []barCall {
	ids := map[string][]string{}
	for _, f := range ix.Files() {
		if f.TestData == nil {
			continue
		}
		for _, r := range f.TestData.Rows {
			if r.ID != "" {
				ids[f.TestData.Table] = append(ids[f.TestData.Table], r.ID)
			}
		}
	}
	users := "users"
	if p := ix.Project(); p != nil && p.Project != nil && p.Project.Users.Name != "" {
		users = p.Project.Users.Name
	}
	// Each call is tried as the first users of the test data in turn
	// (one may read a row another may not), then as the system and as
	// nobody.
	var asAll []string
	asAll = append(asAll, ids[users][:min(3, len(ids[users]))]...)
	asAll = append(asAll, "system", "")
	withAs := func(c barCall, input func(as string) string) barCall {
		c.input = input(asAll[0])
		for _, a := range asAll[1:] {
			c.alts = append(c.alts, barCall{tool: c.tool, input: input(a)})
		}
		return c
	}
	var out []barCall
	for _, d := range ix.Definitions() {
		switch {
		case d.Fn != nil:
			in := map[string]any{}
			for _, c := range d.Fn.Input {
				if v, ok := barValue(c.Schema, ids); ok {
					in[c.Schema.Name] = v
				}
			}
			out = append(out, withAs(barCall{tool: "run"}, func(as string) string {
				b, _ := json.Marshal(RunInput{Name: d.Name, Input: barJSON(in), As: as})
				return string(b)
			}))
		case d.Screen != nil:
			// Each parameter in turn takes candidate values; the first
			// shot that works before any change is the screen's call.
			segs := strings.Split(d.Screen.Path, "/")
			var alts []barCall
			for _, as := range asAll {
				for _, fill := range barFills(segs, ids) {
					b, _ := json.Marshal(ShotInput{Path: fill, As: as, HTML: true})
					alts = append(alts, barCall{tool: "shot", input: string(b)})
				}
			}
			if len(alts) > 0 {
				c := alts[0]
				c.alts = alts[1:]
				out = append(out, c)
			}
		}
	}
	return out
}

// barFills are paths for a screen's route segs, its parameters filled
// with candidate values: the ids of the table the segment before names
// (/orders/:id, /order/:id), then the first id of each table, then the
// choices of the project, at most barFillsMax.
func barFills(segs []string, ids map[string][]string) []string {
	tables := slices.Sorted(maps.Keys(ids))
	var out []string
	for k := 0; k < barFillsMax; k++ {
		parts := make([]string, len(segs))
		params := 0
		for i, seg := range segs {
			parts[i] = seg
			if !strings.HasPrefix(seg, ":") {
				continue
			}
			params++
			var cands []string
			if i > 0 {
				prev := segs[i-1]
				for _, t := range []string{prev, prev + "s", strings.TrimSuffix(prev, "s")} {
					cands = append(cands, ids[t]...)
				}
			}
			for _, t := range tables {
				cands = append(cands, ids[t][0])
			}
			cands = append(cands, "open", "new", "draft")
			parts[i] = cands[min(k, len(cands)-1)]
		}
		out = append(out, strings.Join(parts, "/"))
		if params == 0 {
			break
		}
	}
	return slices.Compact(out)
}

// barValue is a valid value of an input field (none for an optional one).
func barValue(c *schema.Column, ids map[string][]string) (any, bool) {
	if c.Optional {
		return nil, false
	}
	if c.Default != nil {
		return c.Default, true
	}
	switch c.Type {
	case schema.Text:
		return "a text", true
	case schema.Int, schema.Money:
		return 1, true
	case schema.Num:
		return 1.5, true
	case schema.Bool:
		return true, true
	case schema.Time:
		return "2026-01-02T03:04:05Z", true
	case schema.JSON:
		return map[string]any{}, true
	case schema.Ref:
		if len(ids[c.Ref]) > 0 {
			return ids[c.Ref][0], true
		}
		return "none", true
	case schema.Choice:
		if len(c.Choices) > 0 {
			return c.Choices[0], true
		}
	}
	return nil, false
}

func barJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
