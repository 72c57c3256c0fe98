package definitions

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/internal/golden"
)

// TestRowSitesArchives: each archive of testdata/rows is a project; its
// golden lists every row site (the column named, the table the row is of,
// how), one a line with the line's text.
func TestRowSitesArchives(t *testing.T) {
	archives, _ := filepath.Glob("testdata/rows/*.txtar")
	if len(archives) == 0 {
		t.Fatal("no archives")
	}
	for _, a := range archives {
		name := strings.TrimSuffix(filepath.Base(a), ".txtar")
		t.Run(name, func(t *testing.T) {
			srcs, _ := readArchive(t, a)
			ix := FromFiles(context.Background(), srcs)
			golden.Check(t, "testdata/rows/"+name+".golden", []byte(showRowSites(ix, ix.AllRowSites())))
		})
	}
}

func showRowSites(ix *Index, sites []RowSite) string {
	var b strings.Builder
	for _, s := range sites {
		f := ix.File(s.Path)
		line, col := f.Pos(s.Column.Span.Start)
		ls := strings.LastIndex(string(f.Src[:s.Column.Span.Start]), "\n") + 1
		le := strings.IndexByte(string(f.Src[s.Column.Span.Start:]), '\n')
		text := string(f.Src[ls:])
		if le >= 0 {
			text = string(f.Src[ls : s.Column.Span.Start+le])
		}
		a, z := s.Column.Span.Start-ls, s.Column.Span.End-ls
		fmt.Fprintf(&b, "%s:%d:%d %s.%s %s  %s⟨%s⟩%s\n", s.Path, line, col, s.Table, s.Column.Name, s.How,
			strings.TrimLeft(text[:a], " "), text[a:z], text[z:])
	}
	return b.String()
}

// TestRowSitesUpdate: a snapshot that Update makes answers the row sites
// a fresh build of its files does, whether the edit leaves the file's row
// shape as it was (only its own sites are joined again) or not.
func TestRowSitesUpdate(t *testing.T) {
	type edit = rowEdit
	for _, c := range []struct {
		archive string
		edits   []edit
	}{
		{"flow", []edit{
			{"functions/visits.ts", "ctx.log(q.born)", "ctx.log(q.borne)"},               // the same shape
			{"functions/visits.ts", "name: label(p),", "name: p,"},                       // a call gone
			{"lib/format.ts", "export function first(list) {", "function first(list) {"}, // a function no more exported
			{"screens/visits.tsx", "{label(p)} ", ""},
		}},
		{"follow", []edit{
			{"project.ts", "users: 'staff'", "users: 'patients'"},          // every ctx.user another table's
			{"functions/patients.ts", "return p\n", "return input\n"},      // getPatient returns no row
			{"flows/intake.ts", "'checkIn', 'getPatient'", "'getPatient'"}, // the same last step
			{"flows/intake.ts", "['getPatient']", "['checkIn']"},           // another last step
			{"functions/patients.ts", "loose(ctx)", "loose(input)"},        // the same shape: another argument
		}},
	} {
		t.Run(c.archive, func(t *testing.T) { rowSitesUpdate(t, c.archive, c.edits) })
	}
}

// rowEdit replaces find in the file at path.
type rowEdit struct{ path, find, replace string }

func rowSitesUpdate(t *testing.T, archive string, edits []rowEdit) {
	srcs, _ := readArchive(t, "testdata/rows/"+archive+".txtar")
	ctx := context.Background()
	ix := FromFiles(ctx, srcs)
	ix.AllRowSites()
	for _, e := range edits {
		src := string(srcs[e.path])
		if !strings.Contains(src, e.find) {
			t.Fatalf("%s has no %q", e.path, e.find)
		}
		srcs[e.path] = []byte(strings.Replace(src, e.find, e.replace, 1))
		ix = ix.Update(e.path, srcs[e.path])
		got := showRowSites(ix, ix.AllRowSites())
		fresh := FromFiles(ctx, srcs)
		if want := showRowSites(fresh, fresh.AllRowSites()); got != want {
			t.Errorf("after %q in %s:\n%s\nwant\n%s", e.replace, e.path, got, want)
		}
	}
}

// BenchmarkRowFlow is the row flow's read of every file of the
// 1,000-table project (each file's tree flattened outside the timing),
// the part of a cold index it adds per file.
//
//	go test ./definitions -run XXX -bench 'Row(Flow|Join)' -benchtime 10x
func BenchmarkRowFlow(b *testing.B) {
	ix := FromFiles(context.Background(), benchProject(b))
	type flat struct {
		f      *File
		st     *stree
		writes []int32 // readWords' list, made outside the timing
	}
	var fs []flat
	for _, f := range ix.Files() {
		if f.Tree != nil {
			st := flatten(f.Tree.RootNode(), f.Src, f.Lang)
			_, _, writes := readWords(f, st, nil, true)
			fs = append(fs, flat{f, st, slices.Clone(writes)})
		}
	}
	b.ReportAllocs()
	cpu := startCPU(b)
	for b.Loop() {
		for _, x := range fs {
			readRowFlow(x.f, x.st, x.writes)
		}
	}
	reportCPU(b, cpu)
}

// BenchmarkRowJoin is the join of the 1,000-table project's row flows
// into its row sites, once per snapshot.
func BenchmarkRowJoin(b *testing.B) {
	ix := FromFiles(context.Background(), benchProject(b))
	b.ReportAllocs()
	cpu := startCPU(b)
	for b.Loop() {
		joinRowFlows(ix)
	}
	reportCPU(b, cpu)
}
