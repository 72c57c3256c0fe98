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
	// share says that the strings the readers make of the text share
	// its bytes instead of copying them (str): set where the file keeps
	// its text as read, never changed, for as long as what is read of
	// it lives (a one-shot check's build, Options.Lazy).
	share bool
}

// flatten copies the tree under root into a flat slice, which the readers
// of definitions and code walk instead of the tree: walking with the Go
// binding costs some six cgo calls and a cached allocation per node.
// On linux/amd64 the copy is one call into C (flatten_linux_amd64.go);
// elsewhere it walks with the binding's cursor once (flatWalkGo).
// TestFlattenMatchesBinding checks either against the binding's own walk.
//
// The copy leaves out the leaves no reader reads: the anonymous tokens
// (punctuation, most keywords) but those of keptTokens. They are two
// nodes in five of a file, and each reader's walk of a node's children
// stepped over them.
func flatten(root *sitter.Node, src []byte, lang Lang) *stree {
	return flattenInto(nil, root, src, lang)
}

// symInfo is what flatten writes of a node of one symbol of a grammar,
// its kind and whether it is named, and whether it keeps a node of it
// that has no children (keep) and the node says the file has a `var`
// (isVar: see stree.hasVar). The C walk reads it (sym_info).
type symInfo struct {
	kind  kind
	named bool
	keep  bool
	isVar bool
}

// keptTokens are the anonymous tokens that flatten keeps, each for the
// readers that read it: `as`, `*` and `const` of imports and exports
// (readModuleLinks, declReader), `var`, `let` and `const` of declarations
// (scope.go), `=` and `default` before a definition's value (declReader),
// `-` and `+` of a signed number (declReader.value) and `of` and `in` of
// a for loop (rowWalker.forIn). A reader that reads another token must
// add it here.
var keptTokens = []string{"as", "*", "var", "let", "const", "=", "default", "-", "+", "of", "in"}

// flattenInto is flatten into buf's storage where it is large enough (a
// larger slice is made where not): the nodes of the answer share it.
func flattenInto(buf []snode, root *sitter.Node, src []byte, lang Lang) *stree {
	ts, tsxg := grammars()
	g := tsxg
	if lang == LangTS {
		g = ts
	}
	// A file has about a quarter node per byte of text kept; a third
	// of a node per byte spares most files a second walk.
	nodes := buf[:cap(buf)]
	if want := len(src)/3 + 64; len(nodes) < want {
		nodes = make([]snode, want)
	}
	for {
		n, hasVar := flatWalk(root, nodes, g)
		if n <= len(nodes) {
			return &stree{src: src, nodes: nodes[:n], hasVar: hasVar}
		}
		nodes = make([]snode, n)
	}
}

// flatWalkGo writes the nodes under root in pre-order into out (as many
// as fit), with their symbol, kind, named, bytes and links to their
// parent, first child and next sibling, leaving out the leaves that g
// does not keep (g nil: every node kept, no kind written), and returns
// how many there are, and whether one of them says var (symInfo.isVar):
// more than len(out) means the caller should try again with more room.
// It walks with the binding's cursor: the portable walk, and the one the
// C walks are checked against.
func flatWalkGo(root *sitter.Node, out []snode, g *grammar) (int, bool) {
	c := sitter.NewTreeCursor(root)
	defer c.Close()
	n, hasVar := 0, false
	parent, prev := int32(-1), int32(-1) // prev: the previous sibling, or -1
	for {
		nd := c.CurrentNode()
		sym := nd.Symbol()
		leaf := nd.ChildCount() == 0
		if !leaf || g.keeps(sym) {
			cur := int32(n)
			n++
			if int(cur) < len(out) {
				o := snode{sym: uint16(sym), start: int32(nd.StartByte()), end: int32(nd.EndByte()), parent: parent, first: -1, next: -1}
				if g != nil {
					o.kind, o.named = kindError, true
					if int(sym) < len(g.info) {
						si := g.info[sym]
						o.kind, o.named = si.kind, si.named
						hasVar = hasVar || si.isVar
					}
				}
				out[cur] = o
				if prev >= 0 {
					out[prev].next = cur
				} else if parent >= 0 && int(parent) < len(out) {
					out[parent].first = cur
				}
			}
			if !leaf && c.GoToFirstChild() {
				parent, prev = cur, -1
				continue
			}
			prev = cur
		}
		for !c.GoToNextSibling() {
			if !c.GoToParent() {
				return n, hasVar
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

// keeps reports whether flatten keeps a node of symbol sym that has no
// children (g nil: every node).
func (g *grammar) keeps(sym sitter.Symbol) bool {
	return g == nil || int(sym) >= len(g.info) || g.info[sym].keep
}
