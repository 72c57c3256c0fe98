package definitions

import (
	"cmp"
	"slices"
	"sort"
	"strings"
	"sync"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"
)

// analyzeCode fills what a file's code says: f.Imports, f.Exports, its
// IdentRefs (scope.go), f.Words and f.Uses. f.Src and f.Definitions must be set: the
// definitions' declarative parts hold no words (comments excepted: they
// are read everywhere).
//
// Uses.LibCalls also records calls of the file's own top-level functions,
// as "#name" (the module left empty: this file), so that sending can be
// inferred through a local helper as through an imported one.
//
// st is the file's tree flattened (flatten): the passes run in plain Go,
// on the same flat copy that readDefinitions reads.
//
// Where lazy is set (Options.Lazy), the IdentRefs and words are left out,
// to be read from the file's text if they are asked for (cache_code.go):
// the uses are read alone, asking of the few identifiers they need
// whether each is an IdentRef (refQuery).
func analyzeCode(f *File, st *stree, lazy bool) {
	if st == nil || len(st.nodes) == 0 {
		return
	}
	f.Imports, f.Exports = readModuleLinks(st)
	var writes []int32
	if lazy {
		f.lazy = &lazyCode{}
		_, f.Uses, writes = readWords(f, st, nil, true)
	} else {
		f.refs = resolveScopes(st)
		f.words, f.Uses, writes = readWords(f, st, f.refs, false)
	}
	f.Uses.Rows = readRowFlow(f, st, writes)
}

// kind is the kind of a syntax node, reduced to the kinds the code
// analysis tells apart; every other node is kindOther.
type kind uint8

// The node kinds the analysis looks at.
const (
	kindOther kind = iota
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
	kindTypeParameters
	kindTypeParameter
	kindInterfaceDeclaration
	kindTypeAliasDeclaration
	kindEnumDeclaration
	kindMethodSignature
	kindModule         // `namespace x {}` / `module x {}`
	kindInternalModule // `namespace x {}`
	kindAmbientDeclaration
	kindNestedTypeIdentifier
	kindNestedIdentifier
	kindSwitchCase
	kindSwitchDefault
	kindFunctionType
	kindConstructorType
	kindCallSignature
	kindConstructSignature
	kindAbstractMethodSignature
	kindFunctionSignature
	kindIndexSignature
	kindMappedTypeClause
	kindJSXNamespaceName
	kindNumber
	kindUnaryExpression
	kindTrue
	kindFalse
	kindNull
	kindUndefined
	kindArray
	kindSpreadElement
	kindParenthesizedExpression
	kindAsExpression
	kindSatisfiesExpression
	kindNonNullExpression
	kindPrivatePropertyIdentifier
	kindComputedPropertyName
	// kindError is a node tree-sitter made to hold what it could not parse.
	kindError
	// kindWrite is an assignment or an update (`x = …`, `x += …`, `x++`):
	// readWords lists these for the row flow (rowWalker.writtenIn).
	kindWrite

	// Anonymous tokens.
	kindTokAs
	kindTokStar
	kindTokVar
	kindTokLet
	kindTokConst
)

// namedKinds maps grammar node type names to kinds.
var namedKinds = map[string]kind{
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
	"assignment_expression":                 kindWrite,
	"augmented_assignment_expression":       kindWrite,
	"update_expression":                     kindWrite,
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
	"type_parameters":                       kindTypeParameters,
	"type_parameter":                        kindTypeParameter,
	"interface_declaration":                 kindInterfaceDeclaration,
	"type_alias_declaration":                kindTypeAliasDeclaration,
	"enum_declaration":                      kindEnumDeclaration,
	"method_signature":                      kindMethodSignature,
	"module":                                kindModule,
	"internal_module":                       kindInternalModule,
	"ambient_declaration":                   kindAmbientDeclaration,
	"nested_type_identifier":                kindNestedTypeIdentifier,
	"nested_identifier":                     kindNestedIdentifier,
	"switch_case":                           kindSwitchCase,
	"switch_default":                        kindSwitchDefault,
	"function_type":                         kindFunctionType,
	"constructor_type":                      kindConstructorType,
	"call_signature":                        kindCallSignature,
	"construct_signature":                   kindConstructSignature,
	"abstract_method_signature":             kindAbstractMethodSignature,
	"function_signature":                    kindFunctionSignature,
	"index_signature":                       kindIndexSignature,
	"mapped_type_clause":                    kindMappedTypeClause,
	"jsx_namespace_name":                    kindJSXNamespaceName,
	"number":                                kindNumber,
	"unary_expression":                      kindUnaryExpression,
	"true":                                  kindTrue,
	"false":                                 kindFalse,
	"null":                                  kindNull,
	"undefined":                             kindUndefined,
	"array":                                 kindArray,
	"spread_element":                        kindSpreadElement,
	"parenthesized_expression":              kindParenthesizedExpression,
	"as_expression":                         kindAsExpression,
	"satisfies_expression":                  kindSatisfiesExpression,
	"non_null_expression":                   kindNonNullExpression,
	"private_property_identifier":           kindPrivatePropertyIdentifier,
	"computed_property_name":                kindComputedPropertyName,
}

// tokenKinds maps anonymous token texts to kinds.
var tokenKinds = map[string]kind{
	"as":    kindTokAs,
	"*":     kindTokStar,
	"var":   kindTokVar,
	"let":   kindTokLet,
	"const": kindTokConst,
}

// grammar is a language's symbol table, reduced to kinds.
type grammar struct {
	names []string  // by symbol
	info  []symInfo // its kind, named, and what flatten keeps, by symbol
}

var (
	grammarsOnce sync.Once
	tsGrammar    *grammar
	tsxGrammar   *grammar
)

func loadGrammar(lang *sitter.Language) *grammar {
	n := int(lang.SymbolCount())
	g := &grammar{names: make([]string, n), info: make([]symInfo, n)}
	for i := 0; i < n; i++ {
		s := sitter.Symbol(i)
		name := lang.SymbolName(s)
		g.names[i] = name
		var si symInfo
		switch lang.SymbolType(s) {
		case sitter.SymbolTypeRegular:
			si.kind, si.named = namedKinds[name], true
		case sitter.SymbolTypeAnonymous:
			si.kind = tokenKinds[name]
		}
		si.keep = lang.SymbolType(s) != sitter.SymbolTypeAnonymous || slices.Contains(keptTokens, name)
		si.isVar = si.kind == kindTokVar || si.kind == kindVariableDeclaration
		g.info[i] = si
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

// text is the source text of node i.
func (st *stree) text(i int32) string {
	n := &st.nodes[i]
	return st.str(st.src[n.start:n.end])
}

// str is b, a part of the tree's text, as a string: sharing its bytes
// where the tree says so (share), a copy where not. A cold check read
// some 24 strings of each file, copied, a tenth of its readers' time.
func (st *stree) str(b []byte) string {
	if st.share && len(b) > 0 {
		return unsafe.String(&b[0], len(b))
	}
	return string(b)
}

// bytes is the source text of node i, shared with the file's text.
func (st *stree) bytes(i int32) []byte {
	n := &st.nodes[i]
	return st.src[n.start:n.end:n.end]
}

// is reports whether the source text of node i is s, without making a
// string of it.
func (st *stree) is(i int32, s string) bool {
	return string(st.bytes(i)) == s
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
//
// They are read into the worker's scratch (st.words) and copied out at
// their size: a file has some twenty imports, and growing a slice to
// hold them made twice the memory they take.
func readModuleLinks(st *stree) ([]Import, []Export) {
	var imports []Import
	var exports []Export
	if st.words != nil {
		imports, exports = st.words.imports[:0], st.words.exports[:0]
	}
	for _, s := range st.topStatements() {
		switch st.nodes[s].kind {
		case kindImportStatement:
			imports = st.readImport(imports, s)
		case kindExportStatement:
			exports = st.readExport(exports, s)
		}
	}
	if st.words == nil {
		return imports, exports
	}
	st.words.imports, st.words.exports = imports, exports
	return cloneOrNil(imports), cloneOrNil(exports)
}

// cloneOrNil is a copy of s at its length, nil where s is empty.
func cloneOrNil[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return slices.Clone(s)
}

// topStatements returns the top-level statements of the file. Statements
// that tree-sitter could only place inside a top-level ERROR node count
// too, so that a syntax error does not hide the imports around it. They
// are listed once per tree (four readers ask).
func (st *stree) topStatements() []int32 {
	if st.top == nil {
		st.top = st.listTopStatements()
	}
	return st.top
}

func (st *stree) listTopStatements() []int32 {
	out := []int32{}
	var add func(n int32)
	add = func(n int32) {
		for s := st.nodes[n].first; s >= 0; s = st.nodes[s].next {
			if st.nodes[s].kind == kindError {
				add(s)
				continue
			}
			out = append(out, s)
		}
	}
	add(0)
	return out
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

// readImport appends the imports of import statement s to out.
func (st *stree) readImport(out []Import, s int32) []Import {
	module, mspan, ok := st.source(s)
	if !ok {
		return out
	}
	clause := st.child(s, kindImportClause)
	if clause < 0 {
		return out // a side-effect import binds nothing
	}
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

// readExport appends the exports of export statement s to out.
func (st *stree) readExport(out []Export, s int32) []Export {
	module, _, _ := st.source(s)
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

// The methods of ctx.db.T whose object argument names columns, and which
// argument that is.
var dbKeyArg = map[string]int{"insert": 0, "where": 0, "update": 1}

// dbMethods are the methods of ctx.db.T (docs/pages/format.md §6).
var dbMethods = map[string]bool{"insert": true, "update": true, "where": true, "get": true, "all": true, "remove": true}

// codeReader collects a file's words and uses in one pass over its nodes.
type codeReader struct {
	f     *File
	st    *stree
	decl  []Span // declarative ranges (no words), sorted, disjoint
	owner ownerIndex
	uses  Uses
	*wordScratch
	// keyTable marks the key nodes of an object literal passed to
	// ctx.db.T.insert/where/update, with T.
	keyTable map[int32]string
	imports  map[string]*Import // by local name
	// refs are the file's IdentRefs, where the words are read; where
	// the uses are read alone (usesOnly), refQuery answers isRef.
	refs     []IdentRef
	usesOnly bool
	query    *refQuery
}

// wordScratch is where readWords collects a file's words before it groups
// them. A worker keeps one from file to file (stree.words), so that the
// lists grow a few times per Build rather than for every file.
type wordScratch struct {
	// The words, in the order found: found[i] is one of the word
	// keys[group[i]]. ids maps each key to its index in keys, so that each
	// distinct word is made a string once per file.
	ids   map[string]int32
	keys  []string
	found []Word
	group []int32
	// handled marks, by node, the nodes already read as part of a larger
	// pattern: a slice over the file's nodes, which a lookup per node
	// costs less than a map's.
	handled []bool
	// declared is refQuery's marks of the declaring nodes, by node,
	// and query the query itself (newRefQuery), both from file to file.
	declared []bool
	query    *refQuery
	// positions are readDefinitions' (declReader.pos), made on its
	// first file: a scratch made for one read of words (cache_code.go)
	// needs none.
	positions *positions
	// imports and exports are readModuleLinks'.
	imports []Import
	exports []Export
	// tent, tentNS and bound are readDefinitions' (declReader).
	tent   map[string]tentBinding
	tentNS map[string]string
	bound  map[string]bool
	// importsByLocal and funcs are readWords' (codeReader.imports,
	// ownerIndex.named).
	importsByLocal map[string]*Import
	funcs          map[string]bool
	// decl, holes, ownerDefs and ownerFuncs are readWords' (its
	// declarative ranges and owners), and db, calls and sends its uses.
	decl, holes           []Span
	ownerDefs, ownerFuncs []ownedSpan
	db                    []DBUse
	calls                 []CallUse
	sends                 []SendUse
	// rowUses and rowCalls are readRowFlow's, and rows its values and
	// scopes.
	rowUses  []RowUse
	rowCalls []RowCall
	rows     rowArena
	// writes are readWords' list of the file's nodes of kindWrite, in
	// order, which readRowFlow reads instead of scanning each function.
	writes []int32
}

// reset empties the scratch for the next file.
func (s *wordScratch) reset() {
	if s.ids == nil {
		s.ids = map[string]int32{}
	}
	clear(s.ids)
	clear(s.keys)
	clear(s.found) // drop the strings of the last file
	s.keys, s.found, s.group = s.keys[:0], s.found[:0], s.group[:0]
}

// How readWords' loop over the nodes takes a node of each kind.
const (
	readNone  = iota // passed over
	readNode         // read by codeReader.node
	readWrite        // listed in writes
)

// wordsRead and usesRead are readWords' table of what it does with a
// node of each kind, reading words and uses, or uses alone; they never
// change.
var wordsRead, usesRead = func() (words, uses [256]uint8) {
	for _, k := range []kind{kindMemberExpression, kindSubscriptExpression, kindCallExpression} {
		words[k], uses[k] = readNode, readNode
	}
	for _, k := range []kind{kindComment, kindPropertyIdentifier, kindShorthandProperty, kindShorthandPropertyPattern, kindString, kindTemplateString} {
		words[k] = readNode
	}
	words[kindWrite], uses[kindWrite] = readWrite, readWrite
	return words, uses
}()

// readWords reads the words and uses of the file's code parts, refs being
// its IdentRefs; with usesOnly, the uses alone (no words, and refs are
// not needed). It also lists the file's assignments and updates (writes,
// in node order, for readRowFlow), as it tells every node's kind: the
// list is its scratch's, good until the scratch's next file.
func readWords(f *File, st *stree, refs []IdentRef, usesOnly bool) (words map[string][]Word, uses Uses, writes []int32) {
	scratch := st.words
	if scratch == nil {
		scratch = &wordScratch{}
	}
	scratch.reset()
	scratch.handled = slices.Grow(scratch.handled[:0], len(st.nodes))[:len(st.nodes)]
	clear(scratch.handled)
	// The declarative ranges, the owners' spans and the uses are read
	// into the scratch's lists: the first two die with the read, the
	// uses are copied out at their size.
	decl, holes := declarativeRanges(f.Definitions, scratch.decl[:0], scratch.holes[:0])
	scratch.decl, scratch.holes = decl, holes
	r := &codeReader{f: f, st: st, decl: decl, wordScratch: scratch,
		refs: refs, usesOnly: usesOnly}
	r.uses.DB, r.uses.Calls, r.uses.Sends = scratch.db[:0], scratch.calls[:0], scratch.sends[:0]
	if !usesOnly {
		r.keyTable = map[int32]string{}
	}
	if scratch.importsByLocal == nil {
		scratch.importsByLocal, scratch.funcs = map[string]*Import{}, map[string]bool{}
	}
	clear(scratch.importsByLocal)
	clear(scratch.funcs)
	r.owner = newOwnerIndex(f, st, scratch.funcs, scratch.ownerDefs[:0], scratch.ownerFuncs[:0])
	r.imports = scratch.importsByLocal
	for i := range f.Imports {
		r.imports[f.Imports[i].Local] = &f.Imports[i]
	}
	writes = scratch.writes[:0]
	// The kinds node reads, told here by one look in a table: most nodes
	// are none, and a call for each cost more than the test.
	read := &wordsRead
	if usesOnly {
		read = &usesRead
	}
	for i := range st.nodes {
		switch read[st.nodes[i].kind] {
		case readNone:
			continue
		case readWrite:
			writes = append(writes, int32(i))
			continue
		}
		r.node(int32(i))
	}
	for _, s := range r.uses.Sends {
		if fn := r.owner.function(int32(s.Span.Start)); fn != "" {
			if r.uses.SendsOf == nil {
				r.uses.SendsOf = map[string][]string{}
			}
			if !slices.Contains(r.uses.SendsOf[fn], s.Kind) {
				r.uses.SendsOf[fn] = append(r.uses.SendsOf[fn], s.Kind)
			}
		}
	}
	scratch.ownerDefs, scratch.ownerFuncs = r.owner.defs, r.owner.funcs
	scratch.db, scratch.calls, scratch.sends = r.uses.DB, r.uses.Calls, r.uses.Sends
	scratch.writes = writes
	r.uses.DB, r.uses.Calls, r.uses.Sends = cloneOrNil(r.uses.DB), cloneOrNil(r.uses.Calls), cloneOrNil(r.uses.Sends)
	return r.words(), r.uses, writes
}

// words groups the words found by word, each group in the order found,
// all groups sharing one array; nil where there are none.
func (r *codeReader) words() map[string][]Word {
	if len(r.found) == 0 {
		return nil
	}
	// start[id] is where the group of keys[id] begins; a key interned for
	// a use but never found as a word has an empty group and no entry.
	start := make([]int32, len(r.keys)+1)
	for _, id := range r.group {
		start[id+1]++
	}
	for id := range r.keys {
		start[id+1] += start[id]
	}
	at := append([]int32(nil), start[:len(r.keys)]...)
	all := make([]Word, len(r.found))
	for i, w := range r.found {
		id := r.group[i]
		all[at[id]] = w
		at[id]++
	}
	words := make(map[string][]Word, len(r.keys))
	for id, k := range r.keys {
		if lo, hi := start[id], start[id+1]; hi > lo {
			words[k] = all[lo:hi:hi]
		}
	}
	return words
}

// intern returns the text of sp as a string, made once per file.
func (r *codeReader) intern(sp Span) string {
	_, s := r.internID(sp)
	return s
}

func (r *codeReader) internID(sp Span) (int32, string) {
	b := r.st.src[sp.Start:sp.End]
	if id, ok := r.ids[string(b)]; ok {
		return id, r.keys[id]
	}
	s := r.st.str(b)
	id := int32(len(r.keys))
	r.ids[s] = id
	r.keys = append(r.keys, s)
	return id, s
}

// declarativeRanges returns the parts of the definitions' arguments that
// are read statically: each argument, less its code values (arrow
// functions and function expressions) and the values it cannot read (a
// variable, a call of something else), which are code as well.
//
// They are appended to out, and holes is the room to collect the code
// values in; both are returned for the caller to keep for the next file.
func declarativeRanges(defs []*Definition, out, holes []Span) ([]Span, []Span) {
	for _, d := range defs {
		if d.Arg == nil {
			continue
		}
		holes = holes[:0]
		collectCode(d.Arg, &holes)
		sortSpans(holes)
		start := d.Arg.Span.Start
		for _, h := range holes {
			if h.Start > start {
				out = append(out, Span{start, h.Start})
			}
			if h.End > start {
				start = h.End
			}
		}
		if start < d.Arg.Span.End {
			out = append(out, Span{start, d.Arg.Span.End})
		}
	}
	sortSpans(out)
	return out, holes
}

// sortSpans sorts spans by their start. They come in source order nearly
// always (a value's items and properties, the definitions of a file), so
// a check spares the sort, and the sort takes no reflection where not.
func sortSpans(spans []Span) {
	byStart := func(a, b Span) int { return cmp.Compare(a.Start, b.Start) }
	if !slices.IsSortedFunc(spans, byStart) {
		slices.SortStableFunc(spans, byStart)
	}
}

func collectCode(v *Value, holes *[]Span) {
	if v == nil {
		return
	}
	switch v.Kind {
	case ValCode, ValUnreadable:
		*holes = append(*holes, v.Span)
		return
	}
	for _, it := range v.Items {
		collectCode(it, holes)
	}
	for _, p := range v.Props {
		if !p.Shorthand {
			collectCode(p.Value, holes)
		}
	}
}

// isRef reports whether identifier node i is an IdentRef of the file: the
// refs are in source order (resolveScopes), so a binary search finds the
// one that starts where i does; where they are not read (usesOnly), the
// query resolves i alone.
func (r *codeReader) isRef(i int32) bool {
	if r.usesOnly {
		if r.query == nil {
			r.query = newRefQuery(r.st, r.wordScratch)
		}
		return r.query.isRef(i)
	}
	refs := r.refs
	o := int(r.st.nodes[i].start)
	k := sort.Search(len(refs), func(k int) bool { return refs[k].Span.Start >= o })
	return k < len(refs) && refs[k].Span.Start == o
}

// inCode reports whether offset is in a code part of the file.
func (r *codeReader) inCode(off int32) bool {
	o := int(off)
	i := sort.Search(len(r.decl), func(i int) bool { return r.decl[i].End > o })
	return i == len(r.decl) || r.decl[i].Start > o
}

// word records the word that the source text of sp is (none where the
// uses are read alone).
func (r *codeReader) word(sp Span, why Why, table string) {
	if r.usesOnly {
		return
	}
	id, w := r.internID(sp)
	r.found = append(r.found, Word{Word: w, Span: sp, Why: why, Table: table})
	r.group = append(r.group, id)
}

// node reads one node: the walk visits nodes in source order.
func (r *codeReader) node(i int32) {
	st := r.st
	n := &st.nodes[i]
	switch n.kind {
	case kindComment:
		if !r.usesOnly {
			r.comment(i)
		}
		return
	case kindPropertyIdentifier, kindShorthandProperty, kindShorthandPropertyPattern, kindString, kindTemplateString:
		if r.usesOnly {
			return // words alone
		}
	case kindMemberExpression, kindSubscriptExpression, kindCallExpression:
	default:
		return
	}
	if r.handled[i] || !r.inCode(n.start) {
		return
	}
	switch n.kind {
	case kindPropertyIdentifier:
		r.property(i)
	case kindShorthandProperty:
		r.word(st.span(i), WhyObjectKey, r.keyTable[i])
	case kindShorthandPropertyPattern:
		r.word(st.span(i), WhyProperty, "")
	case kindString, kindTemplateString:
		r.stringWord(i)
	case kindMemberExpression:
		r.member(i)
	case kindSubscriptExpression:
		r.subscript(i)
	case kindCallExpression:
		r.call(i)
	}
}

// comment records each identifier-shaped word of a comment. Comments are
// read everywhere, declarative parts included: a comment is never a plain
// place, and one that names a column may need a hand after a rename.
func (r *codeReader) comment(i int32) {
	st := r.st
	n := &st.nodes[i]
	src := st.src
	for p := int(n.start); p < int(n.end); {
		if !IdentByte(src[p]) {
			p++
			continue
		}
		q := p
		for q < int(n.end) && IdentByte(src[q]) {
			q++
		}
		if Identifier(src[p:q]) {
			r.word(Span{p, q}, WhyComment, "")
		}
		p = q
	}
}

// property reads a property name: a member access, an object key, a
// destructuring key, a JSX attribute, a class or interface member.
func (r *codeReader) property(i int32) {
	st := r.st
	p := st.nodes[i].parent
	why, table := WhyProperty, ""
	if p >= 0 {
		switch st.nodes[p].kind {
		case kindPair:
			if st.nodes[p].first == i {
				why, table = WhyObjectKey, r.keyTable[i]
			}
		case kindMethodDefinition:
			if gp := st.nodes[p].parent; gp >= 0 && st.nodes[gp].kind == kindObject {
				why = WhyObjectKey
			}
		}
	}
	r.word(st.span(i), why, table)
}

// stringWord reads a string literal: an object key, a db accessor
// (`ctx.db['orders']`), a call name, a property access by name, or a plain
// string. Module names of imports and exports are no words.
func (r *codeReader) stringWord(i int32) {
	st := r.st
	p := st.nodes[i].parent
	if p >= 0 {
		switch st.nodes[p].kind {
		case kindImportStatement, kindExportStatement:
			return
		}
	}
	v, sp, ok := st.stringValue(i)
	if !ok || !Identifier(v) {
		return
	}
	why, table := WhyString, ""
	if p >= 0 {
		switch st.nodes[p].kind {
		case kindPair:
			if st.nodes[p].first == i {
				why, table = WhyObjectKey, r.keyTable[i]
			}
		case kindSubscriptExpression:
			if st.nodes[p].first != i {
				why = WhyProperty
			}
		}
	}
	r.word(sp, why, table)
}

// member reads `<expr>.db.T` (and `<expr>.db['T']`) and `<expr>.mail.send`,
// `<expr>.http.fetch`.
func (r *codeReader) member(i int32) {
	st := r.st
	obj, prop := st.nodes[i].first, st.last(i)
	if obj < 0 || prop < 0 || st.nodes[prop].kind != kindPropertyIdentifier {
		return
	}
	if st.nodes[obj].kind != kindMemberExpression {
		return
	}
	inner := st.last(obj)
	if inner < 0 || st.nodes[inner].kind != kindPropertyIdentifier {
		return
	}
	kind := ""
	switch {
	case st.is(inner, "db"):
		r.handled[prop] = true
		r.dbUse(i, st.span(prop))
		return
	case st.is(inner, "mail") && st.is(prop, "send"):
		kind = "mail"
	case st.is(inner, "http") && st.is(prop, "fetch"):
		kind = "http"
	default:
		return
	}
	r.uses.Sends = append(r.uses.Sends, SendUse{Def: r.owner.definition(st.nodes[i].start), Kind: kind, Span: st.span(i)})
}

// subscript reads `<expr>.db['T']`.
func (r *codeReader) subscript(i int32) {
	st := r.st
	obj := st.nodes[i].first
	if obj < 0 || st.nodes[obj].kind != kindMemberExpression {
		return
	}
	if inner := st.last(obj); inner < 0 || st.nodes[inner].kind != kindPropertyIdentifier || !st.is(inner, "db") {
		return
	}
	for c := st.nodes[obj].next; c >= 0; c = st.nodes[c].next {
		if st.nodes[c].kind == kindString {
			if v, sp, ok := st.stringValue(c); ok && Identifier(v) {
				r.handled[c] = true
				r.dbUse(i, sp)
			}
			return
		}
	}
}

// dbUse records `<expr>.db.T` at node acc (a member expression, or a
// subscript expression with a string), where tableSpan holds T, with the
// method called on it and the keys of its object argument.
func (r *codeReader) dbUse(acc int32, tableSpan Span) {
	st := r.st
	table := r.intern(tableSpan)
	r.word(tableSpan, WhyDBAccessor, table)
	use := DBUse{Def: r.owner.definition(st.nodes[acc].start), Table: table, TableSpan: tableSpan}
	if m := st.nodes[acc].parent; m >= 0 && st.nodes[m].kind == kindMemberExpression && st.nodes[m].first == acc {
		if mp := st.last(m); mp >= 0 && st.nodes[mp].kind == kindPropertyIdentifier && dbMethods[string(st.bytes(mp))] {
			if c := st.nodes[m].parent; c >= 0 && st.nodes[c].kind == kindCallExpression && st.nodes[c].first == m {
				use.Method = r.intern(st.span(mp))
				if argIdx, ok := dbKeyArg[use.Method]; ok {
					if obj := r.argument(c, argIdx); obj >= 0 && st.nodes[obj].kind == kindObject {
						use.Keys = r.objectKeys(obj, table)
					}
				}
			}
		}
	}
	r.uses.DB = append(r.uses.DB, use)
}

// markKey marks node n as a key of an object literal given to ctx.db.T,
// T being table, for its word (none where the uses are read alone).
func (r *codeReader) markKey(n int32, table string) {
	if !r.usesOnly {
		r.keyTable[n] = table
	}
}

// argument returns the n-th argument of call c, or -1.
func (r *codeReader) argument(c int32, n int) int32 {
	st := r.st
	args := st.child(c, kindArguments)
	if args < 0 {
		return -1
	}
	for a := st.nodes[args].first; a >= 0; a = st.nodes[a].next {
		if !st.nodes[a].named || st.nodes[a].kind == kindComment {
			continue
		}
		if n == 0 {
			return a
		}
		n--
	}
	return -1
}

// objectKeys returns the keys of object literal obj and marks their nodes
// as keys of table.
func (r *codeReader) objectKeys(obj int32, table string) []NameRef {
	st := r.st
	var keys []NameRef
	for c := st.nodes[obj].first; c >= 0; c = st.nodes[c].next {
		switch st.nodes[c].kind {
		case kindShorthandProperty:
			r.markKey(c, table)
			keys = append(keys, NameRef{Name: st.text(c), Span: st.span(c), Lit: st.span(c)})
		case kindPair:
			k := st.nodes[c].first
			if k < 0 {
				continue
			}
			switch st.nodes[k].kind {
			case kindPropertyIdentifier:
				r.markKey(k, table)
				keys = append(keys, NameRef{Name: st.text(k), Span: st.span(k), Lit: st.span(k)})
			case kindString:
				if v, sp, ok := st.stringValue(k); ok {
					r.markKey(k, table)
					keys = append(keys, NameRef{Name: v, Span: sp, Lit: st.span(k)})
				}
			}
		}
	}
	return keys
}

// call reads `<expr>.call('X', ...)`, `<expr>.db['T']...`, and the calls of
// imported or top-level functions (for the sends inference).
func (r *codeReader) call(c int32) {
	st := r.st
	fn := st.nodes[c].first
	if fn < 0 {
		return
	}
	switch st.nodes[fn].kind {
	case kindMemberExpression:
		obj, prop := st.nodes[fn].first, st.last(fn)
		if prop >= 0 && st.nodes[prop].kind == kindPropertyIdentifier && st.is(prop, "call") {
			if a := r.argument(c, 0); a >= 0 {
				if v, sp, ok := st.stringValue(a); ok {
					r.handled[a] = true
					r.uses.Calls = append(r.uses.Calls, CallUse{Def: r.owner.definition(st.nodes[c].start),
						Name: NameRef{Name: v, Span: sp, Lit: st.span(a)}})
					if Identifier(v) {
						r.word(sp, WhyCallName, "")
					}
				}
			}
		}
		// ns.helper(): a call of a namespace import's member. Whether
		// ns is an IdentRef is asked last, of a call libCall keeps.
		if obj >= 0 && st.nodes[obj].kind == kindIdentifier && prop >= 0 {
			if imp := r.imports[string(st.bytes(obj))]; imp != nil && imp.Imported == "*" && libModule(imp.Module) && r.isRef(obj) {
				r.libCall(c, imp.Module+"#"+string(st.bytes(prop)))
			}
		}
	case kindIdentifier:
		name := st.bytes(fn)
		if imp := r.imports[string(name)]; imp != nil {
			if libModule(imp.Module) && r.isRef(fn) {
				r.libCall(c, imp.Module+"#"+imp.Imported)
			}
		} else if r.owner.isFunction(string(name)) && r.isRef(fn) {
			r.libCall(c, "#"+string(name))
		}
	}
}

// libModule reports whether libCall keeps a binding of module: one of
// the project's (relative), as "module#name" starts with "." or "#".
func libModule(module string) bool {
	return module == "" || module[0] == '.' || module[0] == '#'
}

// libCall records that the code around call c calls binding (see
// Uses.LibCalls). Only project code can send, so bindings of packages
// ('tent', 'tent/ui') are left out: a module must be relative.
func (r *codeReader) libCall(c int32, binding string) {
	if !strings.HasPrefix(binding, ".") && !strings.HasPrefix(binding, "#") {
		return
	}
	key := r.owner.key(r.st.nodes[c].start)
	if r.uses.LibCalls == nil {
		r.uses.LibCalls = map[string][]string{}
	}
	for _, b := range r.uses.LibCalls[key] {
		if b == binding {
			return
		}
	}
	r.uses.LibCalls[key] = append(r.uses.LibCalls[key], binding)
}

// ownerIndex says which definition or top-level function a position of
// the file stands in.
type ownerIndex struct {
	defs  []ownedSpan // sorted by start
	funcs []ownedSpan // top-level functions, sorted by start
	named map[string]bool
}

type ownedSpan struct {
	span Span
	name string
}

// newOwnerIndex indexes the definitions and top-level functions of f,
// with named (empty) to hold the functions' names.
// defs and funcs are the room for its spans.
func newOwnerIndex(f *File, st *stree, named map[string]bool, defs, funcs []ownedSpan) ownerIndex {
	o := ownerIndex{defs: defs, funcs: funcs}
	for _, d := range f.Definitions {
		if d.Kind == KindProject || d.Kind == KindEngine {
			continue
		}
		o.defs = append(o.defs, ownedSpan{d.Stmt, d.Name})
	}
	sort.Slice(o.defs, func(i, j int) bool { return o.defs[i].span.Start < o.defs[j].span.Start })
	o.named = named
	for _, s := range st.topStatements() {
		o.topFunctions(st, s)
	}
	return o
}

// topFunctions records the functions that top-level statement s declares:
// `function f() {}` and `const f = () => {}` (exported or not).
func (o *ownerIndex) topFunctions(st *stree, s int32) {
	switch st.nodes[s].kind {
	case kindExportStatement:
		for c := st.nodes[s].first; c >= 0; c = st.nodes[c].next {
			o.topFunctions(st, c)
		}
	case kindFunctionDeclaration, kindGeneratorFunctionDeclaration:
		if id := st.child(s, kindIdentifier); id >= 0 {
			o.addFunction(st.text(id), st.span(s))
		}
	case kindLexicalDeclaration, kindVariableDeclaration:
		for d := st.nodes[s].first; d >= 0; d = st.nodes[d].next {
			if st.nodes[d].kind != kindVariableDeclarator {
				continue
			}
			name, val := st.nodes[d].first, st.last(d)
			if name < 0 || val == name || st.nodes[name].kind != kindIdentifier {
				continue
			}
			switch st.nodes[val].kind {
			case kindArrowFunction, kindFunctionExpression, kindGeneratorFunction:
				o.addFunction(st.text(name), st.span(d))
			}
		}
	}
}

func (o *ownerIndex) addFunction(name string, sp Span) {
	o.funcs = append(o.funcs, ownedSpan{sp, name})
	o.named[name] = true
}

func find(spans []ownedSpan, off int32) string {
	i := sort.Search(len(spans), func(i int) bool { return spans[i].span.End > int(off) })
	if i < len(spans) && spans[i].span.Start <= int(off) {
		return spans[i].name
	}
	return ""
}

// definition returns the name of the definition around off, or "".
func (o *ownerIndex) definition(off int32) string { return find(o.defs, off) }

// function returns the name of the top-level function around off, or "".
func (o *ownerIndex) function(off int32) string { return find(o.funcs, off) }

// key returns the key of Uses.LibCalls for code at off: the definition
// around it, else the top-level function around it, else "".
func (o *ownerIndex) key(off int32) string {
	if d := o.definition(off); d != "" {
		return d
	}
	return o.function(off)
}

// isFunction reports whether the file declares a top-level function name.
func (o *ownerIndex) isFunction(name string) bool { return o.named[name] }
