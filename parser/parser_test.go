package parser

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
)

// dump renders a tree as one line per node: type, byte range, and the
// marks ERROR and MISSING, so two trees compare by structure and offsets.
func dump(t *sitter.Tree) string {
	var b strings.Builder
	c := sitter.NewTreeCursor(t.RootNode())
	defer c.Close()
	depth := 0
	for {
		n := c.CurrentNode()
		fmt.Fprintf(&b, "%s%s [%d,%d]", strings.Repeat(" ", depth), n.Type(), n.StartByte(), n.EndByte())
		if n.IsMissing() {
			b.WriteString(" MISSING")
		}
		b.WriteByte('\n')
		if c.GoToFirstChild() {
			depth++
			continue
		}
		for !c.GoToNextSibling() {
			if !c.GoToParent() {
				return b.String()
			}
			depth--
		}
	}
}

func TestGrammarByExtension(t *testing.T) {
	src := []byte("export const v = () => <Page title=\"x\"><Text>hi</Text></Page>\n")
	tests := []struct {
		path   string
		errors bool
	}{
		{"screens/a.tsx", false},
		{"screens/A.TSX", false},
		{"screens/a.ts", true},
	}
	for _, tt := range tests {
		tree, errs := Parse(context.Background(), tt.path, src)
		if tree == nil {
			t.Fatalf("%s: nil tree", tt.path)
		}
		if got := len(errs) > 0; got != tt.errors {
			t.Errorf("%s: syntax errors %v, want %v (%v)", tt.path, got, tt.errors, errs)
		}
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // "start-end message"
	}{
		{"clean", "export const a = table({ columns: {} })\n", nil},
		{"stray brace", "export const a = 1\n}\nexport const b = 2\n", []string{"19-20 unexpected `}`"}},
		{"missing paren", "export const a = f(1, 2\n", []string{"18-19 `(` is never closed: missing `)`"}},
		{"missing brace", "function f() {\n  return 1\n", []string{"25-25 missing `}`"}},
		{"empty", "", nil},
		{"end of file", "const x = 1 +\n", []string{"13-13 unexpected end of file"}},
		{"stray token", "export const a = table({ columns: { x: text() y: int() } })\n", []string{"46-52 unexpected `y: int`"}},
		{"two statements lost", "export const a = f(1, 2\nexport const b = fn({ run: () => 1 })\n", []string{"18-19 `(` is never closed: missing `)`"}},
		{"unexpected token", "export const a = table({ columns: { x: text() } }))\n", []string{"50-51 unexpected `)`"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tree, errs := Parse(context.Background(), "a.ts", []byte(tt.src))
			if tree == nil {
				t.Fatal("nil tree")
			}
			var got []string
			for _, e := range errs {
				got = append(got, fmt.Sprintf("%d-%d %s", e.Start, e.End, e.Message))
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("errors\n got %q\nwant %q\ntree:\n%s", got, tt.want, dump(tree))
			}
		})
	}
}

func TestErrorsAreCapped(t *testing.T) {
	var b strings.Builder
	for range 500 {
		b.WriteString("} ) ] ; @@ \n")
	}
	_, errs := Parse(context.Background(), "a.ts", []byte(b.String()))
	if len(errs) != MaxErrors {
		t.Fatalf("got %d errors, want %d", len(errs), MaxErrors)
	}
	if last := errs[len(errs)-1].Message; !strings.Contains(last, "more syntax errors follow") {
		t.Errorf("last error %q does not say more follow", last)
	}
}

func TestGarbageNeverPanics(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("{}()[]<>;:,.=+-*/'\"`\\ \n\tabcxyz0123456789$_@#!?&|^~")
	for i := range 200 {
		src := make([]byte, r.IntN(400))
		for j := range src {
			src[j] = alphabet[r.IntN(len(alphabet))]
		}
		for _, p := range []string{"a.ts", "a.tsx"} {
			tree, errs := Parse(context.Background(), p, src)
			if tree == nil {
				t.Fatalf("case %d: nil tree", i)
			}
			for _, e := range errs {
				if e.Start < 0 || e.End > len(src) || e.Start > e.End || e.Message == "" {
					t.Fatalf("case %d: bad error %+v for %d bytes", i, e, len(src))
				}
			}
		}
	}
}

func TestCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	big := []byte(strings.Repeat("export const a = table({ columns: { x: text() } })\n", 20000))
	tree, _ := Parse(ctx, "a.ts", big)
	if tree != nil {
		// A parse may finish before it looks at the flag; what matters is
		// that the pooled parser still works afterwards.
		t.Log("parse finished before seeing the cancellation")
	}
	tree, errs := Parse(context.Background(), "a.ts", []byte("export const a = 1\n"))
	if tree == nil || len(errs) != 0 {
		t.Fatalf("parser unusable after a cancelled parse: tree %v, errors %v", tree, errs)
	}
}

func TestParseAllKeepsOrder(t *testing.T) {
	var srcs []Source
	for i := range 50 {
		path := fmt.Sprintf("f%d.ts", i)
		if i%2 == 1 {
			path = fmt.Sprintf("f%d.tsx", i)
		}
		srcs = append(srcs, Source{Path: path, Src: []byte(fmt.Sprintf("export const v%d = %d\n", i, i))})
	}
	results := ParseAll(context.Background(), srcs)
	for i, r := range results {
		if r.Tree == nil || len(r.Errors) != 0 {
			t.Fatalf("%d: tree %v errors %v", i, r.Tree, r.Errors)
		}
		if want := fmt.Sprintf("v%d", i); !strings.Contains(string(srcs[i].Src[r.Tree.RootNode().StartByte():r.Tree.RootNode().EndByte()]), want) {
			t.Errorf("%d: result does not belong to its source", i)
		}
	}
}
