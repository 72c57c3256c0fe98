package check

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/projectgen"
	"github.com/tent-tools/tent-tools/internal/sample"
	"github.com/tent-tools/tent-tools/internal/soak"
	"github.com/tent-tools/tent-tools/internal/spelling"
)

// TestCheckerMatchesRun makes random changes to sample projects, mostly one
// file at a time through Update (the way a long-lived workspace sees them),
// and after each compares the incremental check with a full Run of the same
// snapshot: the same findings, fixes and order.
func TestCheckerMatchesRun(t *testing.T) {
	projects := map[string]map[string][]byte{}
	for _, name := range []string{"shop", "refactor-basic", "screens"} {
		projects[name] = sample.Load(t, filepath.Join("..", "testdata", "projects", name))
	}
	cases, err := filepath.Glob(filepath.Join("testdata", "cases", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		projects["case "+filepath.Base(c)] = readCase(t, c)
	}
	names := make([]string, 0, len(projects))
	for name := range projects {
		names = append(names, name)
	}
	sort.Strings(names)
	for i, name := range names {
		rounds := soak.Rounds(300, 3000)
		if strings.HasPrefix(name, "case ") {
			rounds = soak.Rounds(20, 200)
		}
		if raceOn && !soak.Long() {
			rounds /= 3 // the parallel passes still run each round
		}
		t.Run(name, func(t *testing.T) {
			editAndCompare(t, projects[name], rand.New(rand.NewPCG(uint64(i), 9)), rounds)
		})
	}
}

// TestCheckerMatchesRunGenerated makes the same random changes to the
// generated projects of 1,000, 5,000 and 10,000 tables the benchmarks time
// (internal/projectgen): at those sizes the tables, the lookups by name and
// the kept joined findings see edits that the small samples do not (a name
// of many files, thousands of screens and was names). A few rounds by
// default, many in the long run (TENT_SOAK=1), which alone takes 10,000
// tables (indexing them is most of a minute of CPU); -short keeps 1,000.
func TestCheckerMatchesRunGenerated(t *testing.T) {
	for i, size := range []struct{ tables, short, long int }{
		{1000, 10, 300},
		{5000, 2, 60},
		{10000, 0, 30},
	} {
		rounds := soak.Rounds(size.short, size.long)
		// Under the race detector, where indexing is several times
		// slower, 1,000 tables only: .ci/run runs the larger ones plain.
		if rounds == 0 || (testing.Short() || raceOn && !soak.Long()) && size.tables > 1000 {
			continue
		}
		t.Run(fmt.Sprintf("tables=%d", size.tables), func(t *testing.T) {
			files := projectgen.Generate(projectgen.Options{Tables: size.tables, Seed: int64(i + 1)})
			editAndCompare(t, files, rand.New(rand.NewPCG(uint64(i), 24)), rounds)
		})
	}
}

// editAndCompare runs rounds of random changes on files, comparing a
// Checker with a full Run after each.
func editAndCompare(t *testing.T, files map[string][]byte, rng *rand.Rand, rounds int) {
	ctx := context.Background()
	e := newEditor(files, rng)
	ix := definitions.FromFiles(ctx, e.copyFiles())
	c := NewChecker()
	compare := func(step string) {
		t.Helper()
		got := c.Run(ctx, ix, Options{})
		want := Run(ctx, ix, Options{})
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("after %s (%d files remade), the incremental check differs from a full one:\n got:\n%s\nwant:\n%s",
				step, c.remade, render(got), render(want))
		}
		for k, names := range c.tabs.sorted {
			for i, name := range names {
				if i >= len(c.tabs.letters[k]) || c.tabs.letters[k][i] != spelling.Letters(name) {
					t.Fatalf("after %s, the letters kept of the sorted names (%d) are not theirs at %d (%s)", step, k, i, name)
				}
			}
			if len(c.tabs.letters[k]) != len(names) {
				t.Fatalf("after %s, %d letters kept for %d names (%d)", step, len(c.tabs.letters[k]), len(names), k)
			}
		}
	}
	compare("the first check")
	for round := range rounds {
		switch rng.IntN(12) {
		case 0: // a fresh snapshot: nothing shared with the last one
			ix = definitions.FromFiles(ctx, e.copyFiles())
			compare(fmt.Sprintf("round %d: a fresh index", round))
		case 1: // a few files at once
			var changes []definitions.FileChange
			var what []string
			for range 1 + rng.IntN(3) {
				p, src, desc := e.edit()
				changes = append(changes, definitions.FileChange{Path: p, Src: src, Gone: src == nil})
				what = append(what, desc)
			}
			ix = ix.UpdateFiles(ctx, changes)
			compare(fmt.Sprintf("round %d: %s", round, strings.Join(what, "; ")))
		default:
			p, src, desc := e.edit()
			ix = ix.Update(p, src)
			compare(fmt.Sprintf("round %d: %s", round, desc))
		}
	}
}

// editor makes random changes to a project's files: words swapped for other
// names of the project, lines dropped, doubled or split, snippets that
// use tables, columns, functions and sends, files removed, added, copied
// and put back.
type editor struct {
	rng      *rand.Rand
	files    map[string][]byte
	original map[string][]byte
	words    []string
}

var wordRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]{2,}`)

func newEditor(files map[string][]byte, rng *rand.Rand) *editor {
	e := &editor{rng: rng, files: map[string][]byte{}, original: files}
	seen := map[string]bool{}
	for p, src := range files {
		e.files[p] = bytes.Clone(src)
		for _, w := range wordRE.FindAll(src, -1) {
			if !seen[string(w)] {
				seen[string(w)] = true
				e.words = append(e.words, string(w))
			}
		}
	}
	sort.Strings(e.words)
	return e
}

func (e *editor) copyFiles() map[string][]byte {
	out := make(map[string][]byte, len(e.files))
	for p, src := range e.files {
		out[p] = bytes.Clone(src)
	}
	return out
}

func (e *editor) paths(from map[string][]byte) []string {
	out := make([]string, 0, len(from))
	for p := range from {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

func (e *editor) word() string {
	w := e.words[e.rng.IntN(len(e.words))]
	switch e.rng.IntN(6) {
	case 0:
		return w + "s"
	case 1:
		return w[:len(w)-1]
	}
	return w
}

// snippets are lines the editor writes into files; %s is a word.
var snippets = []string{
	"  await ctx.db.%s.insert({ %s: 1 })\n",
	"  await ctx.call('%s')\n",
	"  await ctx.mail.send({ to: 'a@b.c', subject: '%s' })\n",
	"  await ctx.http.get('https://example.com/%s')\n",
	"    %s: ref('%s'),\n",
	"    %s: text({ optional: true, was: '%s' }),\n",
	"  sends: ['http'],\n",
	"  steps: ['%s', '%s'],\n",
	"import { %s } from '../lib/%s'\n",
	"export { %s } from './%s'\n",
	"export const %s = table({ columns: { name: text() } })\n",
	"export const %s = fn({ run: async (ctx) => ctx.call('%s') })\n",
	"  { \"id\": \"%s\", \"%s\": \"x\" },\n",
	"  removed: ['%s', '%s'],\n",
	"// %s %s\n",
}

// edit changes one file and says how; src is nil where the file is gone.
func (e *editor) edit() (p string, src []byte, desc string) {
	paths := e.paths(e.files)
	p = paths[e.rng.IntN(len(paths))]
	if _, there := e.files["project.ts"]; there && e.rng.IntN(8) == 0 {
		p = "project.ts" // the file every other one may look at
	}
	old := e.files[p]
	lines := bytes.SplitAfter(old, []byte("\n"))
	line := e.rng.IntN(len(lines))
	switch op := e.rng.IntN(10); {
	case op == 0 && len(e.files) > 2:
		delete(e.files, p)
		return p, nil, "delete " + p
	case op == 1: // a new file: a copy of one, or one put back
		orig := e.paths(e.original)
		q := orig[e.rng.IntN(len(orig))]
		if _, there := e.files[q]; there {
			p = path.Join(path.Dir(q), e.word()+path.Ext(q))
			if _, taken := e.files[p]; taken {
				return p, bytes.Clone(e.files[p]), "nothing in " + p
			}
			e.files[p] = bytes.Clone(e.files[q])
			return p, bytes.Clone(e.files[p]), "copy " + q + " to " + p
		}
		e.files[q] = bytes.Clone(e.original[q])
		return q, bytes.Clone(e.files[q]), "put back " + q
	case op == 2:
		lines = append(lines[:line], lines[line+1:]...)
		desc = fmt.Sprintf("drop line %d of %s", line+1, p)
	case op == 3:
		lines = append(lines[:line+1], lines[line:]...)
		desc = fmt.Sprintf("double line %d of %s", line+1, p)
	case op == 4:
		s := fmt.Sprintf(snippets[e.rng.IntN(len(snippets))], e.word(), e.word())
		lines = append(lines[:line], append([][]byte{[]byte(s)}, lines[line:]...)...)
		desc = fmt.Sprintf("insert %q at line %d of %s", s, line+1, p)
	case op == 5 && len(old) > 0:
		at := e.rng.IntN(len(old))
		e.files[p] = append(append(bytes.Clone(old[:at]), '\n'), old[at:]...)
		return p, bytes.Clone(e.files[p]), fmt.Sprintf("split %s at %d", p, at)
	default: // a word for another
		locs := wordRE.FindAllIndex(old, -1)
		if len(locs) == 0 {
			return p, bytes.Clone(old), "nothing in " + p
		}
		loc := locs[e.rng.IntN(len(locs))]
		w := e.word()
		e.files[p] = append(append(append([]byte(nil), old[:loc[0]]...), w...), old[loc[1]:]...)
		return p, bytes.Clone(e.files[p]), fmt.Sprintf("%q for %q in %s", w, old[loc[0]:loc[1]], p)
	}
	e.files[p] = bytes.Join(lines, nil)
	return p, bytes.Clone(e.files[p]), desc
}

// TestCheckerRemakesWhatChanged shows the check is incremental: a change
// inside one file's code remakes that file's findings only; a change to a
// table's text remakes the files that read its columns as well, and no
// more.
func TestCheckerRemakesWhatChanged(t *testing.T) {
	ctx := context.Background()
	files := sample.Load(t, filepath.Join("..", "testdata", "projects", "shop"))
	ix := definitions.FromFiles(ctx, files)
	c := NewChecker()
	c.Run(ctx, ix, Options{})
	if c.remade != len(ix.Files()) {
		t.Fatalf("the first run remade %d files, want all %d", c.remade, len(ix.Files()))
	}
	tables := 0
	for _, f := range ix.Files() {
		if strings.HasPrefix(f.Path, "tables/") {
			tables++
		}
	}
	for _, tc := range []struct {
		name, path, find, replace string
		min, max                  int
	}{
		{"a comment before a table", "tables/categories.ts", "export const categories", "// note\nexport const categories", 1, 1},
		{"nothing changes", "tables/categories.ts", "", "", 0, 0},
		{"a column added", "tables/categories.ts", "columns: {", "columns: {\n    nickname: text({ optional: true }),", 2, len(ix.Files()) - tables},
	} {
		src := ix.File(tc.path).Src
		if tc.find != "" && !bytes.Contains(src, []byte(tc.find)) {
			t.Fatalf("%s: %s has no %q", tc.name, tc.path, tc.find)
		}
		next := ix.Update(tc.path, bytes.Replace(src, []byte(tc.find), []byte(tc.replace), 1))
		got := c.Run(ctx, next, Options{})
		if want := Run(ctx, next, Options{}); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: the findings differ from a full check:\n%s\nwant:\n%s", tc.name, render(got), render(want))
		}
		if c.remade < tc.min || c.remade > tc.max {
			t.Errorf("%s: remade %d files, want %d to %d", tc.name, c.remade, tc.min, tc.max)
		}
		ix = next
	}
}

// TestCheckerStopped shows that a run stopped by its context keeps nothing:
// the next run still answers the whole check.
func TestCheckerStopped(t *testing.T) {
	files := sample.Load(t, filepath.Join("..", "testdata", "projects", "shop"))
	ix := definitions.FromFiles(context.Background(), files)
	c := NewChecker()
	stopped, cancel := context.WithCancel(context.Background())
	cancel()
	c.Run(stopped, ix, Options{})
	got := c.Run(context.Background(), ix, Options{Extra: []diag.Finding{{Code: diag.T2011, Severity: diag.Error, Path: "tables/x.ts", Line: 1, Col: 1, Message: "extra"}}})
	want := Run(context.Background(), ix, Options{Extra: []diag.Finding{{Code: diag.T2011, Severity: diag.Error, Path: "tables/x.ts", Line: 1, Col: 1, Message: "extra"}}})
	if !reflect.DeepEqual(got, want) || c.remade != len(ix.Files()) {
		t.Fatalf("after a stopped run: remade %d, findings\n%s\nwant\n%s", c.remade, render(got), render(want))
	}
}

// TestCheckerFollowsWhatFilesShare changes one file at a time in ways that
// alter the findings of other, unchanged files: a helper that stops
// mailing (the sends of the functions that call it, directly or through
// ctx.call), test data of a table that is none, then named in the
// project's removed, a table gone and back.
func TestCheckerFollowsWhatFilesShare(t *testing.T) {
	ctx := context.Background()
	files := sample.Load(t, filepath.Join("..", "testdata", "projects", "shop"))
	ix := definitions.FromFiles(ctx, files)
	c := NewChecker()
	c.Run(ctx, ix, Options{})
	steps := []struct {
		name, path, find, replace string
		gone                      bool
	}{
		{name: "a helper sends by http, not mail", path: "lib/mailer.ts", find: "ctx.mail.send(", replace: "ctx.http.post("},
		{name: "test data of no table", path: "testdata/ghosts.json", replace: "[]\n"},
		{name: "the project removes it", path: "project.ts", find: "removed: ['coupons']", replace: "removed: ['coupons', 'ghosts']"},
		{name: "a table goes", path: "tables/categories.ts", gone: true},
		{name: "it comes back", path: "tables/categories.ts", replace: string(files["tables/categories.ts"])},
		{name: "the helper mails again", path: "lib/mailer.ts", find: "ctx.http.post(", replace: "ctx.mail.send("},
		// A table that does not parse: text after its statement changes
		// how the parser's recovery reads the statement itself.
		{name: "a column's name broken in two", path: "tables/reviews.ts", find: "postedAt: time()", replace: "posted\nAt: time()"},
		{name: "a brace after the table", path: "tables/reviews.ts", find: "\n})\n", replace: "\n})\n})\n"},
	}
	for _, step := range steps {
		var src []byte
		switch {
		case step.gone:
		case step.find == "":
			src = []byte(step.replace)
		default:
			old := ix.File(step.path).Src
			if !bytes.Contains(old, []byte(step.find)) {
				t.Fatalf("%s: %s has no %q", step.name, step.path, step.find)
			}
			src = bytes.Replace(old, []byte(step.find), []byte(step.replace), 1)
		}
		before := Run(ctx, ix, Options{})
		ix = ix.Update(step.path, src)
		got, want := c.Run(ctx, ix, Options{}), Run(ctx, ix, Options{})
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: the incremental check differs from a full one:\n%s\nwant:\n%s", step.name, render(got), render(want))
		}
		if reflect.DeepEqual(before, want) {
			t.Fatalf("%s: the findings did not change, so the step shows nothing:\n%s", step.name, render(want))
		}
	}
}
