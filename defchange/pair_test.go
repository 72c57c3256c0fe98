package defchange

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/internal/projectgen"
)

// TestFlattenPairDiffsAsFlatten: diffFields answers the same fields, in
// the same order, whether the two versions of a definition are flattened
// whole (flatten) or with the properties that read alike as one field
// (flattenPair). Over pairs of the definitions of a generated project and
// the sample projects (tables that share columns and differ in others,
// functions with other code), and versions with lines dropped, moved and
// names changed, with column renames given.
func TestFlattenPairDiffsAsFlatten(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 3))
	dir := t.TempDir()
	if err := projectgen.Write(dir, projectgen.Generate(projectgen.Options{Tables: 30, Seed: 7})); err != nil {
		t.Fatal(err)
	}
	texts := map[string][]byte{}
	for _, root := range []string{dir, "../testdata/projects/shop", "../testdata/projects/refactor-basic"} {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".ts") {
				src, _ := os.ReadFile(p)
				rel, _ := filepath.Rel(root, p)
				texts[filepath.Base(root)+"/"+filepath.ToSlash(rel)] = src
			}
			return nil
		})
	}
	// Variants of each file: a line dropped, two lines swapped, a word
	// changed, a line doubled.
	for p, src := range texts {
		lines := strings.SplitAfter(string(src), "\n")
		for v := range 4 {
			out := append([]string(nil), lines...)
			i, j := rng.IntN(len(out)), rng.IntN(len(out))
			switch v {
			case 0:
				out = append(out[:i], out[i+1:]...)
			case 1:
				out[i], out[j] = out[j], out[i]
			case 2:
				out[i] = strings.Replace(out[i], "text", "money", 1)
			case 3:
				out = append(out[:i+1], out[i:]...)
			}
			texts[p+".v"+string(rune('0'+v))+".ts"] = []byte(strings.Join(out, ""))
		}
	}
	ix := definitions.FromFiles(context.Background(), texts)
	byKind := map[definitions.Kind][]entry{}
	for _, f := range ix.Files() {
		for _, e := range collect([]*definitions.File{f}) {
			byKind[e.def.Kind] = append(byKind[e.def.Kind], e)
		}
	}
	pairs, skipped := 0, 0
	for _, list := range byKind {
		for i := range list {
			for range 8 {
				o, n := list[i], list[rng.IntN(len(list))]
				var renamed map[string]string
				if o.def.Table != nil && n.def.Table != nil && len(o.def.Table.Columns) > 0 && len(n.def.Table.Columns) > 0 && rng.IntN(3) == 0 {
					oc := o.def.Table.Columns[rng.IntN(len(o.def.Table.Columns))].Schema.Name
					nc := n.def.Table.Columns[rng.IntN(len(n.def.Table.Columns))].Schema.Name
					// As pair finds them: a hint, taken where it fits.
					renamed = map[string]string{}
					for _, c := range columnPairs(o, n, Renames{o.def.Name + "." + oc: n.def.Name + "." + nc}) {
						if c.action == Rename {
							renamed["columns."+c.old] = "columns." + c.new
						}
					}
					if rng.IntN(4) == 0 {
						renamed["columns."+oc] = "columns." + nc // and one that does not
					}
				}
				want := diffFields(flatten(o.def, o.src), flatten(n.def, n.src), renamed)
				a, b := flattenPair(o, n, renamed)
				if len(a.same) == 0 {
					skipped++
				}
				got := diffFields(a, b, renamed)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s against %s (renamed %v):\n got %+v\nwant %+v", o.def.Name, n.def.Name, renamed, got, want)
				}
				pairs++
			}
		}
	}
	t.Logf("%d pairs, %d with nothing alike", pairs, skipped)
	if pairs-skipped < pairs/4 {
		t.Fatalf("%d of %d pairs had a property alike: the short way is not tried", pairs-skipped, pairs)
	}
	// leafDiff, where it answers, answers diffFields' fields: over each
	// definition against the others of its name (its file's variants) and
	// a few others of its kind.
	leafs, tried := 0, 0
	for _, list := range byKind {
		byName := map[string][]entry{}
		for _, e := range list {
			byName[e.def.Name] = append(byName[e.def.Name], e)
		}
		for _, o := range list {
			others := append([]entry(nil), byName[o.def.Name]...)
			for range 3 {
				others = append(others, list[rng.IntN(len(list))])
			}
			for _, n := range others {
				tried++
				got, ok := leafDiff(o, n)
				if !ok {
					continue
				}
				leafs++
				want := diffFields(flatten(o.def, o.src), flatten(n.def, n.src), nil)
				if len(got) != len(want) || len(got) > 0 && !reflect.DeepEqual(got, want) {
					t.Fatalf("leafDiff of %s against %s:\n got %+v\nwant %+v", o.def.Name, n.def.Name, got, want)
				}
			}
		}
	}
	t.Logf("leafDiff answered %d of %d pairs", leafs, tried)
	if leafs < tried/8 {
		t.Fatalf("leafDiff answered %d of %d pairs: the short way is not tried", leafs, tried)
	}
}
