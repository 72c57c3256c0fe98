package rename

import (
	"bytes"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/tent-tools/tent-tools/definitions"
)

// topLevelDeclares reports whether a file's top level declares name with a
// const, let, var, function, class or enum (exported or not). Types are
// not looked at: a type and a value of one name live side by side.
func topLevelDeclares(f *definitions.File, name string) bool {
	if !bytes.Contains(f.Src, []byte(name)) {
		return false
	}
	t := f.SyntaxTree()
	if t == nil {
		return false
	}
	defer t.Close()
	root := t.RootNode()
	for i := 0; i < int(root.NamedChildCount()); i++ {
		n := root.NamedChild(i)
		if n.Type() == "export_statement" {
			if d := n.ChildByFieldName("declaration"); d != nil {
				n = d
			}
		}
		if declares(n, f.Src, name) {
			return true
		}
	}
	return false
}

// declares reports whether one top-level declaration binds name.
func declares(n *sitter.Node, src []byte, name string) bool {
	switch n.Type() {
	case "function_declaration", "generator_function_declaration", "class_declaration", "enum_declaration", "abstract_class_declaration":
		id := n.ChildByFieldName("name")
		return id != nil && id.Content(src) == name
	case "lexical_declaration", "variable_declaration":
		for i := 0; i < int(n.NamedChildCount()); i++ {
			d := n.NamedChild(i)
			if d.Type() != "variable_declarator" {
				continue
			}
			if id := d.ChildByFieldName("name"); id != nil && bindsName(id, src, name) {
				return true
			}
		}
	}
	return false
}

// bindsName reports whether a binding pattern binds name anywhere in it.
func bindsName(n *sitter.Node, src []byte, name string) bool {
	switch n.Type() {
	case "identifier", "shorthand_property_identifier_pattern":
		return n.Content(src) == name
	case "pair_pattern":
		if v := n.ChildByFieldName("value"); v != nil {
			return bindsName(v, src, name)
		}
		return false
	}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		if c.Type() == "property_identifier" {
			continue
		}
		if bindsName(c, src, name) {
			return true
		}
	}
	return false
}
