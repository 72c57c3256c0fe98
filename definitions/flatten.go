package definitions

import (
	sitter "github.com/smacker/go-tree-sitter"
)

// snode is one node of the flat syntax tree. Children of a node follow it
// in the slice (pre-order); first and next link them, -1 where none.
type snode struct {
	kind   kind
	named  bool
	sym    uint16
	start  int32
	end    int32
	parent int32
	first  int32
	next   int32
}

// stree is a file's syntax tree, flattened: nodes[0] is the root.
type stree struct {
	nodes []snode
	src   []byte
	// words is the worker's scratch for readWords, or nil.
	words *wordScratch
	// top are the top-level statements (topStatements), once listed.
	top []int32
	// hasVar says whether the tree has a `var` token or declaration:
	// where it has none (most TypeScript), the resolver need not look
	// for var declarations to hoist, a walk of nearly every node.
	hasVar bool
}

// flatten copies the tree under root into a flat slice, which the readers
// of definitions and code walk instead of the tree: walking with the Go
// binding costs some six cgo calls and a cached allocation per node.
// On linux/amd64 the copy is one call into C (flatten_linux_amd64.go);
// elsewhere it walks with the binding's cursor once (flatWalkGo).
// TestFlattenMatchesBinding checks either against the binding's own walk.
func flatten(root *sitter.Node, src []byte, lang Lang) *stree {
	return flattenInto(nil, root, src, lang)
}

// flattenInto is flatten into buf's storage where it is large enough (a
// larger slice is made where not): the nodes of the answer share it.
func flattenInto(buf []snode, root *sitter.Node, src []byte, lang Lang) *stree {
	ts, tsxg := grammars()
	g := tsxg
	if lang == LangTS {
		g = ts
	}
	// A file has about 0.4 nodes per byte of text; half a node per byte
	// spares most files a second walk.
	nodes := buf[:cap(buf)]
	if want := len(src)/2 + 64; len(nodes) < want {
		nodes = make([]snode, want)
	}
	for {
		n := flatWalk(root, nodes)
		if n <= len(nodes) {
			nodes = nodes[:n]
			break
		}
		nodes = make([]snode, n)
	}
	hasVar := false
	for i := range nodes {
		nd := &nodes[i]
		if int(nd.sym) < len(g.kinds) {
			nd.kind, nd.named = g.kinds[nd.sym], g.named[nd.sym]
		} else {
			nd.kind, nd.named = kindError, true
		}
		if nd.kind == kindTokVar || nd.kind == kindVariableDeclaration {
			hasVar = true
		}
	}
	return &stree{src: src, nodes: nodes, hasVar: hasVar}
}

// flatWalkGo writes the nodes under root in pre-order into out (as many
// as fit), with their symbol, bytes and links to their parent, first
// child and next sibling (kind and named are left to flattenInto), and
// returns how many there are: more than len(out) means the caller should
// try again with more room. It walks with the binding's cursor: the
// portable walk, and the one the C walks are checked against.
func flatWalkGo(root *sitter.Node, out []snode) int {
	c := sitter.NewTreeCursor(root)
	defer c.Close()
	n := 0
	parent, prev := int32(-1), int32(-1) // prev: the previous sibling, or -1
	for {
		cur := int32(n)
		n++
		if int(cur) < len(out) {
			nd := c.CurrentNode()
			out[cur] = snode{sym: uint16(nd.Symbol()), start: int32(nd.StartByte()), end: int32(nd.EndByte()), parent: parent, first: -1, next: -1}
			if prev >= 0 {
				out[prev].next = cur
			} else if parent >= 0 && int(parent) < len(out) {
				out[parent].first = cur
			}
		}
		if c.GoToFirstChild() {
			parent, prev = cur, -1
			continue
		}
		prev = cur
		for !c.GoToNextSibling() {
			if !c.GoToParent() {
				return n
			}
			prev = parent
			parent = -1
			if prev >= 0 && int(prev) < len(out) {
				parent = out[prev].parent
			}
		}
		if int(prev) >= len(out) {
			prev = -1
		}
	}
}
