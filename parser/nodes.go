package parser

import sitter "github.com/smacker/go-tree-sitter"

// Children returns the children of n in order, named and anonymous. It
// walks them with a cursor: Node.Child(i) starts from the first child at
// every call, which is quadratic over a long list.
func Children(n *sitter.Node) []*sitter.Node {
	count := int(n.ChildCount())
	if count == 0 {
		return nil
	}
	out := make([]*sitter.Node, 0, count)
	c := sitter.NewTreeCursor(n)
	defer c.Close()
	for ok := c.GoToFirstChild(); ok; ok = c.GoToNextSibling() {
		out = append(out, c.CurrentNode())
	}
	return out
}

// NamedChildren returns the named children of n in order, comments
// included.
func NamedChildren(n *sitter.Node) []*sitter.Node {
	count := int(n.NamedChildCount())
	if count == 0 {
		return nil
	}
	out := make([]*sitter.Node, 0, count)
	c := sitter.NewTreeCursor(n)
	defer c.Close()
	for ok := c.GoToFirstChild(); ok; ok = c.GoToNextSibling() {
		if child := c.CurrentNode(); child.IsNamed() {
			out = append(out, child)
		}
	}
	return out
}

// Text returns the source text of n.
func Text(n *sitter.Node, src []byte) string {
	return string(src[n.StartByte():n.EndByte()])
}
