package definitions

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/golden"
)

// smallProject is an in-memory project with one of each thing the index
// reads, and the broken inputs it must survive.
func smallProject() map[string][]byte {
	return map[string][]byte{
		"project.ts": []byte(`import { project } from 'tent'
export default project({ name: 'shop', removed: ['coupons'] })
`),
		"engine.ts": []byte(`import { engine } from 'tent'
export default engine({ mail: { from: 'shop@example.com' } })
`),
		"tables/users.ts": []byte(`import { table as t, text } from 'tent'
export const users = t({ columns: { name: text(), email: text({ unique: true }) } })
`),
		"tables/orders.ts": []byte("import { table, ref, money, text } from 'tent'\r\n" +
			"export const orders = table({\r\n" +
			"  columns: {\r\n" +
			"    buyer: ref('users'),\r\n" +
			"    total: money({ was: 'amount' }),\r\n" +
			"    note: text({ default: defaultNote }),\r\n" +
			"  },\r\n" +
			"})\r\n"),
		"functions/orders.ts": []byte(`import { fn, ref } from 'tent'
import { users } from '../tables/users'

export const placeOrder = fn({ input: { buyer: ref('users') }, run: async (ctx) => 1 })

export const broken = fn({ run: async (ctx) => { return ( } })

export const afterBroken = fn({ sends: ['mail'], run: async () => 2 })
`),
		"screens/home.tsx": []byte(`import { screen, Page } from 'tent/ui'
export const home = screen({ path: '/', view: () => <Page title="Home" /> })
`),
		"testdata/orders.json": []byte("[\r\n  {\"id\": \"o1\", \"buyer\": \"u1\", \"total\": 100}\r\n]\r\n"),
		"testdata/users.json":  []byte(`[{"id": "u1", "name": "Ann"}, 5]`),
		"testdata/broken.json": []byte(`[{"id": "x",}]`),
		"lib/binary.ts":        []byte("export const a = 1\x00\x01\x02"),
		"lib/latin1.ts":        []byte("// caf\xe9\nexport const b = 2\n"),
		"lib/empty.ts":         {},
		"README.md":            []byte("# not indexed"),
		"node_modules/x/a.ts":  []byte("export const nope = table({})"),
		"tent.d.ts":            []byte("declare const x: number"),
		"dist/out.ts":          []byte("export const nope = 1"),
		"generated/gen.ts":     []byte("export const nope = 1"),
		".gitignore":           []byte("generated/\n"),
	}
}

// dumpIndex renders every file of an index, its definitions, test data
// and findings, then the index's sorted findings.
func dumpIndex(ix *Index) string {
	var b strings.Builder
	for _, f := range ix.Files() {
		b.WriteString(dumpFile(f))
	}
	b.WriteString("findings\n")
	for _, fd := range ix.Findings() {
		fmt.Fprintf(&b, "  %s\n", fd)
	}
	return b.String()
}

func TestFromFilesGolden(t *testing.T) {
	ix := FromFiles(context.Background(), smallProject())
	golden.Check(t, "testdata/index/small.golden", []byte(dumpIndex(ix)))
}

func TestIndexQueries(t *testing.T) {
	ix := FromFiles(context.Background(), smallProject())
	var paths []string
	for _, f := range ix.Files() {
		paths = append(paths, f.Path)
	}
	wantPaths := "engine.ts functions/orders.ts lib/binary.ts lib/empty.ts lib/latin1.ts project.ts screens/home.tsx tables/orders.ts tables/users.ts testdata/broken.json testdata/orders.json testdata/users.json"
	if got := strings.Join(paths, " "); got != wantPaths {
		t.Errorf("files\n got %s\nwant %s", got, wantPaths)
	}
	var defs []string
	for _, d := range ix.Definitions() {
		defs = append(defs, d.Path+":"+d.Name)
	}
	wantDefs := "engine.ts:engine functions/orders.ts:placeOrder functions/orders.ts:broken functions/orders.ts:afterBroken project.ts:project screens/home.tsx:home tables/orders.ts:orders tables/users.ts:users"
	if got := strings.Join(defs, " "); got != wantDefs {
		t.Errorf("definitions\n got %s\nwant %s", got, wantDefs)
	}
	if p := ix.Project(); p == nil || p.Project.Name != "shop" || p.Project.Users.Name != "users" {
		t.Errorf("project %+v", p)
	}
	if e := ix.Engine(); e == nil || e.Engine.MailFrom != "shop@example.com" {
		t.Errorf("engine %+v", e)
	}
	if ix.Definition("project") != nil || ix.Definition("engine") != nil {
		t.Error("project and engine are not in the shared namespace")
	}
	if d := ix.Definition("afterBroken"); d == nil || d.Kind != KindFn {
		t.Errorf("the definition after a syntax error is lost: %+v", d)
	}
	if ix.File("./tables/users.ts") == nil || ix.File("README.md") != nil || ix.File("generated/gen.ts") != nil {
		t.Error("File: wrong files indexed")
	}
	fs := ix.Findings()
	for i := 1; i < len(fs); i++ {
		a, b := fs[i-1], fs[i]
		if a.Severity == b.Severity && (a.Path > b.Path || (a.Path == b.Path && a.Line > b.Line)) {
			t.Errorf("findings not sorted: %s before %s", a, b)
		}
	}
}

func TestDuplicateNames(t *testing.T) {
	ix := FromFiles(context.Background(), map[string][]byte{
		"b/orders.ts": []byte("import { fn } from 'tent'\nexport const orders = fn({ run: () => 1 })\n"),
		"a/orders.ts": []byte("import { table } from 'tent'\nexport const orders = table({ columns: {} })\n"),
	})
	if d := ix.Definition("orders"); d == nil || d.Path != "a/orders.ts" {
		t.Errorf("Definition(orders) = %+v, want the one in a/orders.ts", d)
	}
	if ds := ix.DefinitionsNamed("orders"); len(ds) != 2 || ds[1].Path != "b/orders.ts" {
		t.Errorf("DefinitionsNamed(orders) = %d definitions", len(ds))
	}
	if ds := ix.DefinitionsNamed("none"); len(ds) != 0 {
		t.Errorf("DefinitionsNamed(none) = %v", ds)
	}
}

func TestLookup(t *testing.T) {
	ix := FromFiles(context.Background(), smallProject())
	tests := []struct {
		target string
		def    string
		col    string
		err    string
	}{
		{"orders", "orders", "", ""},
		{"orders.buyer", "orders", "buyer", ""},
		{"orders.id", "orders", "id", ""},
		{"placeOrder", "placeOrder", "", ""},
		{"orderz", "", "", "no definition is named `orderz`; did you mean `orders`?"},
		{"zzzzzz", "", "", "no definition is named `zzzzzz`"},
		{"", "", "", "no definition is named ``"},
		{"project", "", "", "no definition is named `project`"},
		{"orders.buyr", "", "", "table `orders` has no column `buyr`; did you mean `orders.buyer`? (its columns: id, buyer, total, note)"},
		{"orders.amount", "", "", "table `orders` has no column `amount` (its columns: id, buyer, total, note)"},
		{"placeOrder.buyer", "", "", "`placeOrder` is a fn, not a table: only tables have columns"},
	}
	for _, tt := range tests {
		t.Run(tt.target, func(t *testing.T) {
			d, c, err := ix.Lookup(tt.target)
			if tt.err != "" {
				if err == nil || err.Code != diag.T9103 || err.Message != tt.err {
					t.Fatalf("error %v, want T9103: %s", err, tt.err)
				}
				if d != nil || c != nil {
					t.Errorf("a failed lookup gave %v, %v", d, c)
				}
				return
			}
			if err != nil {
				t.Fatalf("error %v", err)
			}
			if d.Name != tt.def {
				t.Errorf("definition %s, want %s", d.Name, tt.def)
			}
			gotCol := ""
			if c != nil {
				gotCol = c.Schema.Name
			}
			if gotCol != tt.col {
				t.Errorf("column %q, want %q", gotCol, tt.col)
			}
		})
	}
	_, id, _ := ix.Lookup("orders.id")
	if id.Schema.Type != "text" || !id.Schema.Unique || id.Prop != nil {
		t.Errorf("implicit id column %+v", id.Schema)
	}
}

func TestResolveImport(t *testing.T) {
	ix := FromFiles(context.Background(), map[string][]byte{
		"tables/orders.ts":   []byte("export const x = 1"),
		"lib/ui.tsx":         []byte("export const y = 1"),
		"lib/money/index.ts": []byte("export const z = 1"),
		"lib/both.ts":        []byte(""),
		"lib/both/index.ts":  []byte(""),
		"testdata/a.json":    []byte("[]"),
		"functions/a.ts":     []byte(""),
	})
	tests := []struct{ from, module, want string }{
		{"functions/a.ts", "../tables/orders", "tables/orders.ts"},
		{"functions/a.ts", "../tables/orders.ts", "tables/orders.ts"},
		{"functions/a.ts", "../tables/orders.js", "tables/orders.ts"},
		{"functions/a.ts", "../lib/ui", "lib/ui.tsx"},
		{"functions/a.ts", "../lib/ui.js", "lib/ui.tsx"},
		{"functions/a.ts", "../lib/ui.jsx", "lib/ui.tsx"},
		{"functions/a.ts", "../lib/money", "lib/money/index.ts"},
		{"functions/a.ts", "../lib/both", "lib/both.ts"},
		{"lib/money/index.ts", "..", ""},
		{"lib/money/index.ts", "../money", "lib/money/index.ts"},
		{"lib/money/index.ts", ".", "lib/money/index.ts"},
		{"functions/a.ts", "./a", "functions/a.ts"},
		{"functions/a.ts", "../tables/missing", ""},
		{"functions/a.ts", "../../outside", ""},
		{"functions/a.ts", "tent", ""},
		{"functions/a.ts", "../testdata/a.json", ""},
		{"project.ts", "./tables/orders", "tables/orders.ts"},
	}
	for _, tt := range tests {
		if got := ix.ResolveImport(tt.from, tt.module); got != tt.want {
			t.Errorf("ResolveImport(%q, %q) = %q, want %q", tt.from, tt.module, got, tt.want)
		}
	}
}

func TestUpdate(t *testing.T) {
	ctx := context.Background()
	files := smallProject()
	ix := FromFiles(ctx, files)
	before := dumpIndex(ix)

	// A change to one file re-reads that file only.
	src := []byte(strings.Replace(string(files["tables/users.ts"]), "email: text({ unique: true })", "email: text({ unique: true }), age: int()", 1))
	next := ix.Update("tables/users.ts", src)
	for _, f := range ix.Files() {
		nf := next.File(f.Path)
		if f.Path == "tables/users.ts" {
			if nf == f {
				t.Error("the changed file was not re-read")
			}
			continue
		}
		if nf != f {
			t.Errorf("%s: Update re-read a file it did not change", f.Path)
		}
	}
	if got := dumpIndex(ix); got != before {
		t.Error("Update changed the old snapshot")
	}
	if d := next.Definition("users"); d == nil || d.Table.Column("age") == nil {
		t.Fatal("the new column is not in the new snapshot")
	}
	if d := ix.Definition("users"); d.Table.Column("age") != nil {
		t.Fatal("the new column leaked into the old snapshot")
	}
	// The incremental parse gives what a fresh index gives.
	fresh := map[string][]byte{}
	for k, v := range files {
		fresh[k] = v
	}
	fresh["tables/users.ts"] = src
	if got, want := dumpIndex(next), dumpIndex(FromFiles(ctx, fresh)); got != want {
		t.Errorf("updated index differs from a fresh one\n--- updated\n%s\n--- fresh\n%s", got, want)
	}

	// The same text, a path that is not indexed, and removing a file
	// that is not there give the same snapshot.
	for _, tt := range []struct {
		path string
		src  []byte
	}{
		{"tables/users.ts", src},
		{"README.md", []byte("x")},
		{"node_modules/a.ts", []byte("x")},
		{"generated/new.ts", []byte("x")},
		{"tables/none.ts", nil},
	} {
		if got := next.Update(tt.path, tt.src); got != next {
			t.Errorf("Update(%s) made a new snapshot", tt.path)
		}
	}

	// Adding and removing files.
	added := next.Update("tables/tags.ts", []byte("import { table, text } from 'tent'\nexport const tags = table({ columns: { label: text() } })\n"))
	if added.Definition("tags") == nil || next.Definition("tags") != nil {
		t.Error("adding a file")
	}
	if got := len(added.Files()); got != len(next.Files())+1 {
		t.Errorf("%d files after adding one to %d", got, len(next.Files()))
	}
	removed := added.Update("tables/users.ts", nil)
	if removed.File("tables/users.ts") != nil || removed.Definition("users") != nil || added.Definition("users") == nil {
		t.Error("removing a file")
	}
	var paths []string
	for _, f := range removed.Files() {
		paths = append(paths, f.Path)
	}
	if strings.Contains(strings.Join(paths, " "), "tables/users.ts") || !strings.Contains(strings.Join(paths, " "), "tables/tags.ts") {
		t.Errorf("files after add and remove: %v", paths)
	}

	// A syntax error made and fixed again through incremental parses.
	brokenSrc := []byte(strings.Replace(string(src), "age: int()", "age: int(", 1))
	broken := next.Update("tables/users.ts", brokenSrc)
	if !hasCode(broken.Findings(), diag.T1001) {
		t.Error("no T1001 after breaking a file")
	}
	fixed := broken.Update("tables/users.ts", src)
	if got, want := dumpIndex(fixed), dumpIndex(next); got != want {
		t.Errorf("breaking and fixing a file does not give the same index\n--- fixed\n%s\n--- before\n%s", got, want)
	}
}

func hasCode(fs []diag.Finding, code string) bool {
	for _, f := range fs {
		if f.Code == code {
			return true
		}
	}
	return false
}

// TestFileMapFolds replaces, removes and adds files past maxFileOverlay
// and checks every path after each step against a plain map, and that
// older maps keep what they held.
func TestFileMapFolds(t *testing.T) {
	want := map[string]*File{}
	m := fileMap{base: map[string]*File{}}
	for i := range 10 {
		p := fmt.Sprintf("f%d.ts", i)
		want[p] = &File{Path: p}
		m.base[p] = want[p]
	}
	type version struct {
		m    fileMap
		want map[string]*File
	}
	var versions []version
	for step := range 3 * maxFileOverlay {
		p := fmt.Sprintf("f%d.ts", step%13)
		var f *File
		if step%5 != 0 {
			f = &File{Path: p}
		}
		m = m.with(p, f)
		if f == nil {
			delete(want, p)
		} else {
			want[p] = f
		}
		versions = append(versions, version{m, maps.Clone(want)})
	}
	for i, v := range versions {
		for j := range 13 {
			p := fmt.Sprintf("f%d.ts", j)
			if got := v.m.get(p); got != v.want[p] {
				t.Fatalf("version %d: %s is %p, want %p", i, p, got, v.want[p])
			}
		}
		if len(v.m.over) > maxFileOverlay {
			t.Fatalf("version %d: %d paths over the base", i, len(v.m.over))
		}
	}
}

// TestWithoutTrees checks that an index that keeps no syntax trees reads
// the same, and that Update still works on it and keeps the new tree.
func TestWithoutTrees(t *testing.T) {
	ctx := context.Background()
	files := smallProject()
	with := FromFiles(ctx, files)
	without := FromFilesWith(ctx, files, Options{DropTrees: true})
	if got, want := dumpIndex(without), dumpIndex(with); got != want {
		t.Fatalf("the index without trees differs\n--- without\n%s\n--- with\n%s", got, want)
	}
	kept := 0
	for _, f := range without.Files() {
		if f.Tree != nil {
			kept++
		}
	}
	if kept != 0 {
		t.Errorf("%d trees kept", kept)
	}
	src := []byte(strings.Replace(string(files["tables/users.ts"]), "email: text({ unique: true })", "email: text({ unique: true }), age: int()", 1))
	next := without.Update("tables/users.ts", src)
	if next.File("tables/users.ts").Tree == nil {
		t.Error("Update kept no tree")
	}
	if got, want := dumpIndex(next), dumpIndex(with.Update("tables/users.ts", src)); got != want {
		t.Errorf("Update without the old tree differs\n--- without\n%s\n--- with\n%s", got, want)
	}
}

// TestChangedSince: a snapshot made from another by Updates and
// UpdateFiles answers the paths in which they differ, and "not known"
// for another lineage, a sibling, an older snapshot or one too far back.
func TestChangedSince(t *testing.T) {
	ctx := context.Background()
	root := FromFiles(ctx, smallProject())
	src := func(s string) []byte { return []byte("export const " + s + " = 1\n") }
	a := root.Update("lib/a.ts", src("a"))
	b := a.Update("tables/users.ts", nil)
	c := b.UpdateFiles(ctx, []FileChange{{Path: "lib/c.ts", Src: src("c")}, {Path: "lib/a.ts", Src: src("a2")}})
	sibling := a.Update("lib/s.ts", src("s"))
	tests := []struct {
		name    string
		ix      *Index
		since   SnapshotID
		want    []string
		unknown bool
	}{
		{"itself", c, c.ID(), []string{}, false},
		{"one step", a, root.ID(), []string{"lib/a.ts"}, false},
		{"three steps, a path twice", c, root.ID(), []string{"lib/a.ts", "lib/c.ts", "tables/users.ts"}, false},
		{"from the middle", c, a.ID(), []string{"lib/a.ts", "lib/c.ts", "tables/users.ts"}, false},
		{"an unchanged update is the same snapshot", a.Update("lib/a.ts", src("a")), a.ID(), []string{}, false},
		{"a sibling", sibling, b.ID(), nil, true},
		{"an older snapshot", root, a.ID(), nil, true},
		{"another build", FromFiles(ctx, smallProject()), root.ID(), nil, true},
		{"no snapshot", a, SnapshotID{}, nil, true},
	}
	for _, tt := range tests {
		got, ok := tt.ix.ChangedSince(tt.since)
		if ok == tt.unknown || !slices.Equal(got, tt.want) {
			t.Errorf("%s: ChangedSince = %q, %v; want %q, %v", tt.name, got, ok, tt.want, !tt.unknown)
		}
	}
	// Past maxChangeSteps the oldest steps are forgotten.
	ix := root
	for i := range maxChangeSteps + 1 {
		ix = ix.Update("lib/a.ts", src(fmt.Sprintf("a%d", i)))
	}
	if _, ok := ix.ChangedSince(root.ID()); ok {
		t.Error("a snapshot more steps away than the log keeps is answered")
	}
	if got, ok := ix.ChangedSince(ix.ID()); !ok || len(got) != 0 {
		t.Errorf("a snapshot since itself: %q, %v", got, ok)
	}
}

// TestChangedFrom: the changed files a snapshot answers from the log and
// a join's anchor are those a comparison of every file finds, over random
// changes, comings and goings (and more than maxOverlay changed files),
// with the anchor moving from snapshot to snapshot and new joins made.
func TestChangedFrom(t *testing.T) {
	ctx := context.Background()
	files := map[string][]byte{}
	for i := range 60 {
		files[fmt.Sprintf("lib/f%02d.ts", i)] = []byte(fmt.Sprintf("export const f%d = 1\n", i))
	}
	ix := FromFiles(ctx, files)
	rng := rand.New(rand.NewPCG(7, 8))
	type join struct{ files []*File }
	j := &join{files: ix.sorted.all()}
	ix.lineage.mu.Lock()
	ix.lineage.anchorJoin(nil, j, ix.ID())
	ix.lineage.mu.Unlock()
	var answers [2]int
	for step := range 4000 {
		p := fmt.Sprintf("lib/f%02d.ts", rng.IntN(60))
		switch op := rng.IntN(100); {
		case op < 2:
			ix = ix.Update(p, nil)
		case op < 4: // a file comes, and most often goes again soon
			p = fmt.Sprintf("lib/new%d.ts", rng.IntN(3))
			ix = ix.Update(p, []byte("export const n = 1\n"))
		case op < 10:
			ix = ix.Update(fmt.Sprintf("lib/new%d.ts", rng.IntN(3)), nil)
		case op < 12: // a fresh join from this snapshot
			next := &join{files: ix.sorted.all()}
			ix.lineage.mu.Lock()
			ix.lineage.anchorJoin(j, next, ix.ID())
			ix.lineage.mu.Unlock()
			j = next
		default:
			ix = ix.Update(p, []byte(fmt.Sprintf("export const g%d = %d\n", step, step)))
		}
		if rng.IntN(4) == 0 {
			continue // a snapshot nobody asks
		}
		want, wantOK := changedFiles(j.files, ix.sorted.all())
		got, ok := ix.changedFrom(j, j.files)
		if ok != wantOK || ok && !slices.Equal(got, want) {
			t.Fatalf("step %d: changedFrom = %d files, %v; comparing every file: %d, %v", step, len(got), ok, len(want), wantOK)
		}
		if ok {
			answers[1]++
		} else {
			answers[0]++
		}
	}
	if answers[0] < 100 || answers[1] < 100 {
		t.Fatalf("the changes tried too few cases: %d not ok, %d ok", answers[0], answers[1])
	}
}
