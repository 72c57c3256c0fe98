package change

import (
	"context"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/typescript/typescript"
)

// parseList parses src as TypeScript and returns the List of the first
// array or object literal that starts at or after the marker '§' (which is
// cut from the text), and the text without the marker.
func parseList(t *testing.T, marked string) ([]byte, List) {
	t.Helper()
	at := strings.Index(marked, "§")
	if at < 0 {
		t.Fatalf("no § marker in %q", marked)
	}
	src := []byte(marked[:at] + marked[at+len("§"):])
	n := findNode(t, src, at, "array", "object")
	l := List{Open: int(n.StartByte()), Close: int(n.EndByte()) - 1}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		if c.Type() == "comment" {
			continue
		}
		l.Items = append(l.Items, Span{int(c.StartByte()), int(c.EndByte())})
	}
	return src, l
}

// parseCall returns the Call of the first call expression at or after the
// marker '§'.
func parseCall(t *testing.T, marked string) ([]byte, Call) {
	t.Helper()
	at := strings.Index(marked, "§")
	src := []byte(marked[:at] + marked[at+len("§"):])
	n := findNode(t, src, at, "call_expression")
	c := Call{Span: Span{int(n.StartByte()), int(n.EndByte())}}
	args := n.ChildByFieldName("arguments")
	for i := 0; i < int(args.NamedChildCount()); i++ {
		a := args.NamedChild(i)
		if a.Type() == "comment" {
			continue
		}
		c.Args = append(c.Args, Span{int(a.StartByte()), int(a.EndByte())})
		if a.Type() == "object" && i == int(args.NamedChildCount())-1 {
			_, l := parseList(t, string(src[:a.StartByte()])+"§"+string(src[a.StartByte():]))
			c.Options = &l
		} else {
			c.Options = nil
		}
	}
	return src, c
}

// findNode returns the first node of one of the types starting at or after
// offset at, in document order.
func findNode(t *testing.T, src []byte, at int, types ...string) *sitter.Node {
	t.Helper()
	p := sitter.NewParser()
	p.SetLanguage(typescript.GetLanguage())
	tree, err := p.ParseCtx(context.Background(), nil, src)
	if err != nil {
		t.Fatal(err)
	}
	var found *sitter.Node
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		if found != nil {
			return
		}
		if int(n.StartByte()) >= at {
			for _, ty := range types {
				if n.Type() == ty {
					found = n
					return
				}
			}
		}
		for i := 0; i < int(n.ChildCount()); i++ {
			walk(n.Child(i))
		}
	}
	walk(tree.RootNode())
	if found == nil {
		t.Fatalf("no %v after offset %d in %q", types, at, src)
	}
	return found
}

// apply applies edits and fails the test on an error.
func apply(t *testing.T, src []byte, edits []Edit) string {
	t.Helper()
	out, err := Apply(src, edits)
	if err != nil {
		t.Fatalf("apply: %v", err)
	}
	return string(out)
}
