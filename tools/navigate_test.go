package tools

import (
	"context"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/definitions"
)

// TestNavigate: what a position names, where it is declared, its hover
// text and the symbol search, on the sample's index.
func TestNavigate(t *testing.T) {
	w, _ := openCopy(t, Options{})
	ix, err := w.Index(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	src := string(ix.File("tables/orders.ts").Src)
	tests := []struct {
		at, name string
		plain    bool
	}{
		{"buyer:", "orders.buyer", true},
		{"orders = table", "orders", true},
		{"'users'", "users", true},
	}
	for _, tt := range tests {
		off := strings.Index(src, tt.at) + 1
		got, ok := TargetAt(ix, "tables/orders.ts", off)
		if !ok || got.Name != tt.name || got.Plain != tt.plain {
			t.Errorf("at %q: %+v %v; want %s", tt.at, got, ok, tt.name)
			continue
		}
		if path, span, ok := Declaration(ix, got.Name); !ok || path == "" || span.End <= span.Start {
			t.Errorf("%s declared at %s %+v %v", got.Name, path, span, ok)
		}
	}
	if h := Describe(ix, "orders.buyer"); !strings.Contains(h, "**column orders.buyer** `ref('users')`") {
		t.Errorf("hover: %s", h)
	}
	syms := Symbols(ix, "ordbuy", 10)
	if len(syms) == 0 || syms[0].Name != "orders.buyer" || !syms[0].Column || syms[0].Container != "orders" {
		t.Errorf("symbols of ordbuy: %+v", syms)
	}
	if all := Symbols(ix, "", 3); len(all) != 3 {
		t.Errorf("the empty query answers %d symbols, want the limit 3", len(all))
	}
}

// TestTargetAtAsEveryTable: TargetAt, which looks for a column's plain
// places only among the tables of the file (its own, or those of its
// test data), answers at every offset within a word of every file of the samples what a
// search of every table's columns answers (targetAtEveryTable).
func TestTargetAtAsEveryTable(t *testing.T) {
	for _, name := range []string{"shop", "clinic", "screens", "refactor-basic", "refactor-conflict", "refactor-style"} {
		t.Run(name, func(t *testing.T) {
			w, err := Open(copyProject(t, "../testdata/projects/"+name), Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			ix, err := w.Index(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			words := 0
			for _, f := range ix.SortedFiles() {
				for off := 0; off < len(f.Src); off++ {
					if start, end := WordAt(f.Src, off); start == end {
						continue
					}
					words++
					got, gotOK := TargetAt(ix, f.Path, off)
					want, wantOK := targetAtEveryTable(ix, f.Path, off)
					if gotOK != wantOK || (gotOK && *got != *want) {
						t.Errorf("%s at %d: TargetAt %+v %v; every table %+v %v", f.Path, off, got, gotOK, want, wantOK)
					}
				}
			}
			if words < 100 {
				t.Fatalf("%d offsets in words in the sample: the test looked at too few", words)
			}
		})
	}
}

// targetAtEveryTable is TargetAt with every table's columns named by the
// word as candidates for a plain place.
func targetAtEveryTable(ix *definitions.Index, rel string, off int) (*Target, bool) {
	f := ix.File(rel)
	start, end := WordAt(f.Src, off)
	if start == end {
		return nil, false
	}
	word := string(f.Src[start:end])
	var candidates []string
	if ix.Definition(word) != nil {
		candidates = append(candidates, word)
	}
	for _, d := range ix.Definitions() {
		if d.Kind == definitions.KindTable && d.Table != nil && (word == "id" || d.Table.Column(word) != nil) {
			candidates = append(candidates, d.Name+"."+word)
		}
	}
	for _, c := range candidates {
		for _, p := range ix.Places(c) {
			if p.Path == rel && p.Span.Start <= off && off <= p.Span.End && p.Span.End > p.Span.Start {
				return &Target{Name: c, Path: rel, Span: p.Span, Plain: true}, true
			}
		}
	}
	var best *Target
	for _, c := range candidates {
		for _, site := range ix.CodeSites(c) {
			if site.Path == rel && site.Span.Start <= off && off <= site.Span.End {
				t := &Target{Name: c, Path: rel, Span: site.Span, Mark: site.Mark}
				if best == nil || (best.Mark != definitions.Likely && site.Mark == definitions.Likely) {
					best = t
				}
			}
		}
	}
	return best, best != nil
}
