//go:build !(linux && amd64)

package definitions

import sitter "github.com/smacker/go-tree-sitter"

// flatWalk is the walk flatten copies a tree with: on this platform the
// binding's cursor (flatWalkGo); linux/amd64 has a faster one in C
// (flatten_linux_amd64.go), tested there only.
func flatWalk(root *sitter.Node, out []snode, g *grammar) (int, bool) {
	return flatWalkGo(root, out, g)
}
