package definitions

import "slices"

// This file resolves identifiers by the rules of lexical scope, to find
// every identifier that names a top-level binding of its file (an import's
// local name, a top-level const, let, var, function, class, enum,
// interface or type). Those are the IdentRefs that rename changes.
//
// The rules followed are those of an ES module: let, const, class and
// function declarations are scoped to their block (module code is strict),
// var to the enclosing function, and every declaration is visible from
// the start of its scope (hoisting; the temporal dead zone is no concern of
// a rename). Values and types are two namespaces: `const orders` does not
// shadow a type named orders, and `type T` does not shadow a value T.
// Imports, classes and enums bind both.

// Binding flags: which namespace a name is bound in.
const (
	bindValue uint8 = 1 << iota
	bindType
)

// scope is one lexical scope. Most scopes bind a few names (a function's
// parameters, a block's consts): those are kept as spans of the source
// and compared byte by byte, which costs no string and no map. A scope
// that binds more than maxListed names (a file's top level, mostly)
// keeps them in a map, whose strings its IdentRefs share.
type scope struct {
	parent *scope
	listed []binding
	names  map[string]bound
}

// bound is a name bound in a scope's map, and its flags.
type bound struct {
	name  string
	flags uint8
}

// binding is a name bound in a scope: its span in the source, and flags.
type binding struct {
	start, end int32
	flags      uint8
}

// maxListed is how many names a scope keeps as spans before a map.
const maxListed = 8

// declare binds the name src[start:end] in s.
func (s *scope) declare(src []byte, start, end int32, flags uint8) {
	if s.names == nil && len(s.listed) < maxListed {
		s.listed = append(s.listed, binding{start, end, flags})
		return
	}
	s.toMap(src, nil)
	s.add(string(src[start:end]), flags)
}

// toMap moves the names s lists into its map, made where it has none
// (spare, emptied, where it is not nil).
func (s *scope) toMap(src []byte, spare map[string]bound) {
	if s.names == nil {
		s.names = spare
		if s.names == nil {
			s.names = make(map[string]bound, 2*maxListed)
		}
	}
	for _, b := range s.listed {
		s.add(string(src[b.start:b.end]), b.flags)
	}
	s.listed = s.listed[:0]
}

func (s *scope) add(name string, flags uint8) {
	b, ok := s.names[name]
	if !ok {
		b.name = name
	}
	b.flags |= flags
	s.names[name] = b
}

// binds reports whether s binds name in one of flags' namespaces, with
// the scope's string of it where it has one ("" where not).
func (s *scope) binds(src, name []byte, flags uint8) (string, bool) {
	if s.names != nil {
		b := s.names[string(name)]
		return b.name, b.flags&flags != 0
	}
	for _, b := range s.listed {
		if b.flags&flags != 0 && string(src[b.start:b.end]) == string(name) {
			return "", true
		}
	}
	return "", false
}

// resolver walks a file's flat tree once, resolving each identifier.
type resolver struct {
	st   *stree
	top  *scope
	decl []bool // nodes that are the declaring occurrence of a binding
	refs []IdentRef
	// free holds the scopes the walk has left, for the next to reuse: a
	// file opens a scope per block and function, and most bind a name or
	// two, so reusing them spares an allocation for each and for its list.
	free []*scope
	// spare, where not nil, is an empty map for the top level's names
	// (a refQuery's of the last file: see newRefQuery).
	spare map[string]bound
}

// open returns an empty scope inside parent, reusing a left one.
func (r *resolver) open(parent *scope) *scope {
	if n := len(r.free); n > 0 {
		s := r.free[n-1]
		r.free = r.free[:n-1]
		s.parent = parent
		return s
	}
	return &scope{parent: parent}
}

// leave hands s, which the walk is done with, back for reuse. No
// IdentRef holds a string of an inner scope (only the top level's are
// recorded), so nothing it bound outlives it.
func (r *resolver) leave(s *scope) {
	*s = scope{listed: s.listed[:0]}
	r.free = append(r.free, s)
}

// resolveScopes returns the file's IdentRefs in source order.
func resolveScopes(st *stree) []IdentRef {
	r := &resolver{st: st, top: &scope{}, decl: make([]bool, len(st.nodes))}
	r.declareImports(r.top)
	r.scanBlock(0, r.top)
	r.scanVars(0, r.top)
	r.walkChildren(0, r.top)
	return r.refs
}

// declareImports binds the local names of the file's imports.
func (r *resolver) declareImports(s *scope) {
	st := r.st
	for _, c := range st.topStatements() {
		if st.nodes[c].kind != kindImportStatement {
			continue
		}
		clause := st.child(c, kindImportClause)
		if clause < 0 {
			continue
		}
		for b := st.nodes[clause].first; b >= 0; b = st.nodes[b].next {
			switch st.nodes[b].kind {
			case kindIdentifier:
				r.bind(b, s, bindValue|bindType)
			case kindNamespaceImport:
				if id := st.child(b, kindIdentifier); id >= 0 {
					r.bind(id, s, bindValue|bindType)
				}
			case kindNamedImports:
				for sp := st.nodes[b].first; sp >= 0; sp = st.nodes[sp].next {
					if st.nodes[sp].kind != kindImportSpecifier {
						continue
					}
					name, alias := st.specifierNames(sp)
					if alias >= 0 {
						r.bind(alias, s, bindValue|bindType)
					} else if name >= 0 && st.nodes[name].kind == kindIdentifier {
						r.bind(name, s, bindValue|bindType)
					}
				}
			}
		}
	}
}

// bind declares the name at node i in s and marks i as a declaration.
func (r *resolver) bind(i int32, s *scope, flags uint8) {
	n := &r.st.nodes[i]
	if n.end <= n.start {
		return // a node the parser made up to recover from an error
	}
	r.decl[i] = true
	if s == r.top && r.spare != nil && s.names == nil && len(s.listed) == maxListed {
		s.toMap(r.st.src, r.spare)
		r.spare = nil
	}
	s.declare(r.st.src, n.start, n.end, flags)
}

// scanBlock declares the block-scoped declarations that are direct
// statements of node b (a program, a statement block, a switch body, a
// for statement's initializer) in s.
func (r *resolver) scanBlock(b int32, s *scope) {
	st := r.st
	for c := st.nodes[b].first; c >= 0; c = st.nodes[c].next {
		r.scanStatement(c, s)
	}
}

func (r *resolver) scanStatement(c int32, s *scope) {
	st := r.st
	switch st.nodes[c].kind {
	case kindLexicalDeclaration:
		for d := st.nodes[c].first; d >= 0; d = st.nodes[d].next {
			if st.nodes[d].kind == kindVariableDeclarator {
				if name := st.nodes[d].first; name >= 0 {
					r.bindPattern(name, s)
				}
			}
		}
	case kindFunctionDeclaration, kindGeneratorFunctionDeclaration, kindFunctionSignature:
		if id := st.child(c, kindIdentifier); id >= 0 {
			r.bind(id, s, bindValue)
		}
	case kindClassDeclaration, kindAbstractClassDeclaration:
		if id := st.child(c, kindTypeIdentifier); id >= 0 {
			r.bind(id, s, bindValue|bindType)
		}
	case kindInterfaceDeclaration, kindTypeAliasDeclaration:
		if id := st.child(c, kindTypeIdentifier); id >= 0 {
			r.bind(id, s, bindType)
		}
	case kindEnumDeclaration:
		if id := st.child(c, kindIdentifier); id >= 0 {
			r.bind(id, s, bindValue|bindType)
		}
	case kindInternalModule, kindModule:
		if id := st.child(c, kindIdentifier); id >= 0 {
			r.bind(id, s, bindValue|bindType)
		}
	case kindExportStatement, kindAmbientDeclaration, kindSwitchCase, kindSwitchDefault, kindError:
		r.scanBlock(c, s)
	case kindOther:
		// `namespace N {}` stands inside an expression statement.
		if f := st.nodes[c].first; f >= 0 && st.nodes[f].kind == kindInternalModule {
			r.scanStatement(f, s)
		}
	}
}

// scanVars declares in s the var declarations under node n that belong to
// n's function scope: it stops at nested functions and classes, which
// have scopes of their own. A tree with no var (flatten notes it) has
// none to declare.
func (r *resolver) scanVars(n int32, s *scope) {
	st := r.st
	if !st.hasVar {
		return
	}
	for c := st.nodes[n].first; c >= 0; c = st.nodes[c].next {
		switch st.nodes[c].kind {
		case kindVariableDeclaration:
			for d := st.nodes[c].first; d >= 0; d = st.nodes[d].next {
				if st.nodes[d].kind == kindVariableDeclarator {
					if name := st.nodes[d].first; name >= 0 {
						r.bindPattern(name, s)
					}
				}
			}
			r.scanVars(c, s) // a declarator's value may hold a block
		case kindForInStatement:
			if st.child(c, kindTokVar) >= 0 {
				if left := r.forLeft(c); left >= 0 {
					r.bindPattern(left, s)
				}
			}
			r.scanVars(c, s)
		default:
			if isFunctionLike(st.nodes[c].kind) || st.nodes[c].kind == kindClassBody {
				continue
			}
			r.scanVars(c, s)
		}
	}
}

// forLeft returns the binding or target of a for-in/of statement: the
// first named node after its `(`, which is its first named node (`for`,
// `await` and `(` are tokens).
func (r *resolver) forLeft(f int32) int32 {
	st := r.st
	for c := st.nodes[f].first; c >= 0; c = st.nodes[c].next {
		if st.nodes[c].named && st.nodes[c].kind != kindComment {
			return c
		}
	}
	return -1
}

// bindPattern declares every name a binding pattern binds, as values.
// Default values and computed keys inside the pattern are left to the walk.
func (r *resolver) bindPattern(p int32, s *scope) {
	st := r.st
	switch st.nodes[p].kind {
	case kindIdentifier, kindShorthandPropertyPattern:
		r.bind(p, s, bindValue)
	case kindObjectPattern, kindArrayPattern:
		for c := st.nodes[p].first; c >= 0; c = st.nodes[c].next {
			if st.nodes[c].named {
				r.bindPattern(c, s)
			}
		}
	case kindPairPattern:
		if v := st.last(p); v >= 0 {
			r.bindPattern(v, s)
		}
	case kindAssignmentPattern, kindObjectAssignmentPattern:
		if l := st.nodes[p].first; l >= 0 {
			r.bindPattern(l, s)
		}
	case kindRestPattern:
		for c := st.nodes[p].first; c >= 0; c = st.nodes[c].next {
			if st.nodes[c].named {
				r.bindPattern(c, s)
			}
		}
	case kindRequiredParameter, kindOptionalParameter:
		for c := st.nodes[p].first; c >= 0; c = st.nodes[c].next {
			switch st.nodes[c].kind {
			case kindIdentifier, kindObjectPattern, kindArrayPattern, kindRestPattern, kindAssignmentPattern:
				r.bindPattern(c, s)
				return
			}
		}
	}
}

// isFunctionLike reports whether nodes of kind k open a function scope
// for their parameters.
func isFunctionLike(k kind) bool {
	switch k {
	case kindFunctionDeclaration, kindGeneratorFunctionDeclaration, kindFunctionExpression,
		kindGeneratorFunction, kindArrowFunction, kindMethodDefinition, kindFunctionType,
		kindConstructorType, kindCallSignature, kindConstructSignature, kindMethodSignature,
		kindAbstractMethodSignature, kindFunctionSignature:
		return true
	}
	return false
}

// walkChildren walks every child of n in scope s.
func (r *resolver) walkChildren(n int32, s *scope) {
	for c := r.st.nodes[n].first; c >= 0; c = r.st.nodes[c].next {
		r.walk(c, s)
	}
}

// walk resolves the identifiers under node n, opening scopes on the way.
func (r *resolver) walk(n int32, s *scope) {
	st := r.st
	nd := &st.nodes[n]
	switch k := nd.kind; {
	case k == kindIdentifier:
		if !r.decl[n] && !r.isIntrinsicTag(n) {
			r.resolve(n, s, bindValue, false)
		}
	case k == kindShorthandProperty:
		r.resolve(n, s, bindValue, true)
	case k == kindShorthandPropertyPattern:
		if !r.decl[n] {
			r.resolve(n, s, bindValue, true) // `({ a } = b)` assigns to a
		}
	case k == kindTypeIdentifier:
		if !r.decl[n] {
			r.resolve(n, s, bindType, false)
		}
	case k == kindImportStatement, k == kindJSXNamespaceName:
		// Import specifiers are no IdentRefs, nor the parts of a
		// namespaced JSX name (`<svg:rect>`).
	case k == kindExportStatement:
		for c := nd.first; c >= 0; c = st.nodes[c].next {
			if ck := st.nodes[c].kind; ck != kindExportClause && ck != kindNamespaceExport {
				r.walk(c, s)
			}
		}
	case k == kindNestedTypeIdentifier, k == kindNestedIdentifier:
		// `ns.T`: only ns is resolved; T is a member of it.
		if f := nd.first; f >= 0 {
			r.walk(f, s)
		}
	default:
		if inner := r.enter(n, s); inner != nil {
			r.walkChildren(n, inner)
			r.leave(inner)
		} else {
			r.walkChildren(n, s)
		}
	}
}

// enter returns the scope that node n opens inside s, with the names it
// binds, or nil where n opens none: the walk resolves every child of n in
// it. It is the one rule of which nodes open a scope and what each binds,
// for the walk and for refQuery.
func (r *resolver) enter(n int32, s *scope) *scope {
	st := r.st
	nd := &st.nodes[n]
	switch k := nd.kind; {
	case isFunctionLike(k):
		return r.functionScope(n, s)
	case k == kindStatementBlock, k == kindSwitchBody, k == kindForStatement:
		inner := r.open(s)
		r.scanBlock(n, inner)
		return inner
	case k == kindForInStatement:
		inner := r.open(s)
		if st.child(n, kindTokLet) >= 0 || st.child(n, kindTokConst) >= 0 {
			if left := r.forLeft(n); left >= 0 {
				r.bindPattern(left, inner)
			}
		}
		return inner
	case k == kindCatchClause:
		inner := r.open(s)
		if p := r.forLeft(n); p >= 0 && st.nodes[p].kind != kindStatementBlock {
			r.bindPattern(p, inner)
		}
		return inner
	case k == kindClass, k == kindClassDeclaration, k == kindAbstractClassDeclaration,
		k == kindInterfaceDeclaration, k == kindTypeAliasDeclaration:
		inner := r.open(s)
		if k == kindClass {
			if id := st.child(n, kindTypeIdentifier); id >= 0 {
				r.bind(id, inner, bindValue|bindType)
			}
		}
		r.bindTypeParameters(n, inner)
		return inner
	case k == kindIndexSignature:
		inner := r.open(s)
		for c := nd.first; c >= 0; c = st.nodes[c].next {
			switch st.nodes[c].kind {
			case kindIdentifier:
				r.bind(c, inner, bindValue)
			case kindMappedTypeClause:
				if id := st.child(c, kindTypeIdentifier); id >= 0 {
					r.bind(id, inner, bindType)
				}
			}
		}
		return inner
	}
	return nil
}

// functionScope opens a function scope: its own name (for function and
// class expressions), its type parameters, its parameters and its vars.
func (r *resolver) functionScope(n int32, s *scope) *scope {
	st := r.st
	inner := r.open(s)
	switch st.nodes[n].kind {
	case kindFunctionExpression, kindGeneratorFunction:
		if id := st.child(n, kindIdentifier); id >= 0 {
			r.bind(id, inner, bindValue)
		}
	}
	r.bindTypeParameters(n, inner)
	if params := st.child(n, kindFormalParameters); params >= 0 {
		for p := st.nodes[params].first; p >= 0; p = st.nodes[p].next {
			r.bindPattern(p, inner)
		}
	} else if st.nodes[n].kind == kindArrowFunction {
		if id := st.child(n, kindIdentifier); id >= 0 && id != st.last(n) {
			r.bind(id, inner, bindValue) // `x => ...`
		}
	}
	if body := st.child(n, kindStatementBlock); body >= 0 {
		r.scanVars(body, inner)
	}
	return inner
}

// bindTypeParameters declares the type parameters of n, if any.
func (r *resolver) bindTypeParameters(n int32, s *scope) {
	st := r.st
	tp := st.child(n, kindTypeParameters)
	if tp < 0 {
		return
	}
	for c := st.nodes[tp].first; c >= 0; c = st.nodes[c].next {
		if st.nodes[c].kind == kindTypeParameter {
			if id := st.child(c, kindTypeIdentifier); id >= 0 {
				r.bind(id, s, bindType)
			}
		}
	}
}

// isIntrinsicTag reports whether identifier i names a JSX element that
// starts with a lower-case letter (`<div>`): such a tag is an HTML element,
// never a binding.
func (r *resolver) isIntrinsicTag(i int32) bool {
	st := r.st
	p := st.nodes[i].parent
	if p < 0 {
		return false
	}
	switch st.nodes[p].kind {
	case kindJSXOpeningElement, kindJSXClosingElement, kindJSXSelfClosingElement:
	default:
		return false
	}
	c := st.src[st.nodes[i].start]
	return c >= 'a' && c <= 'z'
}

// resolve looks the name at node i up from s and records an IdentRef when
// the innermost binding is a top-level one.
func (r *resolver) resolve(i int32, s *scope, flags uint8, shorthand bool) {
	nd := &r.st.nodes[i]
	if nd.end <= nd.start {
		return
	}
	name := r.st.src[nd.start:nd.end]
	for ; s != nil; s = s.parent {
		if bound, ok := s.binds(r.st.src, name, flags); ok {
			if s == r.top {
				if bound == "" {
					bound = string(name)
				}
				r.refs = append(r.refs, IdentRef{Name: bound, Span: Span{int(nd.start), int(nd.end)}, Shorthand: shorthand})
			}
			return
		}
	}
}

// refQuery tells of a few identifiers whether each is an IdentRef, as
// resolveScopes would find it, without resolving the whole file: it
// opens only the scopes on the way from the top level to each, by the
// walk's own rules (enter), each once. A build that leaves the IdentRefs
// out (Options.Lazy) asks it of the callees its uses need (codeReader).
type refQuery struct {
	r resolver
	// open are the nodes on the way to the identifier last asked, from
	// the top level down, each with the scope it opens (nil: none).
	// The identifiers are asked in source order, so those of one
	// scope come together: once the walk leaves a node, it never comes
	// back into it.
	open []openScope
	path []int32
}

// openScope is a node on refQuery's way and the scope it opens.
type openScope struct {
	node  int32
	scope *scope
}

// newRefQuery makes a query over st, with the top level's scope bound
// as resolveScopes binds it; scratch, where not nil, lends it the marks
// of the declarations.
//
// A scratch's query is reused from file to file (scratch.query): its
// lists, its left scopes and the top level's map, emptied. Nothing a
// query answers keeps any of them.
func newRefQuery(st *stree, scratch *wordScratch) *refQuery {
	if scratch == nil {
		q := &refQuery{r: resolver{st: st, top: &scope{}, decl: make([]bool, len(st.nodes))}}
		q.bindTop()
		return q
	}
	scratch.declared = slices.Grow(scratch.declared[:0], len(st.nodes))[:len(st.nodes)]
	clear(scratch.declared)
	q := scratch.query
	if q == nil {
		q = &refQuery{r: resolver{top: &scope{}}}
		scratch.query = q
	}
	for _, o := range q.open {
		if o.scope != nil {
			q.r.leave(o.scope)
		}
	}
	top := q.r.top
	spare := top.names
	clear(spare)
	*top = scope{listed: top.listed[:0]}
	q.r = resolver{st: st, top: top, decl: scratch.declared, free: q.r.free, spare: spare}
	q.open, q.path = q.open[:0], q.path[:0]
	q.bindTop()
	return q
}

// bindTop binds the top level's names, as resolveScopes binds them.
func (q *refQuery) bindTop() {
	q.r.declareImports(q.r.top)
	q.r.scanBlock(0, q.r.top)
	q.r.scanVars(0, q.r.top)
}

// isRef reports whether identifier node i is an IdentRef: the walk
// reaches it (it is in no import statement, export clause, namespaced
// JSX name, nor behind the first part of a nested name) and resolves it,
// a value, to a binding of the top level.
func (q *refQuery) isRef(i int32) bool {
	r := &q.r
	st := r.st
	nd := &st.nodes[i]
	if nd.kind != kindIdentifier || nd.end <= nd.start {
		return false
	}
	q.path = q.path[:0]
	child := i
	for a := nd.parent; a > 0; child, a = a, st.nodes[a].parent {
		switch st.nodes[a].kind {
		case kindImportStatement, kindJSXNamespaceName:
			return false
		case kindExportStatement:
			if k := st.nodes[child].kind; k == kindExportClause || k == kindNamespaceExport {
				return false
			}
		case kindNestedTypeIdentifier, kindNestedIdentifier:
			if st.nodes[a].first != child {
				return false
			}
		}
		q.path = append(q.path, a)
	}
	// The nodes on the way the last identifier shares with this one keep
	// their scopes; the rest are left (and their scopes reused).
	k := 0
	for k < len(q.open) && k < len(q.path) && q.open[k].node == q.path[len(q.path)-1-k] {
		k++
	}
	for j := len(q.open) - 1; j >= k; j-- {
		if q.open[j].scope != nil {
			r.leave(q.open[j].scope)
		}
	}
	q.open = q.open[:k]
	s := r.top
	for j := k - 1; j >= 0; j-- {
		if q.open[j].scope != nil {
			s = q.open[j].scope
			break
		}
	}
	for j := len(q.path) - 1 - k; j >= 0; j-- {
		a := q.path[j]
		inner := r.enter(a, s)
		q.open = append(q.open, openScope{a, inner})
		if inner != nil {
			s = inner
		}
	}
	if r.decl[i] || r.isIntrinsicTag(i) {
		return false
	}
	name := st.src[nd.start:nd.end]
	for ; s != nil; s = s.parent {
		if _, ok := s.binds(st.src, name, bindValue); ok {
			return s == r.top
		}
	}
	return false
}
