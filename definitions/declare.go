package definitions

// This file reads the definitions of a TypeScript file (docs/pages/format.md §2): the
// top-level `export const NAME = KIND({...})` statements whose builder is
// imported from 'tent' or 'tent/ui', and the default exports of project.ts
// and engine.ts. It builds each builder argument's declarative field tree
// (Value) and, from it, the typed parts (Table, Fn, Flow, Screen, Project,
// Engine). Nothing is run: a declarative position that holds anything but
// a literal, an array or object of them, or a builder call is a T2010
// finding, and the rest of the definition is still read.

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/parser"
	"github.com/tent-tools/tent-tools/schema"
)

// The modules that builders come from.
const (
	moduleTent   = "tent"
	moduleTentUI = "tent/ui"
)

// builderKinds maps each definition builder to its kind, by module.
var builderKinds = map[string]map[string]Kind{
	moduleTent:   {"table": KindTable, "fn": KindFn, "flow": KindFlow},
	moduleTentUI: {"screen": KindScreen},
}

// codeFields names, per kind, the top-level fields of the argument that
// hold code: whatever they hold is run, never read, so they give no T2010.
var codeFields = map[Kind]map[string]bool{
	KindTable:  {"may": true},
	KindFn:     {"run": true, "may": true},
	KindScreen: {"load": true, "view": true},
}

// maxValueDepth bounds how deep a declarative value is read. A deeper
// literal is unreadable (T2010) rather than a risk to the stack.
const maxValueDepth = 64

// tentBinding is what a local name imported from 'tent' or 'tent/ui' is.
type tentBinding struct {
	module   string
	imported string
}

// declReader reads the definitions of one file from its flat syntax tree
// (code.go's stree: the tree-sitter tree copied out in one cgo call, so
// the reader runs in plain Go). Nodes are indices into st.nodes; -1 is no
// node.
type declReader struct {
	f     *File
	src   []byte
	st    *stree
	names parser.Names
	// errs are the file's syntax errors: a declarative position that holds
	// one is read without T2010, its T1001 says what is wrong.
	errs []parser.SyntaxError
	// tent maps the local names of named imports from 'tent' and
	// 'tent/ui' to what they import; tentNS maps namespace imports
	// (`import * as t from 'tent'`) to their module.
	tent   map[string]tentBinding
	tentNS map[string]string
	// bound holds every other top-level binding of the file (imports from
	// other modules, declarations): a call of one is no builder call.
	bound map[string]bool

	def  *Definition // the definition being read
	code bool        // reading inside a code field: no T2010

	// blocks are where the reader's values and properties are allocated
	// from (newValue, newProps): for this file alone, so that a file's
	// values never keep another's alive, or the worker's, from file to
	// file, in a build whose parsed values no file outlives the process
	// or its read back (see worker.blocks).
	blocks *valueBlocks
	// pos holds the positions of the values being read, one per depth
	// (value, object): a position lives only while its value is read,
	// and made into a string only for a finding. It is the worker's
	// (wordScratch), from file to file.
	pos *positions
}

// positions are a declReader's positions, by depth.
type positions [maxValueDepth + 2]position

// valueBlocks is where a worker's readers allocate values and properties
// from, a block at a time: a table's argument is some fifty of them, and
// one allocation each was a fifth of the reader's CPU time in a cold
// check (where nothing is collected, in memory fresh from the system).
// The blocks double from minValueBlock to maxValueBlock, so that a file
// allocates about what it needs.
type valueBlocks struct {
	vals  []Value
	props []Prop
	// nvals and nprops are the sizes of the last blocks.
	nvals, nprops int
}

// minValueBlock and maxValueBlock are the fewest and the most values or
// properties a block holds.
const (
	minValueBlock = 8
	maxValueBlock = 256
)

// newValue returns a pointer to a copy of v, allocated from the reader's
// blocks.
func (r *declReader) newValue(v Value) *Value {
	b := r.blocks
	if len(b.vals) == 0 {
		b.nvals = min(max(2*b.nvals, minValueBlock), maxValueBlock)
		b.vals = make([]Value, b.nvals)
	}
	p := &b.vals[0]
	*p = v
	b.vals = b.vals[1:]
	return p
}

// newProps returns n properties, allocated from the reader's blocks where
// they fit.
func (r *declReader) newProps(n int) []Prop {
	b := r.blocks
	if len(b.props) < n {
		if n > maxValueBlock/4 {
			return make([]Prop, n)
		}
		b.nprops = min(max(2*b.nprops, minValueBlock, n), maxValueBlock)
		b.props = make([]Prop, b.nprops)
	}
	ps := b.props[:n:n]
	b.props = b.props[n:]
	return ps
}

// at returns the position of an item or property at depth, below parent
// (see pos): it is valid until the next call for the same depth.
func (r *declReader) at(depth int, parent *position, key string, index int) *position {
	p := &r.pos[depth]
	*p = position{parent: parent, key: key, index: index}
	return p
}

// readDefinitions reads the definitions of a parsed TypeScript file into
// f.Definitions, and appends the T2010 findings of their unreadable
// declarative positions to f.Findings. st is the file's flat tree and
// errs its syntax errors.
func readDefinitions(f *File, st *stree, errs []parser.SyntaxError, blocks *valueBlocks) {
	if st == nil || len(st.nodes) == 0 {
		return
	}
	if blocks == nil {
		blocks = &valueBlocks{}
	}
	r := &declReader{
		f:      f,
		src:    f.Src,
		st:     st,
		names:  parser.GrammarOf(f.Path).Names(),
		errs:   errs,
		blocks: blocks,
	}
	if s := st.words; s != nil {
		// The worker's maps, emptied: what the reader keeps of them
		// is strings alone.
		if s.bound == nil {
			s.tent, s.tentNS, s.bound = map[string]tentBinding{}, map[string]string{}, map[string]bool{}
		}
		clear(s.tent)
		clear(s.tentNS)
		clear(s.bound)
		r.tent, r.tentNS, r.bound = s.tent, s.tentNS, s.bound
		if s.positions == nil {
			s.positions = &positions{}
		}
		r.pos = s.positions
	} else {
		r.tent, r.tentNS, r.bound = map[string]tentBinding{}, map[string]string{}, map[string]bool{}
		r.pos = &positions{}
	}
	stmts := r.topLevel()
	for _, s := range stmts {
		r.bindings(s)
	}
	for _, s := range stmts {
		if r.kind(s) == kindExportStatement {
			r.exportStatement(s)
		}
	}
}

// The flat tree, by node index.

// typ is the type name of node i ("call_expression", "(", "ERROR").
func (r *declReader) typ(i int32) string {
	if sym := int(r.st.nodes[i].sym); sym < len(r.names) {
		return r.names[sym]
	}
	return "ERROR"
}

// kids returns the children of node i, named and anonymous.
func (r *declReader) kids(i int32) []int32 {
	var out []int32
	for c := r.st.nodes[i].first; c >= 0; c = r.st.nodes[c].next {
		out = append(out, c)
	}
	return out
}

// named returns the named children of node i, comments left out.
func (r *declReader) named(i int32) []int32 {
	var out []int32
	for c := r.st.nodes[i].first; c >= 0; c = r.st.nodes[c].next {
		if r.st.nodes[c].named && r.st.nodes[c].kind != kindComment {
			out = append(out, c)
		}
	}
	return out
}

// firstNamed returns the first named child of i that is no comment, or -1.
func (r *declReader) firstNamed(i int32) int32 {
	for c := r.st.nodes[i].first; c >= 0; c = r.st.nodes[c].next {
		if r.st.nodes[c].named && r.st.nodes[c].kind != kindComment {
			return c
		}
	}
	return -1
}

// nextNamed returns the first named sibling after c that is no comment,
// or -1: with firstNamed, a walk of the named children without a slice.
func (r *declReader) nextNamed(c int32) int32 {
	for c = r.st.nodes[c].next; c >= 0; c = r.st.nodes[c].next {
		if r.st.nodes[c].named && r.st.nodes[c].kind != kindComment {
			return c
		}
	}
	return -1
}

// lastNamed returns the last named child of i that is no comment, or -1.
func (r *declReader) lastNamed(i int32) int32 {
	last := int32(-1)
	for c := r.st.nodes[i].first; c >= 0; c = r.st.nodes[c].next {
		if r.st.nodes[c].named && r.st.nodes[c].kind != kindComment {
			last = c
		}
	}
	return last
}

// kind is the kind of node i (flatten's).
func (r *declReader) kind(i int32) kind { return r.st.nodes[i].kind }

// childOfType returns the first child of i of type t, or -1.
func (r *declReader) childOfType(i int32, t string) int32 {
	for c := r.st.nodes[i].first; c >= 0; c = r.st.nodes[c].next {
		if r.typ(c) == t {
			return c
		}
	}
	return -1
}

// namedAfter returns the first named child of i that follows a child of
// type token, or -1.
func (r *declReader) namedAfter(i int32, token string) int32 {
	seen := false
	for c := r.st.nodes[i].first; c >= 0; c = r.st.nodes[c].next {
		if seen && r.st.nodes[c].named && r.st.nodes[c].kind != kindComment {
			return c
		}
		if r.typ(c) == token {
			seen = true
		}
	}
	return -1
}

// span is the byte span of node i.
func (r *declReader) span(i int32) Span {
	n := &r.st.nodes[i]
	return Span{Start: int(n.start), End: int(n.end)}
}

// text is the source text of node i.
func (r *declReader) text(i int32) string {
	n := &r.st.nodes[i]
	return r.st.str(r.src[n.start:n.end])
}

// hasError reports whether node i holds a syntax error.
func (r *declReader) hasError(i int32) bool {
	sp := r.span(i)
	for _, e := range r.errs {
		if e.Start <= sp.End && e.End >= sp.Start {
			return true
		}
	}
	return false
}

// topLevel returns the statements of the file. Statements that
// tree-sitter could only place inside a top-level ERROR node are read
// too, so that a syntax error does not hide the definitions around it.
func (r *declReader) topLevel() []int32 {
	var out []int32
	for s := r.firstNamed(0); s >= 0; s = r.nextNamed(s) {
		if r.kind(s) == kindError {
			out = append(out, r.named(s)...)
			continue
		}
		out = append(out, s)
	}
	return out
}

// bindings records the top-level names that a statement binds.
func (r *declReader) bindings(s int32) {
	switch r.kind(s) {
	case kindImportStatement:
		r.importBindings(s)
	case kindExportStatement:
		for d := r.firstNamed(s); d >= 0; d = r.nextNamed(d) {
			r.bindings(d)
		}
	case kindLexicalDeclaration, kindVariableDeclaration:
		for d := r.firstNamed(s); d >= 0; d = r.nextNamed(d) {
			if r.kind(d) != kindVariableDeclarator {
				continue
			}
			if n := r.firstNamed(d); n >= 0 && r.kind(n) == kindIdentifier {
				r.bound[r.text(n)] = true
			}
		}
	case kindFunctionDeclaration, kindGeneratorFunctionDeclaration, kindClassDeclaration, kindAbstractClassDeclaration, kindEnumDeclaration:
		for n := r.firstNamed(s); n >= 0; n = r.nextNamed(n) {
			if k := r.kind(n); k == kindIdentifier || k == kindTypeIdentifier {
				r.bound[r.text(n)] = true
				break
			}
		}
	}
}

// importBindings records the names an import statement binds: those
// from 'tent' and 'tent/ui' as builders, all others as plain bindings.
func (r *declReader) importBindings(s int32) {
	source := r.st.child(s, kindString)
	if source < 0 {
		return
	}
	module, ok := r.literal(source)
	if !ok {
		return
	}
	fromTent := module == moduleTent || module == moduleTentUI
	clause := r.st.child(s, kindImportClause)
	if clause < 0 {
		return
	}
	for c := r.firstNamed(clause); c >= 0; c = r.nextNamed(c) {
		switch r.kind(c) {
		case kindIdentifier: // a default import
			r.bound[r.text(c)] = true
		case kindNamespaceImport:
			id := r.st.child(c, kindIdentifier)
			if id < 0 {
				continue
			}
			if fromTent {
				r.tentNS[r.text(id)] = module
			} else {
				r.bound[r.text(id)] = true
			}
		case kindNamedImports:
			for sp := r.firstNamed(c); sp >= 0; sp = r.nextNamed(sp) {
				if r.kind(sp) != kindImportSpecifier {
					continue
				}
				name, local := r.firstNamed(sp), r.lastNamed(sp)
				if name < 0 {
					continue
				}
				if fromTent {
					r.tent[r.text(local)] = tentBinding{module: module, imported: r.importName(name)}
				} else {
					r.bound[r.text(local)] = true
				}
			}
		}
	}
}

// importName is the name an import specifier imports: an identifier, or
// a string (`import { 'a-b' as c }`).
func (r *declReader) importName(n int32) string {
	if s, ok := r.literal(n); ok {
		return s
	}
	return r.text(n)
}

// exportStatement reads the definitions an export statement makes.
func (r *declReader) exportStatement(s int32) {
	if r.childOfType(s, "default") >= 0 {
		r.defaultExport(s)
		return
	}
	decl := r.st.child(s, kindLexicalDeclaration)
	if decl < 0 || r.st.child(decl, kindTokConst) < 0 {
		return
	}
	for d := r.firstNamed(decl); d >= 0; d = r.nextNamed(d) {
		if r.kind(d) != kindVariableDeclarator {
			continue
		}
		name, value := r.firstNamed(d), r.namedAfter(d, "=")
		if name < 0 || value < 0 || r.kind(name) != kindIdentifier {
			continue
		}
		call := r.unwrap(value)
		if r.kind(call) != kindCallExpression {
			continue
		}
		b, ok := r.builderOf(r.firstNamed(call))
		if !ok {
			continue
		}
		kind, known := builderKinds[b.module][b.imported]
		if !known {
			kind = KindUnknown
		}
		def := &Definition{
			Name:     r.text(name),
			Kind:     kind,
			Builder:  b.imported,
			Path:     r.f.Path,
			Stmt:     r.span(s),
			NameSpan: r.span(name),
		}
		r.readDefinition(def, call)
	}
}

// defaultExport reads `export default project({...})` in project.ts and
// `export default engine({...})` in engine.ts.
func (r *declReader) defaultExport(s int32) {
	var kind Kind
	switch r.f.Path {
	case "project.ts":
		kind = KindProject
	case "engine.ts":
		kind = KindEngine
	default:
		return
	}
	value := r.namedAfter(s, "default")
	if value < 0 {
		return
	}
	call := r.unwrap(value)
	if r.kind(call) != kindCallExpression {
		return
	}
	fn := r.firstNamed(call)
	b, ok := r.builderOf(fn)
	if !ok {
		// project.ts may leave out its import: the bare name still says
		// what it means, and the TypeScript check reports the import.
		if fn < 0 || r.kind(fn) != kindIdentifier || r.bound[r.text(fn)] {
			return
		}
		b = tentBinding{module: moduleTent, imported: r.text(fn)}
	}
	if b.module != moduleTent || b.imported != string(kind) {
		return
	}
	def := &Definition{Name: string(kind), Kind: kind, Builder: b.imported, Path: r.f.Path, Stmt: r.span(s)}
	r.readDefinition(def, call)
}

// builderOf says which import of 'tent' or 'tent/ui' a callee names: a
// local name imported from there (under any alias), or `ns.name` for a
// namespace import.
func (r *declReader) builderOf(fn int32) (tentBinding, bool) {
	if fn < 0 {
		return tentBinding{}, false
	}
	switch r.kind(fn) {
	case kindIdentifier:
		b, ok := r.tent[r.text(fn)]
		return b, ok
	case kindMemberExpression:
		obj, prop := r.firstNamed(fn), r.lastNamed(fn)
		if obj < 0 || prop == obj || r.kind(obj) != kindIdentifier {
			return tentBinding{}, false
		}
		if module, ok := r.tentNS[r.text(obj)]; ok {
			return tentBinding{module: module, imported: r.text(prop)}, true
		}
	}
	return tentBinding{}, false
}

// callArgs returns the arguments node of a call, or -1 (a tagged
// template has none).
func (r *declReader) callArgs(call int32) int32 {
	if a := r.lastNamed(call); a >= 0 && r.kind(a) == kindArguments {
		return a
	}
	return -1
}

// readDefinition reads the builder argument of a definition and its
// typed part, and adds the definition to the file.
func (r *declReader) readDefinition(def *Definition, call int32) {
	r.def = def
	defer func() { r.def = nil }()
	args := r.callArgs(call)
	first := int32(-1)
	if args >= 0 {
		first = r.firstNamed(args)
	}
	switch {
	case def.Kind == KindUnknown:
		// An unknown builder is T2002 for the check; its argument is kept
		// as far as it reads, without findings of its own.
		if first >= 0 && r.kind(r.unwrap(first)) == kindObject {
			quiet := r.quiet(true)
			def.Arg = r.object(r.unwrap(first), nil, 0, nil)
			r.code = !quiet
		}
	case first < 0:
		at := r.span(call)
		if args >= 0 {
			at = r.span(args)
		}
		r.finding(at, fmt.Sprintf("`%s`: %s() has no argument; write %s({ ... })", def.Name, def.Builder, def.Builder))
	case r.kind(r.unwrap(first)) != kindObject:
		v := r.value(first, &position{key: def.Builder + "()"}, 0)
		if v.Kind != ValUnreadable {
			r.finding(v.Span, fmt.Sprintf("`%s`: the argument of %s() must be an object literal `{ ... }`", def.Name, def.Builder))
		}
	default:
		def.Arg = r.object(r.unwrap(first), nil, 0, codeFields[def.Kind])
	}
	readTyped(def)
	r.f.Definitions = append(r.f.Definitions, def)
}

// readTyped reads the typed part of a definition (Table, Fn, ...) from
// its kind, name and field tree alone, so that a definition read back
// from the index cache (cache.go) gets it the way a parse does.
func readTyped(def *Definition) {
	switch def.Kind {
	case KindTable:
		def.Table = readTable(def)
	case KindFn:
		def.Fn = readFn(def)
	case KindFlow:
		def.Flow = readFlow(def)
	case KindScreen:
		def.Screen = readScreen(def)
	case KindProject:
		def.Project = readProject(def)
	case KindEngine:
		def.Engine = readEngine(def)
	}
}

// unwrap looks through parentheses and the TypeScript-only wrappers that
// do not change a value: `x as const`, `x satisfies T`, `x!`.
func (r *declReader) unwrap(n int32) int32 {
	for n >= 0 {
		switch r.kind(n) {
		case kindParenthesizedExpression, kindAsExpression, kindSatisfiesExpression, kindNonNullExpression:
			inner := r.firstNamed(n)
			if inner < 0 {
				return n
			}
			n = inner
		default:
			return n
		}
	}
	return n
}

// value reads one declarative expression. where names its position
// ("columns.note") for messages. An expression that holds a syntax error
// is read without T2010 findings: its T1001 says what is wrong.
func (r *declReader) value(n int32, where *position, depth int) *Value {
	if !r.code && r.hasError(n) {
		r.code = true
		v := r.value(n, where, depth)
		r.code = false
		return v
	}
	n = r.unwrap(n)
	span := r.span(n)
	if depth > maxValueDepth {
		return r.unreadable(span, where, "a value nested this deeply", "flatten it")
	}
	switch r.kind(n) {
	case kindString:
		s, ok := r.literal(n)
		if !ok {
			return r.unreadable(span, where, "a string with a bad escape", "fix the escape")
		}
		return r.newValue(Value{Kind: ValString, Span: span, Str: s})
	case kindTemplateString:
		if r.st.child(n, kindTemplateSubstitution) >= 0 {
			return r.unreadable(span, where, "a template with substitutions ("+r.excerpt(n)+")", "write a plain string")
		}
		s, _ := r.literal(n)
		return r.newValue(Value{Kind: ValString, Span: span, Str: s})
	case kindNumber:
		f, ok := parseNumber(r.text(n))
		if !ok {
			return r.unreadable(span, where, "a number that is not valid ("+r.excerpt(n)+")", "write a plain number")
		}
		return r.newValue(Value{Kind: ValNumber, Span: span, Num: f})
	case kindUnaryExpression:
		kids := r.kids(n)
		if len(kids) == 2 {
			sign := r.typ(kids[0])
			if inner := r.unwrap(kids[1]); (sign == "-" || sign == "+") && r.kind(inner) == kindNumber {
				if f, ok := parseNumber(r.text(inner)); ok {
					if sign == "-" {
						f = -f
					}
					return r.newValue(Value{Kind: ValNumber, Span: span, Num: f})
				}
			}
		}
	case kindTrue, kindFalse:
		return r.newValue(Value{Kind: ValBool, Span: span, Bool: r.kind(n) == kindTrue})
	case kindNull:
		return r.newValue(Value{Kind: ValNull, Span: span})
	case kindArray:
		v := r.newValue(Value{Kind: ValArray, Span: span})
		count := 0
		for c := r.firstNamed(n); c >= 0; c = r.nextNamed(c) {
			count++
		}
		if count > 0 {
			v.Items = make([]*Value, 0, count)
		}
		i := 0
		for c := r.firstNamed(n); c >= 0; c = r.nextNamed(c) {
			at := r.at(depth+1, where, "", i)
			if r.kind(c) == kindSpreadElement {
				v.Items = append(v.Items, r.unreadable(r.span(c), at, "a spread ("+r.excerpt(c)+")", "write the items themselves"))
			} else {
				v.Items = append(v.Items, r.value(c, at, depth+1))
			}
			i++
		}
		return v
	case kindObject:
		return r.object(n, where, depth, nil)
	case kindCallExpression:
		return r.call(n, where, depth)
	case kindArrowFunction, kindFunctionExpression, kindGeneratorFunction:
		return r.newValue(Value{Kind: ValCode, Span: span})
	case kindUndefined:
		return r.unreadable(span, where, "`undefined`", "leave the key out instead")
	case kindIdentifier:
		return r.unreadable(span, where, "a variable (`"+r.text(n)+"`)", "write its value here")
	}
	return r.unreadable(span, where, "an expression ("+r.excerpt(n)+")", "write the value itself")
}

// propertyName reports whether a node of kind k is a property's name.
func propertyName(k kind) bool {
	switch k {
	case kindPropertyIdentifier, kindPrivatePropertyIdentifier, kindString, kindNumber, kindComputedPropertyName:
		return true
	}
	return false
}

// object reads an object literal. code names the keys whose values are
// code (read without T2010); nil outside the top level of an argument.
func (r *declReader) object(n int32, where *position, depth int, code map[string]bool) *Value {
	v := r.newValue(Value{Kind: ValObject, Span: r.span(n)})
	count := 0
	for c := r.firstNamed(n); c >= 0; c = r.nextNamed(c) {
		count++
	}
	v.Props = make([]*Prop, 0, count)
	props := r.newProps(count)
	prop := func(p Prop) *Prop {
		props[len(v.Props)] = p
		return &props[len(v.Props)]
	}
	for c := r.firstNamed(n); c >= 0; c = r.nextNamed(c) {
		span := r.span(c)
		switch r.kind(c) {
		case kindPair:
			key, val := r.firstNamed(c), r.lastNamed(c)
			if key < 0 || val == key {
				continue
			}
			name, ok := r.key(key)
			if !ok {
				v.Props = append(v.Props, prop(Prop{KeySpan: r.span(key), Span: span,
					Value: r.unreadable(r.span(key), where, "a computed key ("+r.excerpt(key)+")", "write the key as a name or a string")}))
				continue
			}
			// A code field is read without findings, and so is a pair
			// that a syntax error may have cut short (its T1001 says what
			// is wrong).
			p := prop(Prop{Key: name, KeySpan: r.span(key), Span: span})
			quiet := r.quiet(code[name] || r.hasError(c))
			p.Value = r.value(val, r.at(depth+1, where, name, 0), depth+1)
			r.code = !quiet
			v.Props = append(v.Props, p)
		case kindShorthandProperty:
			name := r.text(c)
			v.Props = append(v.Props, prop(Prop{Key: name, KeySpan: span, Span: span, Shorthand: true,
				Value: r.unreadableUnless(code[name], span, r.at(depth+1, where, name, 0), "a variable (`"+name+"`)", "write `"+name+": value`")}))
		case kindMethodDefinition:
			key := int32(-1)
			for k := r.firstNamed(c); k >= 0; k = r.nextNamed(k) {
				if propertyName(r.kind(k)) {
					key = k
					break
				}
			}
			if key < 0 {
				continue
			}
			name, ok := r.key(key)
			if !ok {
				v.Props = append(v.Props, prop(Prop{KeySpan: r.span(key), Span: span,
					Value: r.unreadable(r.span(key), where, "a computed key ("+r.excerpt(key)+")", "write the key as a name or a string")}))
				continue
			}
			v.Props = append(v.Props, prop(Prop{Key: name, KeySpan: r.span(key), Span: span, Value: r.newValue(Value{Kind: ValCode, Span: span})}))
		case kindSpreadElement:
			v.Props = append(v.Props, prop(Prop{Span: span, Value: r.unreadable(span, where, "a spread ("+r.excerpt(c)+")", "write the properties themselves")}))
		}
	}
	return v
}

// quiet turns T2010 findings off where on is set, and returns whether
// they were on: the caller restores them with r.code = !quiet once the
// value is read.
func (r *declReader) quiet(on bool) bool {
	was := !r.code
	if on {
		r.code = true
	}
	return was
}

// key reads a property key: a name, a string or a number. A computed key
// is not readable.
func (r *declReader) key(n int32) (string, bool) {
	switch r.kind(n) {
	case kindPropertyIdentifier, kindPrivatePropertyIdentifier:
		return r.text(n), true
	case kindString:
		return r.literal(n)
	case kindNumber:
		f, ok := parseNumber(r.text(n))
		if !ok {
			return "", false
		}
		return strconv.FormatFloat(f, 'g', -1, 64), true
	}
	return "", false
}

// call reads a builder call such as text() or ref('users'). The callee is
// a builder when it is imported from 'tent' or 'tent/ui', or when it is
// bound nowhere in the file (an unknown builder, which the check reports
// as T2002); a call of anything else is unreadable.
func (r *declReader) call(n int32, where *position, depth int) *Value {
	span := r.span(n)
	fn := r.firstNamed(n)
	var name string
	if b, ok := r.builderOf(fn); ok {
		name = b.imported
	} else if fn >= 0 && r.kind(fn) == kindIdentifier && !r.bound[r.text(fn)] {
		name = r.text(fn)
	} else {
		what := "an expression"
		if fn >= 0 {
			what = r.excerpt(fn)
		}
		return r.unreadable(span, where, "a call of "+what+" (no builder of 'tent')", "write the value itself")
	}
	args := r.callArgs(n)
	if args < 0 {
		return r.unreadable(span, where, "a tagged template ("+r.excerpt(n)+")", "call the builder with parentheses")
	}
	v := r.newValue(Value{Kind: ValCall, Span: span, Str: name})
	count := 0
	for a := r.firstNamed(args); a >= 0; a = r.nextNamed(a) {
		count++
	}
	if count > 0 {
		v.Items = make([]*Value, 0, count)
	}
	for a := r.firstNamed(args); a >= 0; a = r.nextNamed(a) {
		if r.kind(a) == kindSpreadElement {
			v.Items = append(v.Items, r.unreadable(r.span(a), where, "a spread ("+r.excerpt(a)+")", "write the arguments themselves"))
			continue
		}
		v.Items = append(v.Items, r.value(a, where, depth+1))
	}
	return v
}

// unreadable makes a ValUnreadable and, outside code, its T2010 finding:
// what the position holds, and how to make it readable.
func (r *declReader) unreadable(span Span, where *position, what, hint string) *Value {
	return r.unreadableUnless(false, span, where, what, hint)
}

// unreadableUnless is unreadable that gives no finding when inCode is set.
func (r *declReader) unreadableUnless(inCode bool, span Span, where *position, what, hint string) *Value {
	if !r.code && !inCode {
		at := ""
		if w := where.String(); w != "" {
			at = " " + w
		}
		r.finding(span, fmt.Sprintf("`%s`%s: %s cannot be read without running code; %s", r.def.Name, at, what, hint))
	}
	return r.newValue(Value{Kind: ValUnreadable, Span: span})
}

// finding adds a T2010 finding about the definition being read.
func (r *declReader) finding(span Span, msg string) {
	fd := r.f.Finding(diag.T2010, diag.Error, msg, span)
	fd.Definition = r.def.Name
	r.f.Findings = append(r.f.Findings, fd)
}

// position is where a value stands in a definition's argument, for
// messages: "columns.note", "steps[2]". It is made into a string only for
// a finding; reading a value well costs no string for its position. The
// zero position (and nil) is the argument itself.
type position struct {
	parent *position
	key    string // the key of an object's property, "" for an array's item
	index  int    // the index of an array's item
}

// String renders the position: keys joined by dots, items as [i].
func (p *position) String() string {
	if p == nil {
		return ""
	}
	parent := p.parent.String()
	switch {
	case p.key == "":
		return parent + "[" + strconv.Itoa(p.index) + "]"
	case parent == "":
		return p.key
	}
	return parent + "." + p.key
}

// excerpt is the text of node n for a message: its first line, cut
// short, in backquotes.
func (r *declReader) excerpt(n int32) string {
	s := r.text(n)
	cut := false
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s, cut = s[:i], true
	}
	const maxRunes = 40
	if utf8.RuneCountInString(s) > maxRunes {
		s, cut = string([]rune(s)[:maxRunes]), true
	}
	if cut {
		s += "…"
	}
	if strings.Contains(s, "`") {
		return "`` " + s + " ``"
	}
	return "`" + s + "`"
}

// literal decodes a string literal, or a template string without
// substitutions. ok is false for any other node.
func (r *declReader) literal(n int32) (string, bool) {
	switch r.kind(n) {
	case kindString, kindTemplateString:
	default:
		return "", false
	}
	sp := r.span(n)
	if sp.End-sp.Start < 2 {
		return "", false
	}
	b := r.src[sp.Start+1 : sp.End-1]
	if bytes.IndexByte(b, '\\') < 0 {
		return r.st.str(b), true
	}
	return unescapeJS(b)
}

// unescapeJS decodes the escape sequences of a JavaScript string literal's
// content. ok is false for an unterminated or malformed escape.
func unescapeJS(b []byte) (string, bool) {
	if !strings.ContainsRune(string(b), '\\') {
		return string(b), true
	}
	var sb strings.Builder
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '\\' {
			sb.WriteByte(c)
			continue
		}
		i++
		if i >= len(b) {
			return "", false
		}
		switch c = b[i]; c {
		case 'n':
			sb.WriteByte('\n')
		case 't':
			sb.WriteByte('\t')
		case 'r':
			sb.WriteByte('\r')
		case 'b':
			sb.WriteByte('\b')
		case 'f':
			sb.WriteByte('\f')
		case 'v':
			sb.WriteByte('\v')
		case '0':
			sb.WriteByte(0)
		case '\r':
			if i+1 < len(b) && b[i+1] == '\n' {
				i++
			}
		case '\n':
			// A line continuation adds nothing.
		case 'x':
			if i+2 >= len(b) {
				return "", false
			}
			v, err := strconv.ParseUint(string(b[i+1:i+3]), 16, 8)
			if err != nil {
				return "", false
			}
			sb.WriteRune(rune(v))
			i += 2
		case 'u':
			var hex string
			if i+1 < len(b) && b[i+1] == '{' {
				j := i + 2
				for j < len(b) && b[j] != '}' {
					j++
				}
				if j >= len(b) {
					return "", false
				}
				hex, i = string(b[i+2:j]), j
			} else {
				if i+4 >= len(b) {
					return "", false
				}
				hex, i = string(b[i+1:i+5]), i+4
			}
			v, err := strconv.ParseUint(hex, 16, 32)
			if err != nil || v > utf8.MaxRune {
				return "", false
			}
			sb.WriteRune(rune(v))
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String(), true
}

// parseNumber reads a JavaScript number literal: decimal with exponent,
// 0x / 0o / 0b, digit separators, a BigInt's trailing n.
func parseNumber(s string) (float64, bool) {
	s = strings.TrimSuffix(strings.ReplaceAll(s, "_", ""), "n")
	if len(s) > 2 && s[0] == '0' {
		switch s[1] {
		case 'x', 'X', 'o', 'O', 'b', 'B':
			v, err := strconv.ParseUint(s, 0, 64)
			if err != nil {
				return 0, false
			}
			return float64(v), true
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f, true
		}
		return 0, false
	}
	return f, true
}

// The typed parts, read from the field tree.

// readTable reads what a table declares.
func readTable(def *Definition) *Table {
	t := &Table{}
	for _, p := range objectProps(def.Arg) {
		switch p.Key {
		case "columns":
			t.ColumnsProp, t.Columns = p, readColumns(p.Value)
		case "indexes":
			t.IndexesProp, t.Indexes = p, readIndexes(p.Value)
		case "was":
			t.WasProp, t.Was = p, stringRefs(p.Value)
		case "removed":
			t.RemovedProp, t.Removed = p, stringRefs(p.Value)
		case "may":
			t.May = p
		}
	}
	t.Schema = &schema.Table{Name: def.Name, Was: refNames(t.Was), Removed: refNames(t.Removed)}
	for _, c := range t.Columns {
		t.Schema.Columns = append(t.Schema.Columns, c.Schema)
	}
	for _, ix := range t.Indexes {
		t.Schema.Indexes = append(t.Schema.Indexes, refNames(ix))
	}
	return t
}

// readFn reads what a function declares.
func readFn(def *Definition) *Fn {
	fn := &Fn{}
	for _, p := range objectProps(def.Arg) {
		switch p.Key {
		case "input":
			fn.InputProp, fn.Input = p, readColumns(p.Value)
		case "sends":
			fn.SendsProp, fn.Sends = p, stringRefs(p.Value)
		case "run":
			fn.Run = p
		case "may":
			fn.May = p
		}
	}
	return fn
}

// readFlow reads what a flow declares.
func readFlow(def *Definition) *Flow {
	fl := &Flow{}
	for _, p := range objectProps(def.Arg) {
		switch p.Key {
		case "input":
			fl.InputProp, fl.Input = p, readColumns(p.Value)
		case "steps":
			fl.StepsProp, fl.Steps = p, stringRefs(p.Value)
		}
	}
	return fl
}

// readScreen reads what a screen declares. PathSpan is the path literal,
// quotes included.
func readScreen(def *Definition) *Screen {
	sc := &Screen{}
	for _, p := range objectProps(def.Arg) {
		switch p.Key {
		case "path":
			if p.Value.Kind == ValString {
				sc.Path, sc.PathSpan = p.Value.Str, p.Value.Span
			}
		case "title":
			if p.Value.Kind == ValString {
				sc.Title = p.Value.Str
			}
		case "load":
			sc.Load = p
		case "view":
			sc.View = p
		}
	}
	return sc
}

// readProject reads project.ts. users is "users" where left out.
func readProject(def *Definition) *Project {
	pr := &Project{Users: NameRef{Name: "users"}}
	for _, p := range objectProps(def.Arg) {
		switch p.Key {
		case "name":
			if p.Value.Kind == ValString {
				pr.Name = p.Value.Str
			}
		case "users":
			pr.UsersProp = p
			if p.Value.Kind == ValString {
				pr.Users = stringRef(p.Value)
			}
		case "removed":
			pr.RemovedProp, pr.Removed = p, stringRefs(p.Value)
		}
	}
	return pr
}

// readEngine reads engine.ts.
func readEngine(def *Definition) *Engine {
	en := &Engine{}
	for _, p := range objectProps(def.Arg) {
		switch p.Key {
		case "mail":
			for _, q := range objectProps(p.Value) {
				if q.Key == "from" && q.Value.Kind == ValString {
					en.MailFrom = q.Value.Str
				}
			}
		case "http":
			for _, q := range objectProps(p.Value) {
				if q.Key == "allow" {
					en.HTTPAllow = refNames(stringRefs(q.Value))
				}
			}
		}
	}
	return en
}

// readColumns reads the columns of a table, or the input fields of a
// function or a flow: each `name: builder(...)` of an object literal.
func readColumns(v *Value) []*Column {
	props := objectProps(v)
	if len(props) == 0 {
		return nil
	}
	// A table's columns and their schemas are made in one allocation,
	// not two a column (a fifth of what loading the index cache
	// allocates on the 1,000-table project: BenchmarkCacheLoad).
	cells := make([]columnCell, len(props))
	var cols []*Column
	for i, p := range props {
		if p.Key == "" {
			continue // a spread or a computed key: T2010 already
		}
		cols = append(cols, readColumn(&cells[i], p))
	}
	return cols
}

// columnCell is a column with its schema, made together.
type columnCell struct {
	col    Column
	schema schema.Column
}

// readColumn reads one column from its builder call into cell. A value
// that is no call gives a column with no type (its T2010 is already
// reported); an unknown builder keeps its name as the type, for the
// check's T2002.
func readColumn(cell *columnCell, p *Prop) *Column {
	cell.schema.Name = p.Key
	cell.col = Column{Schema: &cell.schema, Prop: p}
	c := &cell.col
	call := p.Value
	if call.Kind != ValCall {
		return c
	}
	c.Call = call
	c.Schema.Type = schema.Type(call.Str)
	args := call.Items
	optionsAt := 0
	switch c.Schema.Type {
	case schema.Ref:
		optionsAt = 1
		if len(args) > 0 && args[0].Kind == ValString {
			ref := stringRef(args[0])
			c.RefName = &ref
			c.Schema.Ref = ref.Name
		}
	case schema.Choice:
		optionsAt = 1
		if len(args) > 0 {
			c.Schema.Choices = refNames(stringRefs(args[0]))
		}
	}
	if len(args) > optionsAt && args[len(args)-1].Kind == ValObject {
		c.Options = args[len(args)-1]
	}
	for _, o := range objectProps(c.Options) {
		switch o.Key {
		case "optional":
			c.Schema.Optional = o.Value.Kind == ValBool && o.Value.Bool
		case "private":
			c.Schema.Private = o.Value.Kind == ValBool && o.Value.Bool
		case "unique":
			c.Schema.Unique = o.Value.Kind == ValBool && o.Value.Bool
		case "default":
			c.Schema.Default, _ = jsonValue(o.Value)
		case "was":
			c.WasProp, c.Was = o, stringRefs(o.Value)
			c.Schema.Was = refNames(c.Was)
		}
	}
	return c
}

// readIndexes reads `indexes: [['a', 'b'], ['c']]`. A bare string stands
// for a one-column index.
func readIndexes(v *Value) [][]NameRef {
	if v.Kind != ValArray {
		return nil
	}
	var out [][]NameRef
	for _, item := range v.Items {
		switch item.Kind {
		case ValArray:
			out = append(out, stringRefs(item))
		case ValString:
			out = append(out, []NameRef{stringRef(item)})
		}
	}
	return out
}

// objectProps returns the properties of an object value (none for anything
// else, so readers of a malformed argument find nothing).
func objectProps(v *Value) []*Prop {
	if v == nil || v.Kind != ValObject {
		return nil
	}
	return v.Props
}

// stringRefs reads a name list: a string, or an array of strings (other
// items are left out).
func stringRefs(v *Value) []NameRef {
	switch v.Kind {
	case ValString:
		return []NameRef{stringRef(v)}
	case ValArray:
		var out []NameRef
		for _, item := range v.Items {
			if item.Kind == ValString {
				out = append(out, stringRef(item))
			}
		}
		return out
	}
	return nil
}

// stringRef makes the NameRef of a string value: Span inside the quotes,
// Lit with them.
func stringRef(v *Value) NameRef {
	return NameRef{Name: v.Str, Span: Span{v.Span.Start + 1, v.Span.End - 1}, Lit: v.Span}
}

// refNames returns the names of refs.
func refNames(refs []NameRef) []string {
	if len(refs) == 0 {
		return nil
	}
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = r.Name
	}
	return out
}

// jsonValue converts a literal value to JSON as encoding/json decodes it.
// ok is false where the value holds anything but literals.
func jsonValue(v *Value) (any, bool) {
	switch v.Kind {
	case ValString:
		return v.Str, true
	case ValNumber:
		return v.Num, true
	case ValBool:
		return v.Bool, true
	case ValNull:
		return nil, true
	case ValArray:
		out := make([]any, 0, len(v.Items))
		for _, item := range v.Items {
			x, ok := jsonValue(item)
			if !ok {
				return nil, false
			}
			out = append(out, x)
		}
		return out, true
	case ValObject:
		out := make(map[string]any, len(v.Props))
		for _, p := range v.Props {
			x, ok := jsonValue(p.Value)
			if !ok || p.Key == "" {
				return nil, false
			}
			out[p.Key] = x
		}
		return out, true
	}
	return nil, false
}
