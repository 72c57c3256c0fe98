package definitions

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/internal/projectgen"
)

// dumpLookups renders every answer of the lookups for every definition
// and column: the definitions of its name, places, code sites, calls and
// sends, and the suggestion for a name one letter off.
func dumpLookups(ix *Index) string {
	var b strings.Builder
	if d := ix.Project(); d != nil {
		fmt.Fprintf(&b, "project %s\n", d.Path)
	}
	var targets []string
	for _, d := range ix.Definitions() {
		if d.Kind == KindProject || d.Kind == KindEngine {
			continue
		}
		if d.Table != nil {
			for _, w := range d.Table.Was {
				fmt.Fprintf(&b, "was %s:", w.Name)
				for _, t := range ix.TablesWas(w.Name) {
					fmt.Fprintf(&b, " %s %s", t.Name, t.Path)
				}
				fmt.Fprintln(&b)
			}
		}
		targets = append(targets, d.Name)
		if d.Table != nil {
			targets = append(targets, d.Name+".id")
			for _, c := range d.Table.Columns {
				targets = append(targets, d.Name+"."+c.Schema.Name)
			}
		}
	}
	for _, t := range targets {
		fmt.Fprintf(&b, "%s\n", t)
		for _, p := range ix.Places(t) {
			fmt.Fprintf(&b, "  place %s %d-%d %s %v\n", p.Path, p.Span.Start, p.Span.End, p.Kind, p.Shorthand)
		}
		for _, s := range ix.CodeSites(t) {
			fmt.Fprintf(&b, "  site %s %d-%d %s %s\n", s.Path, s.Span.Start, s.Span.End, s.Why, s.Mark)
		}
		if !strings.Contains(t, ".") {
			for _, d := range ix.DefinitionsNamed(t) {
				fmt.Fprintf(&b, "  defined %s %d\n", d.Path, d.NameSpan.Start)
			}
			_, _, err := ix.Lookup(t + "x")
			fmt.Fprintf(&b, "  %v\n", err)
			declared, inferred := ix.Sends(t)
			fmt.Fprintf(&b, "  calls %v sends %v %v\n", ix.Calls(t), declared, inferred)
		}
	}
	return b.String()
}

// TestCodeIndexAfterUpdates edits a project one file at a time and checks
// that the lookups of each snapshot, made from the lineage's base and the
// changed files, answer what the lookups of a fresh index of the same
// texts answer.
func TestCodeIndexAfterUpdates(t *testing.T) {
	ctx := context.Background()
	files := projectgen.Generate(projectgen.Options{Tables: 6, Seed: 3})
	ix := FromFiles(ctx, files)
	ix.code() // the base every later snapshot starts from

	var table, fn string
	for p := range files {
		switch {
		case strings.HasPrefix(p, "tables/") && p != "tables/index.ts" && (table == "" || p < table):
			table = p
		case strings.HasPrefix(p, "functions/") && (fn == "" || p < fn):
			fn = p
		}
	}
	tableName := strings.TrimSuffix(strings.TrimPrefix(table, "tables/"), ".ts")
	data := "testdata/" + tableName + ".json"
	replace := func(p, old, new string) []byte {
		src := string(files[p])
		if !strings.Contains(src, old) {
			t.Fatalf("%s holds no %q", p, old)
		}
		return []byte(strings.Replace(src, old, new, 1))
	}
	steps := []struct {
		name    string
		path    string
		src     func() []byte
		overlay bool // the snapshot's lookups come from the base and an overlay
	}{
		{"a new column", table, func() []byte { return replace(table, "columns: {", "columns: {\n    extra: ref('"+tableName+"'),") }, true},
		{"earlier names", table, func() []byte { return replace(table, "columns: {", "was: ['older', 'oldest'],\n  columns: {") }, true},
		{"an earlier name twice", fn, func() []byte {
			return append(append([]byte(nil), files[fn]...), "import { table } from 'tent'\nexport const later = table({ was: 'older', columns: {} })\n"...)
		}, true},
		{"code that names other tables", fn, func() []byte {
			return replace(fn, "run: async (ctx, input) => {", "run: async (ctx, input) => {\n    await ctx.db.extra.all()\n    await ctx.call('nowhere')\n    // extra shipments\n")
		}, true},
		{"imports of a table", fn, func() []byte {
			name := tableName
			head := "import { " + name + " } from '../tables'\nimport * as T from '../tables/index'\nimport { sumCents as total } from '../lib/money'\n"
			return append([]byte(head), replace(fn, "run: async (ctx, input) => {", "run: async (ctx, input) => {\n    console.log("+name+", T."+name+", total)\n")...)
		}, true},
		{"the same file again", fn, func() []byte { return append([]byte("// again\n"), files[fn]...) }, true},
		{"a second definition of a name", fn, func() []byte {
			return append(append([]byte(nil), files[fn]...), "import { table } from 'tent'\nexport const "+tableName+" = table({ columns: {} })\n"...)
		}, true},
		{"one more re-export", "tables/index.ts", func() []byte {
			return append(append([]byte(nil), files["tables/index.ts"]...), "export { "+tableName+" as again } from './"+tableName+"'\n"...)
		}, true},
		{"test data with one more key", data, func() []byte { return replace(data, "{\n", "{\n    \"extra\": \"x\",\n") }, true},
		{"a new file", "functions/extra.ts", func() []byte {
			return []byte("import { fn } from 'tent'\nimport { notify } from '../lib/notify'\nexport const extraFn = fn({ run: async (ctx) => { await notify(ctx, 'a', 'b', 'c') } })\n")
		}, false},
		{"a change after the new file", table, func() []byte { return replace(table, "columns: {", "columns: {\n    other: int(),") }, true},
		{"a removed file", "functions/extra.ts", func() []byte { return nil }, false},
	}
	for _, s := range steps {
		src := s.src()
		next := ix.Update(s.path, src)
		if src == nil {
			delete(files, s.path)
		} else {
			files[s.path] = src
		}
		if got, want := dumpLookups(next), dumpLookups(FromFiles(ctx, maps.Clone(files))); got != want {
			t.Fatalf("%s: the lookups differ from a fresh index's\n--- updated\n%s\n--- fresh\n%s", s.name, got, want)
		}
		if s.name == "a second definition of a name" && len(next.DefinitionsNamed(tableName)) != 2 {
			t.Fatalf("%s: %d definitions of %s, want 2", s.name, len(next.DefinitionsNamed(tableName)), tableName)
		}
		if got := next.code().overlay != nil; got != s.overlay {
			t.Errorf("%s: lookups from an overlay %v, want %v", s.name, got, s.overlay)
		}
		ix = next
	}
}

// TestChangedFiles checks when a snapshot may join only its changed files
// over a base.
func TestChangedFiles(t *testing.T) {
	a, b, c := &File{Path: "a.ts"}, &File{Path: "b.ts"}, &File{Path: "c.ts"}
	b2 := &File{Path: "b.ts"}
	many := func(n int, changed bool) (base, now []*File) {
		for i := range n {
			f := &File{Path: fmt.Sprintf("f%03d.ts", i)}
			base = append(base, f)
			if changed {
				f = &File{Path: f.Path}
			}
			now = append(now, f)
		}
		return base, now
	}
	bigBase, bigNow := many(maxOverlay+1, true)
	tests := []struct {
		name      string
		base, now []*File
		changed   int
		ok        bool
	}{
		{"the same", []*File{a, b, c}, []*File{a, b, c}, 0, true},
		{"one changed", []*File{a, b, c}, []*File{a, b2, c}, 1, true},
		{"one more", []*File{a, b}, []*File{a, b, c}, 0, false},
		{"one less", []*File{a, b, c}, []*File{a, c}, 0, false},
		{"another path", []*File{a, b}, []*File{a, c}, 0, false},
		{"too many changed", bigBase, bigNow, 0, false},
	}
	for _, tt := range tests {
		changed, ok := changedFiles(tt.base, tt.now)
		if ok != tt.ok || len(changed) != tt.changed {
			t.Errorf("%s: %d changed, ok %v; want %d, %v", tt.name, len(changed), ok, tt.changed, tt.ok)
		}
	}
}

// TestCodeIndexConcurrent queries two snapshots of one lineage from
// several goroutines at once (run it with -race): the joins are made once
// and shared, and each answers what a fresh index of its texts answers.
func TestCodeIndexConcurrent(t *testing.T) {
	ctx := context.Background()
	files := projectgen.Generate(projectgen.Options{Tables: 4, Seed: 5})
	ix := FromFiles(ctx, files)
	var fn string
	for p := range files {
		if strings.HasPrefix(p, "functions/") && (fn == "" || p < fn) {
			fn = p
		}
	}
	snaps := [2]*Index{}
	want := [2]string{}
	for i, head := range []string{"// a\n", "// b\n"} {
		src := append([]byte(head), files[fn]...)
		snaps[i] = ix.Update(fn, src)
		fresh := maps.Clone(files)
		fresh[fn] = src
		want[i] = dumpLookups(FromFiles(ctx, fresh))
	}
	type answer struct {
		snap int
		dump string
	}
	got := make(chan answer, 8)
	for i := range 8 {
		go func() { got <- answer{i % 2, dumpLookups(snaps[i%2])} }()
	}
	for range 8 {
		if a := <-got; a.dump != want[a.snap] {
			t.Errorf("snapshot %d: the lookups differ from a fresh index's", a.snap)
		}
	}
}
