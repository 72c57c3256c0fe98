package definitions

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/internal/projectgen"
	"github.com/tent-tools/tent-tools/parser"
)

// TestDirectWalk checks the direct walk of flatten against the cursor's,
// and the portable walk against both, on every file of a generated
// project and on random text in both grammars, and that flatten uses the
// direct walk: a tree-sitter whose layouts differ
// from those flatten.go declares fails here (and flatten then falls back
// to the cursor).
func TestDirectWalk(t *testing.T) {
	if !directWalkWorks() {
		t.Fatal("the direct walk disagrees with the cursor on the sample")
	}
	srcs := map[string][]byte{}
	for p, src := range projectgen.Generate(projectgen.Options{Tables: 30, Seed: 2}) {
		if lang, ok := langOf(p); ok && lang != LangJSON {
			srcs[p] = src
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte("{}()[]<>;:,.=+-*/'\"`\\ \n\tabcxyz0123456789$_@#!?&|^~é")
	for i := range 100 {
		src := make([]byte, r.IntN(600))
		for j := range src {
			src[j] = alphabet[r.IntN(len(alphabet))]
		}
		srcs[fmt.Sprintf("random%d.%s", i, []string{"ts", "tsx"}[i%2])] = src
	}
	ts, tsxg := grammars()
	for p, src := range srcs {
		tree, _ := parser.Parse(context.Background(), p, src)
		if tree == nil {
			t.Fatalf("%s: no tree", p)
		}
		g := ts
		if strings.HasSuffix(p, ".tsx") {
			g = tsxg
		}
		// Every node (nil), and the nodes flatten keeps (g).
		for _, g := range []*grammar{nil, g} {
			if !sameWalks(tree.RootNode(), g) {
				t.Errorf("%s (kept by %v): the walks differ", p, g != nil)
			}
			// The portable walk of the other platforms gives the same.
			n, _ := flatWalk(tree.RootNode(), nil, g)
			want, got := make([]snode, n), make([]snode, n)
			_, wantVar := flatWalk(tree.RootNode(), want, g)
			if m, gotVar := flatWalkGo(tree.RootNode(), got, g); m != n || gotVar != wantVar || !slices.Equal(got, want) {
				t.Errorf("%s (kept by %v): the portable walk differs", p, g != nil)
			}
			// Too little room: the count all the same (the caller tries
			// again with it).
			if m, _ := flatWalkGo(tree.RootNode(), make([]snode, n/2), g); m != n {
				t.Errorf("%s: the portable walk into half the room counts %d nodes, want %d", p, m, n)
			}
		}
		tree.Close()
	}
}
