package workspace

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/check"
	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/internal/projectgen"
	"github.com/tent-tools/tent-tools/internal/soak"
	"github.com/tent-tools/tent-tools/outline"
)

// answersOf is everything the index answers that the correctness test
// compares: the full map (JSON), the check's findings, and Places and
// CodeSites of every definition and every column, as one text.
func answersOf(t *testing.T, ix *definitions.Index) string {
	t.Helper()
	var b strings.Builder
	m, err := json.MarshalIndent(outline.Build(ix), "", " ")
	if err != nil {
		t.Fatal(err)
	}
	b.Write(m)
	b.WriteString("\nfindings:\n")
	for _, f := range check.Run(context.Background(), ix, check.Options{}) {
		fmt.Fprintf(&b, "%s %d-%d\n", f, f.Start, f.End)
	}
	var targets []string
	for _, d := range ix.Definitions() {
		targets = append(targets, d.Name)
		if d.Table != nil {
			for _, c := range d.Table.Columns {
				targets = append(targets, d.Name+"."+c.Schema.Name)
			}
		}
	}
	slices.Sort(targets)
	for _, target := range slices.Compact(targets) {
		fmt.Fprintf(&b, "places of %s:\n", target)
		for _, p := range ix.Places(target) {
			fmt.Fprintf(&b, "  %+v\n", p)
		}
		for _, s := range ix.CodeSites(target) {
			fmt.Fprintf(&b, "  site %+v\n", s)
		}
	}
	return b.String()
}

// firstDiff says where two texts begin to differ, by line.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return fmt.Sprintf("line %d:\n got %s\nwant %s", i+1, g[i], w[i])
		}
	}
	return fmt.Sprintf("%d lines, want %d", len(g), len(w))
}

// cacheWorld is a project folder that the correctness test changes at
// random, as an editor, git or a person would.
type cacheWorld struct {
	t   *testing.T
	dir string
	rng *rand.Rand
	n   int // for new names
}

// files lists the project's files (slash paths), .tent/ left out.
func (cw *cacheWorld) files() []string {
	var out []string
	filepath.WalkDir(cw.dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && d.Name() == ".tent" {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(cw.dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out
}

// pick returns a random project file whose path ends with one of exts.
func (cw *cacheWorld) pick(exts ...string) string {
	var them []string
	for _, p := range cw.files() {
		for _, e := range exts {
			if strings.HasSuffix(p, e) {
				them = append(them, p)
			}
		}
	}
	if len(them) == 0 {
		return ""
	}
	return them[cw.rng.IntN(len(them))]
}

func (cw *cacheWorld) abs(p string) string { return filepath.Join(cw.dir, filepath.FromSlash(p)) }

func (cw *cacheWorld) write(p string, src []byte) {
	cw.t.Helper()
	if err := os.MkdirAll(filepath.Dir(cw.abs(p)), 0o755); err != nil {
		cw.t.Fatal(err)
	}
	if err := os.WriteFile(cw.abs(p), src, 0o644); err != nil {
		cw.t.Fatal(err)
	}
}

func (cw *cacheWorld) read(p string) []byte {
	cw.t.Helper()
	b, err := os.ReadFile(cw.abs(p))
	if err != nil {
		cw.t.Fatal(err)
	}
	return b
}

// change makes one random change outside the tools and says what it did.
func (cw *cacheWorld) change() string {
	cw.n++
	switch k := cw.rng.IntN(10); k {
	case 0, 1:
		// Clock skew: a letter changed in place, same size, and the
		// modification time set back to what it was.
		p := cw.pick(".ts", ".tsx", ".json")
		src, info := cw.read(p), must(os.Stat(cw.abs(p)))
		var letters []int
		for i, c := range src {
			if c >= 'a' && c <= 'y' {
				letters = append(letters, i)
			}
		}
		if len(letters) == 0 {
			return "nothing"
		}
		i := letters[cw.rng.IntN(len(letters))]
		src = bytes.Clone(src)
		src[i]++
		f, err := os.OpenFile(cw.abs(p), os.O_WRONLY, 0)
		if err != nil {
			cw.t.Fatal(err)
		}
		f.WriteAt(src[i:i+1], int64(i))
		f.Close()
		if err := os.Chtimes(cw.abs(p), info.ModTime(), info.ModTime()); err != nil {
			cw.t.Fatal(err)
		}
		return "same size and time: " + p
	case 2:
		p := cw.pick(".ts")
		name := fmt.Sprintf("extra%d", cw.n)
		cw.write(p, append(cw.read(p), fmt.Sprintf("\nexport const %s = table({ columns: { note: text(), owner: ref('users') } })\n", name)...))
		return "a table appended: " + p
	case 3:
		p := cw.pick(".ts")
		cw.write(p, append(cw.read(p), "\nexport const broken = table({ columns: { a: text( } })\n"...))
		return "a syntax error: " + p
	case 4:
		p := fmt.Sprintf("tables/added%d.ts", cw.n)
		cw.write(p, fmt.Appendf(nil, "import { table, text, ref } from 'tent'\n\nexport const added%d = table({\n  columns: { title: text(), by: ref('users') },\n})\n", cw.n))
		cw.write(fmt.Sprintf("testdata/added%d.json", cw.n), []byte(`[{"id": "a1", "title": "x", "by": "u1"}, {"id": "a2", "nope": 1}]`))
		return "added: " + p
	case 5:
		p := cw.pick(".ts", ".json")
		os.Remove(cw.abs(p))
		return "deleted: " + p
	case 6:
		p := cw.pick(".ts", ".tsx")
		to := fmt.Sprintf("moved%d/%s", cw.n%3, path.Base(p))
		os.MkdirAll(filepath.Dir(cw.abs(to)), 0o755)
		if err := os.Rename(cw.abs(p), cw.abs(to)); err != nil {
			cw.t.Fatal(err)
		}
		return "renamed: " + p + " -> " + to
	case 7:
		// A .gitignore change: the rules of every file may change.
		rules := []string{"", "moved1/\n", "*.gen.ts\nmoved2/\n"}
		cw.write(".gitignore", []byte(rules[cw.rng.IntN(len(rules))]))
		return ".gitignore changed"
	case 8:
		// Files the index does not hold.
		cw.write("README.md", fmt.Appendf(nil, "# v%d\n", cw.n))
		cw.write(fmt.Sprintf("lib/data%d.json", cw.n), []byte("{}"))
		cw.write(fmt.Sprintf("dist/out%d.ts", cw.n), []byte("export const x = 1\n"))
		return "files out of the index"
	default:
		// The same text written again: a new stamp, nothing changed.
		p := cw.pick(".ts")
		cw.write(p, cw.read(p))
		return "rewritten as it was: " + p
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestIndexCacheMatchesBuild is the index cache's correctness test: over
// random sequences of changes made outside the tools (edits, adds,
// deletes, renames, .gitignore changes, a changed file with the same size
// and modification time), writes through the tools, and damaged caches,
// the index of a new process (read from .tent/index and brought up to
// date) and of a long-lived workspace give exactly the answers of a fresh
// Build: the map, the findings, and every definition's and column's
// Places and CodeSites.
func TestIndexCacheMatchesBuild(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			indexCacheRun(t, seed, soak.Rounds(20, 150))
		})
	}
}

func indexCacheRun(t *testing.T, seed uint64, steps int) {
	ctx := context.Background()
	dir := t.TempDir()
	if err := projectgen.Write(dir, projectgen.Generate(projectgen.Options{Tables: 12, Seed: int64(seed)})); err != nil {
		t.Fatal(err)
	}
	cw := &cacheWorld{t: t, dir: dir, rng: rand.New(rand.NewPCG(seed, 99))}
	live, err := New(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	// Files older than the racy window are trusted by their stamps
	// alone; those changed since are read again and compared.
	time.Sleep(racyWait)
	loaded := 0
	for step := range steps {
		what := "nothing yet"
		switch {
		case step == 0:
		case step%7 == 3:
			// A write through the pipeline, by the long-lived workspace.
			p := cw.pick(".ts")
			for strings.HasPrefix(p, "engine") || strings.HasPrefix(p, "tent") {
				p = cw.pick(".ts") // written only where the policy says so
			}
			text := strings.Replace(string(cw.read(p)), "text()", "text({ optional: true })", 1)
			if err := writeThrough(live, p, text); err != nil {
				t.Fatalf("step %d: write %s: %v", step, p, err)
			}
			what = "written by the tools: " + p
		case step%11 == 5:
			cache := filepath.Join(dir, ".tent", "index")
			data, _ := os.ReadFile(cache)
			if len(data) > 0 {
				data[cw.rng.IntN(len(data))] ^= 0x10
				os.WriteFile(cache, data[:cw.rng.IntN(len(data))+1], 0o644)
			}
			what = "the cache damaged"
		default:
			what = cw.change()
		}
		fresh, err := definitions.Build(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		want := answersOf(t, fresh)

		cold, err := New(dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		ix, err := cold.Index(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if cold.index.loaded {
			loaded++
		}
		if got := answersOf(t, ix); got != want {
			t.Fatalf("step %d (%s): a new process's index differs from a fresh Build at %s", step, what, firstDiff(got, want))
		}
		if err := cold.Close(); err != nil {
			t.Fatal(err)
		}
		ix, err = live.Index(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got := answersOf(t, ix); got != want {
			t.Fatalf("step %d (%s): the long-lived workspace's index differs from a fresh Build at %s", step, what, firstDiff(got, want))
		}
	}
	// Most steps start from the cache: those after a damaged cache or
	// a .gitignore change build anew.
	if loaded < steps/2 {
		t.Errorf("only %d of %d new processes read the cache", loaded, steps)
	}
}

// racyWait is how long files must be left alone to be trusted by their
// stamps (definitions.Stamp.Racy).
const racyWait = 2100 * time.Millisecond

// TestIndexCacheWrittenAndRead checks the cache's life: a first call
// writes .tent/index, a new process reads it and re-parses nothing when
// nothing changed, a damaged or foreign cache is rebuilt silently, and a
// read-only .tent/ only costs the cache.
func TestIndexCacheWrittenAndRead(t *testing.T) {
	ctx := context.Background()
	dir := copyProject(t, shopDir)
	cache := filepath.Join(dir, ".tent", "index")
	open := func() (*Workspace, *definitions.Index) {
		t.Helper()
		w, err := New(dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		ix, err := w.Index(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return w, ix
	}
	time.Sleep(racyWait)
	w, first := open()
	w.Close()
	data, err := os.ReadFile(cache)
	if err != nil {
		t.Fatalf("the first index wrote no cache: %v", err)
	}
	want := answersOf(t, first)

	w, ix := open()
	if !w.index.loaded || w.index.dirty {
		t.Errorf("a second process: loaded %v, dirty %v; want the cache read as it is", w.index.loaded, w.index.dirty)
	}
	for _, f := range ix.Files() {
		if f.Tree != nil {
			t.Errorf("%s was parsed again", f.Path)
		}
	}
	if got := answersOf(t, ix); got != want {
		t.Errorf("the cached index differs at %s", firstDiff(got, want))
	}
	w.Close()
	if again, _ := os.ReadFile(cache); !bytes.Equal(again, data) {
		t.Error("a process that changed nothing wrote the cache again")
	}

	for name, bad := range map[string][]byte{
		"empty": {}, "cut": data[:len(data)/2], "foreign": []byte("not a cache"),
	} {
		os.WriteFile(cache, bad, 0o644)
		w, ix := open()
		if w.index.loaded {
			t.Errorf("%s cache: read", name)
		}
		if got := answersOf(t, ix); got != want {
			t.Errorf("%s cache: the index differs at %s", name, firstDiff(got, want))
		}
		w.Close()
		if again, _ := os.ReadFile(cache); len(again) < len(data)/2 {
			t.Errorf("%s cache: not written anew (%d bytes)", name, len(again))
		}
	}

	// A .tent/index that is a folder cannot be written: no error.
	os.Remove(cache)
	os.Mkdir(cache, 0o755)
	w, ix = open()
	if got := answersOf(t, ix); got != want {
		t.Errorf("with no cache possible: the index differs at %s", firstDiff(got, want))
	}
	if err := w.Close(); err != nil {
		t.Errorf("Close with no cache possible: %v", err)
	}
}

// TestIndexSavedInBackground checks the first save of a process, which
// runs while the caller goes on with the index: a change written
// meanwhile is not lost to it (the cache stays dirty, and Close writes it
// with the change), and the cache Close leaves holds the changed text.
func TestIndexSavedInBackground(t *testing.T) {
	ctx := context.Background()
	dir := copyProject(t, shopDir)
	w, err := New(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Index(ctx); err != nil { // built: saved in the background
		t.Fatal(err)
	}
	const p = "tables/orders.ts"
	src, err := os.ReadFile(filepath.Join(dir, p))
	if err != nil {
		t.Fatal(err)
	}
	changed := string(src) + "\n// changed while the first save runs\n"
	if err := writeThrough(w, p, changed); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if w.index.dirty {
		t.Error("Close left the cache dirty")
	}
	data, err := os.ReadFile(filepath.Join(dir, ".tent", "index"))
	if err != nil {
		t.Fatalf("no cache written: %v", err)
	}
	cached, _, err := definitions.LoadCache(ctx, data)
	if err != nil {
		t.Fatal(err)
	}
	if f := cached.File(p); f == nil || string(f.Src) != changed {
		t.Errorf("the cache holds %s as before the change", p)
	}
}
