package definitions

import (
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"
)

// analyzeCode fills what a file's code says: f.Imports, f.Exports, f.Refs
// (scope.go), f.Words and f.Uses. f.Src and f.Definitions must be set: the
// definitions' declarative parts hold no words.
//
// The tree-sitter tree is first copied into a flat slice of nodes (one
// cgo walk), so that the passes that follow run in plain Go. The walk uses
// a copy of f.Tree where there is one, so that the node cache of the tree
// that the index keeps does not grow with every node visited.
func analyzeCode(f *File, root *sitter.Node) {
	if root == nil {
		return
	}
	if f.Tree != nil {
		t := f.Tree.Copy()
		defer t.Close()
		root = t.RootNode()
	}
	st := flatten(root, f.Src, f.Lang)
	f.Imports, f.Exports = readModuleLinks(st)
}

// kind is the kind of a syntax node, reduced to the kinds the code
// analysis tells apart; every other node is kindOther.
type kind uint8

// The node kinds the analysis looks at.
const (
	kindOther kind = iota
	kindProgram
	kindIdentifier
	kindPropertyIdentifier
	kindShorthandProperty        // shorthand_property_identifier: `{ orders }`
	kindShorthandPropertyPattern // shorthand_property_identifier_pattern: `const { orders } = x`
	kindTypeIdentifier
	kindString
	kindStringFragment
	kindEscapeSequence
	kindTemplateString
	kindTemplateSubstitution
	kindComment
	kindImportStatement
	kindImportClause
	kindNamedImports
	kindImportSpecifier
	kindNamespaceImport
	kindExportStatement
	kindExportClause
	kindExportSpecifier
	kindNamespaceExport
	kindMemberExpression
	kindSubscriptExpression
	kindCallExpression
	kindArguments
	kindObject
	kindPair
	kindObjectPattern
	kindPairPattern
	kindArrayPattern
	kindAssignmentPattern
	kindObjectAssignmentPattern
	kindRestPattern
	kindLexicalDeclaration
	kindVariableDeclaration
	kindVariableDeclarator
	kindFunctionDeclaration
	kindGeneratorFunctionDeclaration
	kindFunctionExpression
	kindGeneratorFunction
	kindArrowFunction
	kindMethodDefinition
	kindFormalParameters
	kindRequiredParameter
	kindOptionalParameter
	kindStatementBlock
	kindCatchClause
	kindForStatement
	kindForInStatement
	kindClassDeclaration
	kindAbstractClassDeclaration
	kindClass
	kindClassBody
	kindSwitchBody
	kindJSXOpeningElement
	kindJSXClosingElement
	kindJSXSelfClosingElement
	kindJSXAttribute
	kindTypeQuery
	kindTypeParameters
	kindTypeParameter
	kindInterfaceDeclaration
	kindTypeAliasDeclaration
	kindEnumDeclaration
	kindComputedPropertyName
	kindPublicFieldDefinition
	kindMethodSignature
	kindPropertySignature
	kindModule         // `namespace x {}` / `module x {}`
	kindInternalModule // `namespace x {}`
	kindAmbientDeclaration
	kindTypeAnnotation

	// Anonymous tokens.
	kindTokAs
	kindTokType
	kindTokTypeof
	kindTokStar
	kindTokDefault
	kindTokOpenParen
	kindTokEquals
	kindTokArrow
	kindTokLess
	kindTokVar
	kindTokLet
	kindTokConst
	kindTokFrom
)

// namedKinds maps grammar node type names to kinds.
var namedKinds = map[string]kind{
	"program":                               kindProgram,
	"identifier":                            kindIdentifier,
	"property_identifier":                   kindPropertyIdentifier,
	"shorthand_property_identifier":         kindShorthandProperty,
	"shorthand_property_identifier_pattern": kindShorthandPropertyPattern,
	"type_identifier":                       kindTypeIdentifier,
	"string":                                kindString,
	"string_fragment":                       kindStringFragment,
	"escape_sequence":                       kindEscapeSequence,
	"template_string":                       kindTemplateString,
	"template_substitution":                 kindTemplateSubstitution,
	"comment":                               kindComment,
	"import_statement":                      kindImportStatement,
	"import_clause":                         kindImportClause,
	"named_imports":                         kindNamedImports,
	"import_specifier":                      kindImportSpecifier,
	"namespace_import":                      kindNamespaceImport,
	"export_statement":                      kindExportStatement,
	"export_clause":                         kindExportClause,
	"export_specifier":                      kindExportSpecifier,
	"namespace_export":                      kindNamespaceExport,
	"member_expression":                     kindMemberExpression,
	"subscript_expression":                  kindSubscriptExpression,
	"call_expression":                       kindCallExpression,
	"arguments":                             kindArguments,
	"object":                                kindObject,
	"pair":                                  kindPair,
	"object_pattern":                        kindObjectPattern,
	"pair_pattern":                          kindPairPattern,
	"array_pattern":                         kindArrayPattern,
	"assignment_pattern":                    kindAssignmentPattern,
	"object_assignment_pattern":             kindObjectAssignmentPattern,
	"rest_pattern":                          kindRestPattern,
	"lexical_declaration":                   kindLexicalDeclaration,
	"variable_declaration":                  kindVariableDeclaration,
	"variable_declarator":                   kindVariableDeclarator,
	"function_declaration":                  kindFunctionDeclaration,
	"generator_function_declaration":        kindGeneratorFunctionDeclaration,
	"function_expression":                   kindFunctionExpression,
	"function":                              kindFunctionExpression,
	"generator_function":                    kindGeneratorFunction,
	"arrow_function":                        kindArrowFunction,
	"method_definition":                     kindMethodDefinition,
	"formal_parameters":                     kindFormalParameters,
	"required_parameter":                    kindRequiredParameter,
	"optional_parameter":                    kindOptionalParameter,
	"statement_block":                       kindStatementBlock,
	"catch_clause":                          kindCatchClause,
	"for_statement":                         kindForStatement,
	"for_in_statement":                      kindForInStatement,
	"class_declaration":                     kindClassDeclaration,
	"abstract_class_declaration":            kindAbstractClassDeclaration,
	"class":                                 kindClass,
	"class_body":                            kindClassBody,
	"switch_body":                           kindSwitchBody,
	"jsx_opening_element":                   kindJSXOpeningElement,
	"jsx_closing_element":                   kindJSXClosingElement,
	"jsx_self_closing_element":              kindJSXSelfClosingElement,
	"jsx_attribute":                         kindJSXAttribute,
	"type_query":                            kindTypeQuery,
	"type_parameters":                       kindTypeParameters,
	"type_parameter":                        kindTypeParameter,
	"interface_declaration":                 kindInterfaceDeclaration,
	"type_alias_declaration":                kindTypeAliasDeclaration,
	"enum_declaration":                      kindEnumDeclaration,
	"computed_property_name":                kindComputedPropertyName,
	"public_field_definition":               kindPublicFieldDefinition,
	"method_signature":                      kindMethodSignature,
	"property_signature":                    kindPropertySignature,
	"module":                                kindModule,
	"internal_module":                       kindInternalModule,
	"ambient_declaration":                   kindAmbientDeclaration,
	"type_annotation":                       kindTypeAnnotation,
}

// tokenKinds maps anonymous token texts to kinds.
var tokenKinds = map[string]kind{
	"as":       kindTokAs,
	"type":     kindTokType,
	"typeof":   kindTokTypeof,
	"*":        kindTokStar,
	"default":  kindTokDefault,
	"(":        kindTokOpenParen,
	"=":        kindTokEquals,
	"=>":       kindTokArrow,
	"<":        kindTokLess,
	"var":      kindTokVar,
	"let":      kindTokLet,
	"const":    kindTokConst,
	"from":     kindTokFrom,
	"function": kindOther,
}

// grammar is a language's symbol table, reduced to kinds.
type grammar struct {
	kinds []kind // by symbol
	names []string
}

var (
	grammarsOnce sync.Once
	tsGrammar    *grammar
	tsxGrammar   *grammar
)

func loadGrammar(lang *sitter.Language) *grammar {
	n := int(lang.SymbolCount())
	g := &grammar{kinds: make([]kind, n), names: make([]string, n)}
	for i := 0; i < n; i++ {
		s := sitter.Symbol(i)
		name := lang.SymbolName(s)
		g.names[i] = name
		switch lang.SymbolType(s) {
		case sitter.SymbolTypeRegular:
			g.kinds[i] = namedKinds[name]
		case sitter.SymbolTypeAnonymous:
			g.kinds[i] = tokenKinds[name]
		}
	}
	return g
}

func grammars() (ts, tsxg *grammar) {
	grammarsOnce.Do(func() {
		tsGrammar = loadGrammar(typescript.GetLanguage())
		tsxGrammar = loadGrammar(tsx.GetLanguage())
	})
	return tsGrammar, tsxGrammar
}

// snode is one node of the flat syntax tree. Children of a node follow it
// in the slice (pre-order); first and next link them, -1 where none.
type snode struct {
	kind   kind
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
}

// flatten copies the tree under root into a flat slice, in one walk with a
// tree cursor. The grammar is chosen by lang and confirmed against the
// node type names of the first nodes, so that a .ts file parsed with the
// TSX grammar (or the other way round) is still read right.
func flatten(root *sitter.Node, src []byte, lang Lang) *stree {
	ts, tsxg := grammars()
	g, other := tsxg, ts
	if lang == LangTS {
		g, other = ts, tsxg
	}
	st := &stree{src: src, nodes: make([]snode, 0, len(src)/3+16)}
	c := sitter.NewTreeCursor(root)
	defer c.Close()
	checked := 0
	add := func(parent int32) int32 {
		n := c.CurrentNode()
		sym := uint16(n.Symbol())
		if checked < 24 {
			checked++
			if int(sym) < len(g.names) && g.names[sym] != n.Type() {
				g, other = other, g
			}
		}
		k := kindOther
		if int(sym) < len(g.kinds) {
			k = g.kinds[sym]
		}
		st.nodes = append(st.nodes, snode{kind: k, sym: sym, start: int32(n.StartByte()), end: int32(n.EndByte()), parent: parent, first: -1, next: -1})
		return int32(len(st.nodes) - 1)
	}
	cur := add(-1)
	for {
		if c.GoToFirstChild() {
			child := add(cur)
			st.nodes[cur].first = child
			cur = child
			continue
		}
		for {
			if c.GoToNextSibling() {
				sib := add(st.nodes[cur].parent)
				st.nodes[cur].next = sib
				cur = sib
				break
			}
			if !c.GoToParent() {
				return st
			}
			cur = st.nodes[cur].parent
		}
	}
}

// text is the source text of node i.
func (st *stree) text(i int32) string {
	n := &st.nodes[i]
	return string(st.src[n.start:n.end])
}

// span is the byte range of node i.
func (st *stree) span(i int32) Span {
	n := &st.nodes[i]
	return Span{int(n.start), int(n.end)}
}

// child returns the first child of i of kind k, or -1.
func (st *stree) child(i int32, k kind) int32 {
	for c := st.nodes[i].first; c >= 0; c = st.nodes[c].next {
		if st.nodes[c].kind == k {
			return c
		}
	}
	return -1
}

// last returns the last child of i, or -1.
func (st *stree) last(i int32) int32 {
	l := int32(-1)
	for c := st.nodes[i].first; c >= 0; c = st.nodes[c].next {
		l = c
	}
	return l
}

// nth returns the child of i at index n, or -1.
func (st *stree) nth(i int32, n int) int32 {
	c := st.nodes[i].first
	for ; c >= 0 && n > 0; c = st.nodes[c].next {
		n--
	}
	return c
}

// after returns the first child of i that follows a child of kind k and is
// a name (identifier-like), or -1.
func (st *stree) after(i int32, k kind) int32 {
	seen := false
	for c := st.nodes[i].first; c >= 0; c = st.nodes[c].next {
		if seen && st.isName(c) {
			return c
		}
		if st.nodes[c].kind == k {
			seen = true
		}
	}
	return -1
}

// isName reports whether node i is an identifier-like leaf.
func (st *stree) isName(i int32) bool {
	switch st.nodes[i].kind {
	case kindIdentifier, kindTypeIdentifier, kindPropertyIdentifier, kindShorthandProperty, kindShorthandPropertyPattern:
		return true
	}
	return false
}

// stringValue returns the content of a string literal node (between its
// quotes) and its span, and whether it is a plain literal: no escape
// sequence, no substitution. An empty string has an empty span inside
// its quotes.
func (st *stree) stringValue(i int32) (string, Span, bool) {
	n := &st.nodes[i]
	if n.kind != kindString && n.kind != kindTemplateString {
		return "", Span{}, false
	}
	if n.end-n.start < 2 {
		return "", Span{}, false
	}
	frag := int32(-1)
	for c := n.first; c >= 0; c = st.nodes[c].next {
		switch st.nodes[c].kind {
		case kindStringFragment:
			if frag >= 0 {
				return "", Span{}, false
			}
			frag = c
		case kindEscapeSequence, kindTemplateSubstitution:
			return "", Span{}, false
		}
	}
	if frag < 0 {
		return "", Span{int(n.start) + 1, int(n.start) + 1}, true
	}
	return st.text(frag), st.span(frag), true
}

// readModuleLinks reads the import and export specifiers of the file's
// top-level statements. `export * from './x'` is recorded as an Export with
// Local and Exported "*", and `export * as ns from './x'` with Local "*"
// and Exported "ns", so that re-export chains can be followed through them.
func readModuleLinks(st *stree) ([]Import, []Export) {
	var imports []Import
	var exports []Export
	for s := st.nodes[0].first; s >= 0; s = st.nodes[s].next {
		switch st.nodes[s].kind {
		case kindImportStatement:
			imports = append(imports, st.readImport(s)...)
		case kindExportStatement:
			exports = append(exports, st.readExport(s)...)
		}
	}
	return imports, exports
}

// source returns the module string of an import or export statement.
func (st *stree) source(s int32) (string, Span, bool) {
	str := st.child(s, kindString)
	if str < 0 {
		return "", Span{}, false
	}
	v, sp, ok := st.stringValue(str)
	return v, sp, ok
}

func (st *stree) readImport(s int32) []Import {
	module, mspan, ok := st.source(s)
	if !ok {
		return nil
	}
	clause := st.child(s, kindImportClause)
	if clause < 0 {
		return nil // a side-effect import binds nothing
	}
	var out []Import
	for c := st.nodes[clause].first; c >= 0; c = st.nodes[c].next {
		switch st.nodes[c].kind {
		case kindIdentifier:
			out = append(out, Import{Module: module, ModuleSpan: mspan, Imported: "default",
				ImportedSpan: st.span(c), Local: st.text(c), LocalSpan: st.span(c)})
		case kindNamespaceImport:
			if id := st.child(c, kindIdentifier); id >= 0 {
				out = append(out, Import{Module: module, ModuleSpan: mspan, Imported: "*",
					ImportedSpan: st.span(c), Local: st.text(id), LocalSpan: st.span(id)})
			}
		case kindNamedImports:
			for sp := st.nodes[c].first; sp >= 0; sp = st.nodes[sp].next {
				if st.nodes[sp].kind != kindImportSpecifier {
					continue
				}
				name, alias := st.specifierNames(sp)
				if name < 0 {
					continue
				}
				imp := Import{Module: module, ModuleSpan: mspan, Imported: st.specifierText(name),
					ImportedSpan: st.specifierSpan(name), Local: st.text(name), LocalSpan: st.span(name)}
				if alias >= 0 {
					imp.Local, imp.LocalSpan = st.text(alias), st.span(alias)
				}
				out = append(out, imp)
			}
		}
	}
	return out
}

// specifierNames returns the name and the alias (-1 where none) of an
// import or export specifier.
func (st *stree) specifierNames(sp int32) (name, alias int32) {
	name, alias = -1, -1
	seenAs := false
	for c := st.nodes[sp].first; c >= 0; c = st.nodes[c].next {
		switch st.nodes[c].kind {
		case kindTokAs:
			seenAs = true
		case kindIdentifier, kindString:
			if seenAs {
				alias = c
			} else if name < 0 {
				name = c
			}
		}
	}
	return name, alias
}

// specifierText is the name a specifier node gives: an identifier's text,
// or a string name's content (`import { 'a-b' as x }`).
func (st *stree) specifierText(i int32) string {
	if st.nodes[i].kind == kindString {
		v, _, _ := st.stringValue(i)
		return v
	}
	return st.text(i)
}

func (st *stree) specifierSpan(i int32) Span {
	if st.nodes[i].kind == kindString {
		_, sp, _ := st.stringValue(i)
		return sp
	}
	return st.span(i)
}

func (st *stree) readExport(s int32) []Export {
	module, _, _ := st.source(s)
	var out []Export
	for c := st.nodes[s].first; c >= 0; c = st.nodes[c].next {
		switch st.nodes[c].kind {
		case kindExportClause:
			for sp := st.nodes[c].first; sp >= 0; sp = st.nodes[sp].next {
				if st.nodes[sp].kind != kindExportSpecifier {
					continue
				}
				name, alias := st.specifierNames(sp)
				if name < 0 {
					continue
				}
				e := Export{Local: st.specifierText(name), LocalSpan: st.specifierSpan(name), Module: module}
				e.Exported, e.ExportedSpan = e.Local, e.LocalSpan
				if alias >= 0 {
					e.Exported, e.ExportedSpan = st.specifierText(alias), st.specifierSpan(alias)
				}
				out = append(out, e)
			}
		case kindTokStar:
			if module != "" {
				sp := st.span(c)
				out = append(out, Export{Local: "*", LocalSpan: sp, Exported: "*", ExportedSpan: sp, Module: module})
			}
		case kindNamespaceExport:
			if id := st.child(c, kindIdentifier); id >= 0 && module != "" {
				out = append(out, Export{Local: "*", LocalSpan: st.span(c), Exported: st.text(id), ExportedSpan: st.span(id), Module: module})
			}
		}
	}
	return out
}
