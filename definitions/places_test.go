package definitions

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/tent-tools/tent-tools/internal/golden"
	"github.com/tent-tools/tent-tools/internal/projectgen"
)

// readArchive splits a test archive into its files: each file starts with
// a line `-- path --`. The section `-- targets --` lists the queries, one
// a line: a target for its places and code sites, `sends NAME` or
// `calls NAME`.
func readArchive(t testing.TB, name string) (files map[string][]byte, targets []string) {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	files = map[string][]byte{}
	cur := ""
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if strings.HasPrefix(line, "-- ") && strings.HasSuffix(strings.TrimSpace(line), " --") {
			cur = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(line), "-- "), " --")
			files[cur] = []byte{}
			continue
		}
		if cur != "" {
			files[cur] = append(files[cur], line...)
		}
	}
	for _, l := range strings.Split(string(files["targets"]), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			targets = append(targets, l)
		}
	}
	delete(files, "targets")
	return files, targets
}

// showPlaces renders places and code sites, one a line, with the line's text.
func showPlaces(ix *Index, places []Place, sites []CodeSite) string {
	var b strings.Builder
	loc := func(p string, sp Span) string {
		f := ix.File(p)
		if f == nil || f.Src == nil {
			return fmt.Sprintf("%s:%d-%d", p, sp.Start, sp.End)
		}
		line := 1 + strings.Count(string(f.Src[:sp.Start]), "\n")
		ls := strings.LastIndex(string(f.Src[:sp.Start]), "\n") + 1
		le := strings.IndexByte(string(f.Src[sp.Start:]), '\n')
		text := string(f.Src[ls:])
		if le >= 0 {
			text = string(f.Src[ls : sp.Start+le])
		}
		// The span is shown in the line as ⟨...⟩.
		a, z := sp.Start-ls, sp.End-ls
		if z > len(text) {
			z = len(text)
		}
		return fmt.Sprintf("%s:%d:%d  %s⟨%s⟩%s", p, line, sp.Start-ls+1, text[:a], text[a:z], text[z:])
	}
	for _, p := range places {
		sh := ""
		if p.Shorthand {
			sh = " shorthand"
		}
		if p.Kind == PlaceTestDataFile {
			fmt.Fprintf(&b, "  place %-13s %s\n", p.Kind, p.Path)
			continue
		}
		fmt.Fprintf(&b, "  place %-13s%s %s\n", p.Kind, sh, loc(p.Path, p.Span))
	}
	for _, s := range sites {
		fmt.Fprintf(&b, "  site  %-6s %-11s %s\n", s.Mark, s.Why, loc(s.Path, s.Span))
	}
	return b.String()
}

func TestPlacesArchives(t *testing.T) {
	archives, _ := filepath.Glob("testdata/code/*.txtar")
	if len(archives) == 0 {
		t.Fatal("no archives")
	}
	for _, a := range archives {
		name := strings.TrimSuffix(filepath.Base(a), ".txtar")
		t.Run(name, func(t *testing.T) {
			srcs, targets := readArchive(t, a)
			ix := FromFiles(context.Background(), srcs)
			var b strings.Builder
			for _, target := range targets {
				fmt.Fprintf(&b, "%s\n", target)
				switch q, name, _ := strings.Cut(target, " "); q {
				case "sends":
					declared, inferred := ix.Sends(name)
					fmt.Fprintf(&b, "  declared %v inferred %v\n", declared, inferred)
				case "calls":
					fmt.Fprintf(&b, "  %v\n", ix.Calls(name))
				default:
					b.WriteString(showPlaces(ix, ix.Places(target), ix.CodeSites(target)))
				}
			}
			golden.Check(t, "testdata/code/"+name+".golden", []byte(b.String()))
		})
	}
}

// bigProject is a generated project of 1,000 tables, indexed once for
// the benchmarks of this file.
var bigProject = sync.OnceValue(func() *Index {
	return FromFiles(context.Background(), projectgen.Generate(projectgen.Options{Tables: 1000, Seed: 1}))
})

// BenchmarkPlaces measures the places and code sites of the users table
// (named from about 500 places) on a warm snapshot.
func BenchmarkPlaces(b *testing.B) {
	ix := bigProject()
	ix.code()
	b.ReportAllocs()
	var n, m int
	for b.Loop() {
		n = len(ix.Places("accounts"))
		m = len(ix.CodeSites("accounts"))
	}
	b.ReportMetric(float64(n), "places")
	b.ReportMetric(float64(m), "sites")
}

// BenchmarkColumnPlaces measures the places and code sites of a column of
// the users table.
func BenchmarkColumnPlaces(b *testing.B) {
	ix := bigProject()
	ix.code()
	b.ReportAllocs()
	var n, m int
	for b.Loop() {
		n = len(ix.Places("accounts.email"))
		m = len(ix.CodeSites("accounts.email"))
	}
	b.ReportMetric(float64(n), "places")
	b.ReportMetric(float64(m), "sites")
}

// BenchmarkPlacesAfterUpdate measures Update and the first query on the
// new snapshot, which joins the changed file over the lineage's base (the
// first iteration makes the base).
func BenchmarkPlacesAfterUpdate(b *testing.B) {
	ix := bigProject()
	f := ix.Files()[len(ix.Files())/2]
	srcs := [2][]byte{append([]byte(nil), f.Src...), append(append([]byte(nil), f.Src...), "\n// touched\n"...)}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		next := ix.Update(f.Path, srcs[i%2+0])
		i++
		_ = next.Places("accounts")
	}
}

// BenchmarkSends measures the sends inference of every definition.
func BenchmarkSends(b *testing.B) {
	ix := bigProject()
	ix.code()
	defs := ix.Definitions()
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range defs {
			ix.Sends(d.Name)
		}
	}
}

// BenchmarkCodeLookups measures making the lookup maps of a snapshot.
func BenchmarkCodeLookups(b *testing.B) {
	ix := bigProject()
	b.ReportAllocs()
	for b.Loop() {
		join(ix.sorted.all(), ix.ResolveImport).filesWith("users")
	}
}

// TestReferences checks that References counts what Places (but the name
// itself) and the likely CodeSites list, for every definition of the
// sample projects and a generated one, and 0 for a column or no name.
func TestReferences(t *testing.T) {
	for name, ix := range cacheProjects(t) {
		counted := 0
		for _, d := range ix.Definitions() {
			want := 0
			for _, p := range ix.Places(d.Name) {
				if p.Kind != PlaceName {
					want++
				}
			}
			for _, s := range ix.CodeSites(d.Name) {
				if s.Mark == Likely {
					want++
				}
			}
			if got := ix.References(d.Name); got != want {
				t.Errorf("%s: %s: References %d, want %d", name, d.Name, got, want)
			}
			counted += want
		}
		if name == "generated" && counted == 0 {
			t.Errorf("%s: no references at all, so the test shows nothing", name)
		}
	}
	ix := cacheProjects(t)["shop"]
	for _, target := range []string{"orders.buyer", "noSuchName", ""} {
		if n := ix.References(target); n != 0 {
			t.Errorf("References(%q) = %d, want 0", target, n)
		}
	}
}

// TestCodeSitesAt: the code sites of a target at an offset of a file
// (CodeSitesAt, from the words there) are those of CodeSites whose span
// holds the offset, in the same order, at each end of every site of
// every definition and column of a generated project, and none where
// CodeSites has none; CodeSiteCount counts as many as CodeSites lists.
func TestCodeSitesAt(t *testing.T) {
	ix := FromFiles(context.Background(), projectgen.Generate(projectgen.Options{Tables: 8, Seed: 5}))
	var targets []string
	for _, d := range ix.Definitions() {
		if d.Kind == KindProject || d.Kind == KindEngine {
			continue
		}
		targets = append(targets, d.Name)
		if d.Table != nil {
			targets = append(targets, d.Name+".id")
			for _, c := range d.Table.Columns {
				targets = append(targets, d.Name+"."+c.Schema.Name)
			}
		}
	}
	asked := 0
	for _, target := range targets {
		all := ix.CodeSites(target)
		if n := ix.CodeSiteCount(target); n != len(all) {
			t.Errorf("%s: CodeSiteCount %d; CodeSites lists %d", target, n, len(all))
		}
		for _, s := range all {
			for _, off := range []int{s.Span.Start, s.Span.End, s.Span.End + 1, s.Span.Start - 1} {
				var want []CodeSite
				for _, o := range all {
					if o.Path == s.Path && o.Span.Start <= off && off <= o.Span.End {
						want = append(want, o)
					}
				}
				got := ix.CodeSitesAt(target, s.Path, off)
				asked++
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s at %s:%d: CodeSitesAt %+v; CodeSites there %+v", target, s.Path, off, got, want)
				}
			}
		}
	}
	if asked < 100 {
		t.Fatalf("%d offsets asked: the project has too few code sites for the test", asked)
	}
}

// TestPlacesAndSites: PlacesAndSites answers what Places and CodeSites
// answer, for every definition and column of a generated project; and a
// place found twice (a name imported twice from one module) is listed
// once, with no empty place left in its stead.
func TestPlacesAndSites(t *testing.T) {
	ix := FromFiles(context.Background(), projectgen.Generate(projectgen.Options{Tables: 8, Seed: 5}))
	targets := []string{"noSuchName", "orders.noSuchColumn"}
	for _, d := range ix.Definitions() {
		targets = append(targets, d.Name)
		if d.Table != nil {
			for _, c := range d.Table.Columns {
				targets = append(targets, d.Name+"."+c.Schema.Name)
			}
		}
	}
	for _, target := range targets {
		places, sites := ix.PlacesAndSites(target)
		if want := ix.Places(target); !reflect.DeepEqual(places, want) {
			t.Errorf("%s: PlacesAndSites' places %+v; Places %+v", target, places, want)
		}
		if want := ix.CodeSites(target); !reflect.DeepEqual(sites, want) {
			t.Errorf("%s: PlacesAndSites' sites %+v; CodeSites %+v", target, sites, want)
		}
	}
	twice := FromFiles(context.Background(), map[string][]byte{
		"tables/orders.ts": []byte("import { table, text } from 'tent'\nexport const orders = table({ columns: { title: text() } })\n"),
		"lib/orders.ts": []byte("import { orders } from '../tables/orders'\nimport { orders } from '../tables/orders'\n" +
			"export function first() { return orders }\n"),
	})
	places := twice.Places("orders")
	seen := map[Place]bool{}
	for _, p := range places {
		if p.Path == "" || seen[p] {
			t.Errorf("Places(orders) lists %+v twice or empty: %+v", p, places)
		}
		seen[p] = true
	}
	if len(places) < 4 { // the name, two imports, the use
		t.Errorf("Places(orders) = %+v, want the name, both imports and the use", places)
	}
	if got, want := twice.References("orders"), len(places)-1; got != want {
		t.Errorf("References(orders) = %d, want %d (the places but the name)", got, want)
	}
}

// TestWordsOf: a file's words of one word (wordsOf) are those of Words,
// on files built from their text and on files loaded from the cache
// (read from the stored words without the others), for every word of
// every file, and none for a word the file lacks.
func TestWordsOf(t *testing.T) {
	for name, built := range cacheProjects(t) {
		loaded, _, err := LoadCache(context.Background(), saved(t, built, stampsOf(built)))
		if err != nil {
			t.Fatal(err)
		}
		asked := 0
		for _, ix := range []*Index{built, loaded} {
			for _, f := range ix.Files() {
				for _, absent := range []string{"", "\x00", "zzzzNoSuchWord"} {
					if got := f.wordsOf(absent); len(got) != 0 {
						t.Errorf("%s: %s: wordsOf(%q) = %+v, want none", name, f.Path, absent, got)
					}
				}
				for word, want := range f.Words() {
					if got := f.wordsOf(word); !reflect.DeepEqual(got, want) {
						t.Errorf("%s: %s: wordsOf(%q) = %+v, want %+v", name, f.Path, word, got, want)
					}
					asked++
				}
			}
		}
		if name == "generated" && asked == 0 {
			t.Errorf("%s: no words asked", name)
		}
	}
}
