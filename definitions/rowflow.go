package definitions

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// This file reads where rows of tables go in one file's code (RowFlow):
// which values are rows (or lists of rows) of a table, which columns the
// code names on them, and what flows out of the file's reach (arguments of
// project functions, what a top-level function returns, a parameter of
// one), each by a symbolic origin. rowsites.go joins the files' flows into
// the sites that name a column of a certain table (Index.RowSites).
//
// A value is a row of T where it is certain to be one:
//   - the result of ctx.db.T.get, insert or update (a list: where, all),
//     through await, parentheses, `!` and `as`;
//   - an element of such a list: for … of, [0] and [i], destructuring
//     `const [a] = …`, the callback parameter of filter, map, find,
//     forEach, some, every (filter, slice, sort keep the list);
//   - the row parameter of a table's may rules;
//   - ctx.user, a row of the project's users table (or null, or the
//     system's { system: true }), where ctx is a run's ctx: the first
//     parameter of a fn's run and may, a screen's load, a table's may
//     rules, or a helper's parameter every call of which passes one;
//   - what ctx.call('N', …) returns: what each return of N's run is (a
//     flow's, its last step's);
//   - an element of what map gives where its callback returns a row (or
//     an object holding one), and of Promise.all of such a list; a
//     project function given to a list method as its callback is called
//     with the elements;
//   - a field of an object literal that holds one, and the props a screen's
//     view destructures from what its load returns;
//   - a parameter of a project function every call of which passes a row of
//     T, and what a project function returns where each return is one.
//
// A name that is assigned anywhere in its outermost function (`x = …`,
// `x++`) is never bound: only values that cannot change are followed.

// RowFlow is what a file's code says of rows.
type RowFlow struct {
	// Uses are the columns the code names on values that may be rows.
	Uses []RowUse
	// Calls are the calls of project functions (imported, or top-level
	// functions of the file), with what each argument is.
	Calls []RowCall
	// Returns are the values the file's top-level functions return.
	Returns []RowReturn
	// Funcs are the file's top-level functions, sorted.
	Funcs []string
	// Escapes are the project functions (bindings, as RowCall.Callee) the
	// code names other than by calling them: their parameters may take any
	// value.
	Escapes []string
}

// RowOrigin says where a value comes from: exactly one of Table, Param,
// Call and Ctx is set.
type RowOrigin struct {
	// Table: a row of Table, or a list of them where List is set.
	Table string
	List  bool
	// Param is "F:k", the k-th parameter (from 0) of the file's top-level
	// function F.
	Param string
	// Call is what the project function of a binding returns
	// ("module#imported", or "#F" for a top-level function of the file).
	Call string
	// Ctx: a run's ctx (docs/pages/format.md §6).
	Ctx bool
	// Via is taken of what Ctx or Param is, where that is a ctx: "user"
	// for its user (a row of the users table), "call:N" for what
	// ctx.call('N') returns.
	Via string
	// Elem: an element of the list that Param, Call or Via is.
	Elem bool
}

// Known reports whether o says anything.
func (o RowOrigin) Known() bool { return o.Table != "" || o.Param != "" || o.Call != "" || o.Ctx }

// isCtx reports whether o is certainly a run's ctx.
func (o RowOrigin) isCtx() bool { return o.Ctx && o.Via == "" }

// open reports whether o is a Param, Call or Via the join resolves, and no
// element of one: it may be a row, a list of rows or a ctx.
func (o RowOrigin) open() bool {
	return (o.Param != "" || o.Call != "" || o.Via != "" && o.Via != "user") && !o.Elem
}

// RowHow is how a site names a column of a row.
type RowHow uint8

// The ways code names a column of a row.
const (
	// RowMember is `row.c` (or `row['c']`).
	RowMember RowHow = iota + 1
	// RowDestructure is `const { c } = row`, or a parameter `({ c })`.
	RowDestructure
	// RowOrder is `order: 'c'` (or '-c') in the options of ctx.db.T.all
	// or where.
	RowOrder
	// RowColumns is a name in `columns={[...]}` of a Table whose rows are
	// a list of rows.
	RowColumns
	// RowShorthand is `const { c } = row`: the key is the name bound too.
	RowShorthand
	// RowPatchKey is a key of an object, written elsewhere, that is passed to
	// ctx.db.T.insert, update or where.
	RowPatchKey
)

// String names the way, for messages.
func (h RowHow) String() string {
	switch h {
	case RowMember:
		return "member"
	case RowDestructure:
		return "destructure"
	case RowOrder:
		return "order"
	case RowColumns:
		return "columns"
	case RowShorthand:
		return "destructure"
	case RowPatchKey:
		return "key"
	}
	return "row"
}

// RowUse is a column named on a value of some origin.
type RowUse struct {
	Def    string // the definition around, "" outside one
	Of     RowOrigin
	Column NameRef
	How    RowHow
}

// RowCall is a call of a project function with what each argument is (a
// zero origin for one that is no certain row).
type RowCall struct {
	Callee string
	Args   []RowOrigin
}

// RowReturn is one return of a top-level function (a zero origin for a
// value that is no certain row).
type RowReturn struct {
	Func string
	Of   RowOrigin
}

// rk is a node kind as the row flow reads it, by grammar symbol.
type rk uint8

const (
	rkOther rk = iota
	rkIdentifier
	rkAwait
	rkParen
	rkNonNull
	rkAs
	rkCall
	rkMember
	rkSubscript
	rkObject
	rkPair
	rkShorthand
	rkSpread
	rkArrow
	rkFunction
	rkFuncDecl
	rkLexical
	rkDeclarator
	rkObjectPattern
	rkPairPattern
	rkShorthandPattern
	rkObjectAssignPattern
	rkAssignPattern
	rkArrayPattern
	rkRest
	rkForIn
	rkReturn
	rkBlock
	rkFormalParams
	rkParam
	rkArguments
	rkString
	rkTemplate
	rkNumber
	rkArray
	rkJSXSelf
	rkJSXOpen
	rkJSXAttr
	rkJSXExpr
	rkPropertyIdentifier
	rkAssignment
	rkUpdate
	rkExport
	rkComment
	rkOptionalChain
	rkTypeAnnotation
)

var rkNames = map[string]rk{
	"identifier":                            rkIdentifier,
	"await_expression":                      rkAwait,
	"parenthesized_expression":              rkParen,
	"non_null_expression":                   rkNonNull,
	"as_expression":                         rkAs,
	"satisfies_expression":                  rkAs,
	"call_expression":                       rkCall,
	"member_expression":                     rkMember,
	"subscript_expression":                  rkSubscript,
	"object":                                rkObject,
	"pair":                                  rkPair,
	"shorthand_property_identifier":         rkShorthand,
	"spread_element":                        rkSpread,
	"arrow_function":                        rkArrow,
	"function_expression":                   rkFunction,
	"function":                              rkFunction,
	"function_declaration":                  rkFuncDecl,
	"lexical_declaration":                   rkLexical,
	"variable_declaration":                  rkLexical,
	"variable_declarator":                   rkDeclarator,
	"object_pattern":                        rkObjectPattern,
	"pair_pattern":                          rkPairPattern,
	"shorthand_property_identifier_pattern": rkShorthandPattern,
	"object_assignment_pattern":             rkObjectAssignPattern,
	"assignment_pattern":                    rkAssignPattern,
	"array_pattern":                         rkArrayPattern,
	"rest_pattern":                          rkRest,
	"for_in_statement":                      rkForIn,
	"return_statement":                      rkReturn,
	"statement_block":                       rkBlock,
	"formal_parameters":                     rkFormalParams,
	"required_parameter":                    rkParam,
	"optional_parameter":                    rkParam,
	"arguments":                             rkArguments,
	"string":                                rkString,
	"template_string":                       rkTemplate,
	"number":                                rkNumber,
	"array":                                 rkArray,
	"jsx_self_closing_element":              rkJSXSelf,
	"jsx_opening_element":                   rkJSXOpen,
	"jsx_attribute":                         rkJSXAttr,
	"jsx_expression":                        rkJSXExpr,
	"property_identifier":                   rkPropertyIdentifier,
	"assignment_expression":                 rkAssignment,
	"augmented_assignment_expression":       rkAssignment,
	"update_expression":                     rkUpdate,
	"export_statement":                      rkExport,
	"comment":                               rkComment,
	"optional_chain":                        rkOptionalChain,
	"type_annotation":                       rkTypeAnnotation,
}

var (
	rkOnce          sync.Once
	rkTS, rkTSX     []rk
	rowListKeep     = map[string]bool{"filter": true, "slice": true, "sort": true, "reverse": true, "toSorted": true, "toReversed": true}
	rowListElem     = map[string]bool{"find": true, "findLast": true, "at": true, "pop": true, "shift": true}
	rowListCallback = map[string]bool{"map": true, "flatMap": true, "forEach": true, "some": true, "every": true, "findIndex": true, "findLastIndex": true,
		"filter": true, "find": true, "findLast": true}
	// rowNotColumns are the names a row has from Object.prototype.
	rowNotColumns = map[string]bool{"constructor": true, "hasOwnProperty": true, "isPrototypeOf": true, "propertyIsEnumerable": true,
		"toLocaleString": true, "toString": true, "valueOf": true, "__proto__": true}
)

func rkTables() (ts, tsx []rk) {
	rkOnce.Do(func() {
		g1, g2 := grammars()
		mk := func(g *grammar) []rk {
			out := make([]rk, len(g.names))
			for i, n := range g.names {
				if g.info[i].named {
					out[i] = rkNames[n]
				}
			}
			return out
		}
		rkTS, rkTSX = mk(g1), mk(g2)
	})
	return rkTS, rkTSX
}

// aval is what the row flow knows of a value: an origin, the fields of an
// object literal, or the elements of an array map made; nil for nothing.
type aval struct {
	o      RowOrigin
	fields map[string]*aval
	// items is every element of an array that map gave (known in this
	// file only; a list of rows of a table is an origin instead).
	items *aval
}

// elem is an element of v, where v is (or may be) a list of rows.
func (v *aval) elem() *aval {
	if v == nil {
		return nil
	}
	switch {
	case v.items != nil:
		return v.items
	case v.o.Table != "" && v.o.List:
		return &aval{o: RowOrigin{Table: v.o.Table}}
	case v.o.open():
		o := v.o
		o.Elem = true
		return &aval{o: o}
	}
	return nil
}

// rowish reports whether v may be a single row (its uses are recorded).
func (v *aval) rowish() bool {
	return v != nil && v.o.Known() && !(v.o.Table != "" && v.o.List) && !v.o.isCtx()
}

// listish reports whether v may be a list of rows.
func (v *aval) listish() bool {
	return v != nil && (v.items != nil || v.o.Table != "" && v.o.List || v.o.open())
}

// ctxish reports whether v may be a run's ctx: one, or a parameter.
func (v *aval) ctxish() bool {
	return v != nil && v.fields == nil && (v.o.isCtx() || v.o.Param != "" && v.o.Via == "" && !v.o.Elem)
}

// via is what v's user (how "user") or ctx.call('N') (how "call:N") is,
// where v may be a ctx.
func (v *aval) via(how string) *aval {
	o := v.o
	o.Via = how
	return &aval{o: o}
}

// mapped is the array map gives where its callback returns r: a list of
// rows of T where r is a row of T.
func mapped(r *aval) *aval {
	switch {
	case r == nil:
		return nil
	case r.fields == nil && r.items == nil && r.o.Table != "" && !r.o.List:
		return &aval{o: RowOrigin{Table: r.o.Table, List: true}}
	}
	return &aval{items: r}
}

// same reports whether a and b are known alike (the returns of a
// callback).
func same(a, b *aval) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || a.fields != nil || b.fields != nil || a.items != nil || b.items != nil {
		return false
	}
	return a.o == b.o
}

// rowScope is the names a block or function binds, in the order bound (a
// few at most: looked up by a scan, which makes no map per block).
type rowScope struct {
	names []rowName
	up    *rowScope
	// inline holds the first names, so that a scope of few names makes
	// no second allocation.
	inline [3]rowName
}

type rowName struct {
	name string
	v    *aval
}

// set binds name in s.
func (s *rowScope) set(name string, v *aval) {
	for i := range s.names {
		if s.names[i].name == name {
			s.names[i].v = v
			return
		}
	}
	if s.names == nil {
		s.names = s.inline[:0]
	}
	s.names = append(s.names, rowName{name, v})
}

// lookup finds name (the bytes of an identifier, so that no string is
// made for it) in s or a scope around it.
func (s *rowScope) lookup(name []byte) (*aval, bool) {
	for ; s != nil; s = s.up {
		for i := range s.names {
			if s.names[i].name == string(name) {
				return s.names[i].v, true
			}
		}
	}
	return nil, false
}

// rowWalker reads a file's row flow.
type rowWalker struct {
	f     *File
	st    *stree
	kinds []rk
	flow  RowFlow
	// assigned are the names assigned anywhere in the outermost function
	// being walked (writtenIn); writes are the file's assignments and
	// updates, in node order (readWords' list).
	assigned map[string]bool
	writes   []int32
	// funcs are the top-level functions of the file.
	funcs map[string]bool
	// imports are the relative imports, by local name.
	imports map[string]*Import
	// bindings are the project functions the file's names bind where no
	// scope does, as RowCall.Callee (binding), made on first use.
	bindings map[string]string
	// argStack holds the arguments of the calls being walked (args).
	argStack []int32
	// uiTable is the local name of tent/ui's Table, "" where none.
	uiTable string
	def     string // the definition being walked
	fn      *fnFrame
	escapes map[string]bool
	// arena is the worker's (wordScratch), or nil: then each value and
	// scope is an allocation of its own.
	arena *rowArena
}

// rowArena is where a worker's row walks take their values and scopes
// from, a block at a time, the same blocks again for each file: none of
// them outlives the walk of its file (the flow keeps origins, copied), so
// a build reads the row flow of every file in the memory of one.
type rowArena struct {
	avals  [][]aval
	scopes [][]rowScope
	// av and sc are where the next value and scope are taken: block
	// [0] at offset [1].
	av, sc [2]int
	// The walk's maps (rowWalker's), emptied for each file.
	assigned, funcs, escapes map[string]bool
	imports                  map[string]*Import
	bindings                 map[string]string
}

// rowBlock is how many values or scopes a block of rowArena holds.
const rowBlock = 128

// lend makes the arena's blocks free for the next file and lends w its
// maps, emptied.
func (a *rowArena) lend(w *rowWalker) {
	a.av, a.sc = [2]int{}, [2]int{}
	clear(a.assigned)
	clear(a.funcs)
	clear(a.escapes)
	clear(a.imports)
	clear(a.bindings)
	w.assigned, w.funcs, w.escapes, w.imports, w.bindings = a.assigned, a.funcs, a.escapes, a.imports, a.bindings
}

// keep takes back the maps w made or grew.
func (a *rowArena) keep(w *rowWalker) {
	a.assigned, a.funcs, a.escapes, a.imports, a.bindings = w.assigned, w.funcs, w.escapes, w.imports, w.bindings
}

// newAval returns a pointer to a copy of v, from the worker's arena
// where the walk has one.
func (w *rowWalker) newAval(v aval) *aval {
	a := w.arena
	if a == nil {
		return &v
	}
	p := take(&a.avals, &a.av)
	*p = v
	return p
}

// newScope returns an empty scope inside up, from the worker's arena
// where the walk has one.
func (w *rowWalker) newScope(up *rowScope) *rowScope {
	a := w.arena
	if a == nil {
		return &rowScope{up: up}
	}
	p := take(&a.scopes, &a.sc)
	*p = rowScope{up: up}
	return p
}

// take returns the next free element of blocks at *at, adding a block
// where they are all taken.
func take[T any](blocks *[][]T, at *[2]int) *T {
	if at[1] == rowBlock {
		at[0], at[1] = at[0]+1, 0
	}
	if at[0] == len(*blocks) {
		*blocks = append(*blocks, make([]T, rowBlock))
	}
	p := &(*blocks)[at[0]][at[1]]
	at[1]++
	return p
}

type fnFrame struct {
	returns []*aval
	up      *fnFrame
}

func (w *rowWalker) k(i int32) rk {
	if s := int(w.st.nodes[i].sym); s < len(w.kinds) {
		return w.kinds[s]
	}
	return rkOther // ERROR and the like
}

// readRowFlow reads the row flow of a file whose definitions, imports and
// scopes are read.
//
// writes are the file's assignments and updates, in node order, as
// readWords lists them (kindWrite).
func readRowFlow(f *File, st *stree, writes []int32) RowFlow {
	if st == nil || len(st.nodes) == 0 {
		return RowFlow{}
	}
	ts, tsx := rkTables()
	// The walker's maps are made on their first name: many files have
	// none of some.
	w := &rowWalker{f: f, st: st, kinds: ts}
	if st.words != nil {
		// The uses and calls are read into the worker's scratch and
		// copied out at their size (a slice grown to hold them made
		// twice the memory they take).
		w.flow.Uses, w.flow.Calls = st.words.rowUses[:0], st.words.rowCalls[:0]
		w.arena = &st.words.rows
		w.arena.lend(w)
	}
	if f.Lang == LangTSX {
		w.kinds = tsx
	}
	for i := range f.Imports {
		im := &f.Imports[i]
		if strings.HasPrefix(im.Module, ".") {
			w.imports = setIn(w.imports, im.Local, im)
		}
		if im.Module == "tent/ui" && im.Imported == "Table" {
			w.uiTable = im.Local
		}
	}
	w.writes = writes
	tops := st.topStatements()
	for _, s := range tops {
		w.topFunctions(s, func(string, int32) {})
	}
	// Definitions' code: may rules of tables, a screen's load and view, a
	// fn's run and may.
	for _, d := range f.Definitions {
		w.definition(d)
	}
	for _, s := range tops {
		w.topFunctions(s, w.topFunction)
	}
	for name := range w.funcs {
		w.flow.Funcs = append(w.flow.Funcs, name)
	}
	sort.Strings(w.flow.Funcs)
	for b := range w.escapes {
		w.flow.Escapes = append(w.flow.Escapes, b)
	}
	sort.Strings(w.flow.Escapes)
	if st.words != nil {
		st.words.rowUses, st.words.rowCalls = w.flow.Uses, w.flow.Calls
		w.arena.keep(w)
		w.flow.Uses, w.flow.Calls = cloneOrNil(w.flow.Uses), cloneOrNil(w.flow.Calls)
	}
	return w.flow
}

// writtenIn sets w.assigned to the names written in the subtree of node
// fn, an outermost function: a name bound in a function can be assigned
// only there. The nodes are in pre-order, so a subtree is a run of them,
// and its writes a run of the file's list (found by a binary search, so
// no function's nodes are scanned again).
func (w *rowWalker) writtenIn(fn int32) {
	clear(w.assigned)
	st := w.st
	end := st.nodes[fn].end
	at, _ := slices.BinarySearch(w.writes, fn+1)
	for _, i := range w.writes[at:] {
		if st.nodes[i].start >= end {
			break
		}
		w.assignedIn(i)
	}
}

// assignedIn marks the name an assignment or update writes.
func (w *rowWalker) assignedIn(i int32) {
	st := w.st
	for c := st.nodes[i].first; c >= 0; c = st.nodes[c].next {
		if st.nodes[c].named {
			if w.k(c) == rkIdentifier {
				w.assigned = setIn(w.assigned, st.text(c), true)
			}
			return
		}
	}
}

// topFunctions calls fn with each top-level function of statement s (its
// name and its function node), and records the names.
func (w *rowWalker) topFunctions(s int32, fn func(name string, node int32)) {
	st := w.st
	switch w.k(s) {
	case rkExport:
		for c := st.nodes[s].first; c >= 0; c = st.nodes[c].next {
			if st.nodes[c].named {
				w.topFunctions(c, fn)
			}
		}
	case rkFuncDecl:
		if id := w.childOf(s, rkIdentifier); id >= 0 {
			w.funcs = setIn(w.funcs, st.text(id), true)
			fn(st.text(id), s)
		}
	case rkLexical:
		for d := st.nodes[s].first; d >= 0; d = st.nodes[d].next {
			if w.k(d) != rkDeclarator {
				continue
			}
			name, val := w.named(d, 0), w.lastNamed(d)
			if name < 0 || val == name || w.k(name) != rkIdentifier {
				continue
			}
			switch w.k(val) {
			case rkArrow, rkFunction:
				w.funcs = setIn(w.funcs, st.text(name), true)
				fn(st.text(name), val)
			}
		}
	}
}

// topFunction walks top-level function name: its parameters are Param
// origins, its returns recorded.
func (w *rowWalker) topFunction(name string, node int32) {
	if w.f.definitionAt(int(w.st.nodes[node].start)) != nil {
		return // a definition's code, walked by definition
	}
	w.def = ""
	params := w.params(node)
	in := make([]*aval, len(params))
	for k := range params {
		in[k] = w.newAval(aval{o: RowOrigin{Param: name + ":" + strconv.Itoa(k)}})
	}
	rets := w.function(node, in, nil)
	for _, r := range rets {
		var o RowOrigin
		if r != nil {
			o = r.o
		}
		w.flow.Returns = append(w.flow.Returns, RowReturn{Func: name, Of: o})
	}
}

// definitionAt is the definition whose statement holds off, or nil.
func (f *File) definitionAt(off int) *Definition {
	for _, d := range f.Definitions {
		if d.Stmt.Start <= off && off < d.Stmt.End {
			return d
		}
	}
	return nil
}

// definition walks the code of d.
func (w *rowWalker) definition(d *Definition) {
	if d.Arg == nil || d.Arg.Kind != ValObject {
		return
	}
	w.def = d.Name
	defer func() { w.def = "" }()
	prop := func(v *Value, key string) *Value {
		if v == nil || v.Kind != ValObject {
			return nil
		}
		for _, p := range v.Props {
			if p.Key == key {
				return p.Value
			}
		}
		return nil
	}
	code := func(v *Value) int32 {
		if v == nil || v.Kind != ValCode {
			return -1
		}
		return w.nodeAt(v.Span)
	}
	ctx := func() *aval { return w.newAval(aval{o: RowOrigin{Ctx: true}}) }
	switch d.Kind {
	case KindTable:
		may := prop(d.Arg, "may")
		if may != nil && may.Kind == ValObject {
			for _, p := range may.Props {
				if n := code(p.Value); n >= 0 {
					w.function(n, []*aval{ctx(), {o: RowOrigin{Table: d.Name}}}, nil)
				}
			}
		} else if n := code(may); n >= 0 {
			w.function(n, []*aval{ctx(), {o: RowOrigin{Table: d.Name}}}, nil)
		}
	case KindFn:
		// run and may take the run's ctx; what run returns is what
		// ctx.call of the function gives (one return, if only a zero
		// one, marks the function in the file's shape).
		for _, p := range d.Arg.Props {
			n := code(p.Value)
			if n < 0 {
				continue
			}
			switch p.Key {
			case "run":
				rets := w.function(n, []*aval{ctx()}, nil)
				if len(rets) == 0 {
					rets = []*aval{nil}
				}
				for _, r := range rets {
					var o RowOrigin
					if r != nil && r.fields == nil && r.items == nil {
						o = r.o
					}
					w.flow.Returns = append(w.flow.Returns, RowReturn{Func: "@" + d.Name, Of: o})
				}
			case "may":
				w.function(n, []*aval{ctx()}, nil)
			default:
				w.function(n, nil, nil)
			}
		}
	case KindFlow:
		// A flow's result is its last step's (format.md §2.3).
		if d.Flow != nil && len(d.Flow.Steps) > 0 {
			last := d.Flow.Steps[len(d.Flow.Steps)-1].Name
			w.flow.Returns = append(w.flow.Returns, RowReturn{Func: "@" + d.Name, Of: RowOrigin{Ctx: true, Via: "call:" + last}})
		}
	case KindScreen:
		var data *aval
		if n := code(prop(d.Arg, "load")); n >= 0 {
			rets := w.function(n, []*aval{ctx()}, nil)
			if len(rets) == 1 {
				data = rets[0]
			}
		}
		if n := code(prop(d.Arg, "view")); n >= 0 {
			w.function(n, []*aval{data}, nil)
		}
		for _, p := range d.Arg.Props {
			if p.Key != "load" && p.Key != "view" {
				if n := code(p.Value); n >= 0 {
					w.function(n, nil, nil)
				}
			}
		}
	default:
		for _, p := range d.Arg.Props {
			if n := code(p.Value); n >= 0 {
				w.function(n, nil, nil)
			}
		}
	}
}

// nodeAt is the function node that spans sp exactly, or -1.
func (w *rowWalker) nodeAt(sp Span) int32 {
	st := w.st
	for i := int32(0); i < int32(len(st.nodes)); {
		n := &st.nodes[i]
		if int(n.end) <= sp.Start {
			// skip this subtree: go to its next sibling, or up
			for i >= 0 && st.nodes[i].next < 0 {
				i = st.nodes[i].parent
			}
			if i < 0 {
				return -1
			}
			i = st.nodes[i].next
			continue
		}
		if int(n.start) == sp.Start && int(n.end) == sp.End {
			switch w.k(i) {
			case rkArrow, rkFunction:
				return i
			}
		}
		if n.first < 0 {
			return -1
		}
		i = n.first
	}
	return -1
}

// params returns the parameter nodes of function node fn.
func (w *rowWalker) params(fn int32) []int32 {
	st := w.st
	for c := st.nodes[fn].first; c >= 0; c = st.nodes[c].next {
		switch w.k(c) {
		case rkFormalParams:
			var out []int32
			for p := st.nodes[c].first; p >= 0; p = st.nodes[p].next {
				if w.k(p) == rkParam {
					out = append(out, p)
				} else if st.nodes[p].named && w.k(p) != rkComment {
					out = append(out, -1) // a rest parameter or another form
				}
			}
			return out
		case rkIdentifier:
			if w.k(fn) == rkArrow {
				return []int32{c}
			}
		case rkBlock:
			return nil
		}
	}
	return nil
}

// function walks function node fn with its parameters bound to in (nil:
// nothing known), in a rowScope under up, and returns what it returns.
//
// An outermost function (up nil: a definition's code, a top-level
// function) is first scanned for the names it writes.
func (w *rowWalker) function(fn int32, in []*aval, up *rowScope) []*aval {
	if up == nil {
		w.writtenIn(fn)
	}
	sc := w.newScope(up)
	for k, p := range w.params(fn) {
		if p < 0 {
			continue
		}
		var v *aval
		if k < len(in) {
			v = in[k]
		}
		pat := p
		if w.k(p) == rkParam {
			pat = w.named(p, 0)
		}
		if pat >= 0 {
			w.bind(pat, v, sc)
		}
	}
	frame := &fnFrame{up: w.fn}
	w.fn = frame
	body := w.lastNamed(fn)
	if body >= 0 {
		if w.k(body) == rkBlock {
			w.eval(body, sc)
		} else {
			frame.returns = append(frame.returns, w.eval(body, sc))
		}
	}
	w.fn = frame.up
	return frame.returns
}

// bind binds pattern pat to v in sc, recording the columns a destructuring
// names on a row.
func (w *rowWalker) bind(pat int32, v *aval, sc *rowScope) {
	st := w.st
	switch w.k(pat) {
	case rkIdentifier:
		name := st.text(pat)
		if !w.assigned[name] {
			sc.set(name, v)
		} else {
			sc.set(name, nil)
		}
	case rkAssignPattern:
		if l := w.named(pat, 0); l >= 0 {
			w.bind(l, v, sc)
		}
		if r := w.lastNamed(pat); r >= 0 && r != w.named(pat, 0) {
			w.eval(r, sc)
		}
	case rkObjectPattern:
		for c := st.nodes[pat].first; c >= 0; c = st.nodes[c].next {
			switch w.k(c) {
			case rkShorthandPattern:
				w.bindKey(c, st.text(c), st.span(c), v, c, sc)
			case rkObjectAssignPattern:
				if id := w.named(c, 0); id >= 0 {
					w.bindKey(id, st.text(id), st.span(id), v, id, sc)
				}
				if d := w.lastNamed(c); d >= 0 && d != w.named(c, 0) {
					w.eval(d, sc)
				}
			case rkPairPattern:
				key, val := w.named(c, 0), w.lastNamed(c)
				if key < 0 || val < 0 || key == val {
					continue
				}
				name, sp, ok := w.keyName(key)
				if !ok {
					w.bind(val, nil, sc)
					continue
				}
				w.bindKey(key, name, sp, v, val, sc)
			case rkRest:
				if id := w.named(c, 0); id >= 0 {
					w.bind(id, nil, sc)
				}
			}
		}
	case rkArrayPattern:
		e := v.elem()
		if v != nil && !v.listish() {
			e = nil
		}
		for c := st.nodes[pat].first; c >= 0; c = st.nodes[c].next {
			if !st.nodes[c].named || w.k(c) == rkComment {
				continue
			}
			if w.k(c) == rkRest {
				if id := w.named(c, 0); id >= 0 {
					w.bind(id, nil, sc)
				}
				continue
			}
			w.bind(c, e, sc)
		}
	default:
		w.eval(pat, sc)
	}
}

// bindKey binds the key name of an object pattern (written at key) on v:
// a field of an object v, or a column of a row v; target is the pattern
// the key's value goes to (the key itself for a shorthand).
func (w *rowWalker) bindKey(key int32, name string, sp Span, v *aval, target int32, sc *rowScope) {
	var field *aval
	switch {
	case v == nil:
	case v.fields != nil:
		field = v.fields[name]
	case v.rowish():
		how := RowDestructure
		if target == key {
			how = RowShorthand
		}
		w.use(v.o, name, sp, w.st.span(key), how)
	}
	if target == key {
		if !w.assigned[name] {
			sc.set(name, field)
		}
		return
	}
	w.bind(target, field, sc)
}

// keyName is the name a key node gives (an identifier or a plain string).
func (w *rowWalker) keyName(key int32) (string, Span, bool) {
	switch w.k(key) {
	case rkPropertyIdentifier, rkShorthandPattern, rkIdentifier:
		return w.st.text(key), w.st.span(key), true
	case rkString:
		v, sp, ok := w.st.stringValue(key)
		return v, sp, ok && v != ""
	}
	return "", Span{}, false
}

// use records a column named on a value of origin o.
func (w *rowWalker) use(o RowOrigin, name string, sp, lit Span, how RowHow) {
	if rowNotColumns[name] || o.Via == "user" && name == "system" {
		// ctx.user.system asks whether the run is the system's.
		return
	}
	w.flow.Uses = append(w.flow.Uses, RowUse{Def: w.def, Of: o, Column: NameRef{Name: name, Span: sp, Lit: lit}, How: how})
}

// named returns the n-th named child of i (comments left out), or -1.
func (w *rowWalker) named(i int32, n int) int32 {
	st := w.st
	for c := st.nodes[i].first; c >= 0; c = st.nodes[c].next {
		if !st.nodes[c].named || w.k(c) == rkComment {
			continue
		}
		if n == 0 {
			return c
		}
		n--
	}
	return -1
}

// lastNamed returns the last named child of i (comments left out), or -1.
func (w *rowWalker) lastNamed(i int32) int32 {
	st := w.st
	l := int32(-1)
	for c := st.nodes[i].first; c >= 0; c = st.nodes[c].next {
		if st.nodes[c].named && w.k(c) != rkComment {
			l = c
		}
	}
	return l
}

// childOf returns the first child of i of kind k, or -1.
func (w *rowWalker) childOf(i int32, k rk) int32 {
	for c := w.st.nodes[i].first; c >= 0; c = w.st.nodes[c].next {
		if w.k(c) == k {
			return c
		}
	}
	return -1
}

// children evaluates every named child of i.
func (w *rowWalker) children(i int32, sc *rowScope) {
	st := w.st
	for c := st.nodes[i].first; c >= 0; c = st.nodes[c].next {
		if st.nodes[c].named {
			w.eval(c, sc)
		}
	}
}

// eval walks node i in rowScope sc and returns what is known of its value.
func (w *rowWalker) eval(i int32, sc *rowScope) *aval {
	st := w.st
	switch w.k(i) {
	case rkComment, rkTypeAnnotation, rkNumber, rkString, rkPropertyIdentifier:
		return nil
	case rkIdentifier:
		name := st.bytes(i)
		if v, ok := sc.lookup(name); ok {
			return v
		}
		if b := w.binding(name); b != "" {
			w.escapes = setIn(w.escapes, b, true)
		}
		return nil
	case rkAwait, rkParen, rkNonNull, rkAs:
		var v *aval
		first := true
		for c := st.nodes[i].first; c >= 0; c = st.nodes[c].next {
			if !st.nodes[c].named || w.k(c) == rkComment {
				continue
			}
			if first {
				v, first = w.eval(c, sc), false
			}
		}
		return v
	case rkBlock:
		w.block(i, w.newScope(sc))
		return nil
	case rkLexical:
		for d := st.nodes[i].first; d >= 0; d = st.nodes[d].next {
			if w.k(d) != rkDeclarator {
				continue
			}
			name, val := w.named(d, 0), w.lastNamed(d)
			if name < 0 {
				continue
			}
			var v *aval
			if val != name && w.k(val) != rkTypeAnnotation {
				v = w.eval(val, sc)
			}
			w.bind(name, v, sc)
		}
		return nil
	case rkForIn:
		return w.forIn(i, sc)
	case rkReturn:
		var v *aval
		if e := w.named(i, 0); e >= 0 {
			v = w.eval(e, sc)
		}
		if w.fn != nil {
			w.fn.returns = append(w.fn.returns, v)
		}
		return nil
	case rkArrow, rkFunction:
		w.function(i, nil, sc)
		return nil
	case rkFuncDecl:
		if w.fn != nil { // a nested function declaration
			w.function(i, nil, sc)
		}
		return nil
	case rkObject:
		return w.object(i, sc)
	case rkMember:
		return w.member(i, sc)
	case rkSubscript:
		return w.subscript(i, sc)
	case rkCall:
		return w.call(i, sc)
	case rkJSXSelf, rkJSXOpen:
		w.jsx(i, sc)
		return nil
	}
	w.children(i, sc)
	return nil
}

// block walks the statements of a block in sc.
func (w *rowWalker) block(i int32, sc *rowScope) {
	w.children(i, sc)
}

// forIn walks `for (const x of list)`: x is an element of list.
func (w *rowWalker) forIn(i int32, sc *rowScope) *aval {
	st := w.st
	inner := w.newScope(sc)
	left, right, body := int32(-1), int32(-1), w.lastNamed(i)
	of := false
	for c := st.nodes[i].first; c >= 0; c = st.nodes[c].next {
		if !st.nodes[c].named {
			if t := st.text(c); t == "of" || t == "in" {
				of = t == "of"
			}
			continue
		}
		if w.k(c) == rkComment {
			continue
		}
		if left < 0 {
			left = c
		} else if right < 0 {
			right = c
		}
	}
	var e *aval
	if right >= 0 && right != body {
		v := w.eval(right, sc)
		if of && v.listish() {
			e = v.elem()
		}
	}
	if left >= 0 && left != body {
		w.bind(left, e, inner)
	}
	if body >= 0 {
		w.eval(body, inner)
	}
	return nil
}

// object evaluates an object literal: its fields where every key is plain.
func (w *rowWalker) object(i int32, sc *rowScope) *aval {
	st := w.st
	var fields map[string]*aval
	plain := true
	for c := st.nodes[i].first; c >= 0; c = st.nodes[c].next {
		switch w.k(c) {
		case rkPair:
			key, val := w.named(c, 0), w.lastNamed(c)
			v := (*aval)(nil)
			if val >= 0 && val != key {
				v = w.eval(val, sc)
			}
			if key >= 0 && w.plainKey(key) {
				if v != nil {
					name, _, _ := w.keyName(key)
					fields = fieldsWith(fields, name, v)
				}
			} else {
				plain = false
				if key >= 0 {
					w.eval(key, sc)
				}
			}
		case rkShorthand:
			name := st.bytes(c)
			v, bound := sc.lookup(name)
			if b := w.binding(name); !bound && b != "" {
				w.escapes = setIn(w.escapes, b, true)
			}
			if v != nil {
				fields = fieldsWith(fields, st.str(name), v)
			}
		case rkSpread:
			plain = false
			w.children(c, sc)
		default:
			if st.nodes[c].named {
				plain = false
				w.eval(c, sc)
			}
		}
	}
	if !plain {
		return nil
	}
	if fields == nil {
		return plainObject
	}
	return w.newAval(aval{fields: fields})
}

// plainObject is an object literal none of whose fields is known: one
// value for them all, only read, never written.
var plainObject = &aval{fields: map[string]*aval{}}

// fieldsWith is fields with name set to v, made where nil.
func fieldsWith(fields map[string]*aval, name string, v *aval) map[string]*aval {
	if fields == nil {
		fields = map[string]*aval{}
	}
	fields[name] = v
	return fields
}

// plainKey reports whether key gives a name (keyName), making no string.
func (w *rowWalker) plainKey(key int32) bool {
	switch w.k(key) {
	case rkPropertyIdentifier, rkShorthandPattern, rkIdentifier:
		return true
	case rkString:
		v, _, ok := w.st.stringValue(key)
		return ok && v != ""
	}
	return false
}

// member evaluates `obj.name`: a field of an object, a column of a row.
func (w *rowWalker) member(i int32, sc *rowScope) *aval {
	st := w.st
	obj, prop := w.named(i, 0), w.lastNamed(i)
	if obj < 0 || prop < 0 || obj == prop {
		w.children(i, sc)
		return nil
	}
	v := w.eval(obj, sc)
	if w.k(prop) != rkPropertyIdentifier || v == nil {
		return nil
	}
	name := st.bytes(prop)
	if v.fields != nil {
		return v.fields[string(name)]
	}
	if v.o.isCtx() {
		if string(name) == "user" {
			return v.via("user")
		}
		return nil
	}
	if v.rowish() && !(v.listish() && listMethod(name)) {
		w.use(v.o, st.str(name), st.span(prop), st.span(prop), RowMember)
	}
	if string(name) == "user" && v.ctxish() {
		// A parameter's user: a row of users where the parameter is a ctx.
		return v.via("user")
	}
	return nil
}

// subscript evaluates `obj[k]`: an element of a list by a number, a
// column of a row by a plain string.
func (w *rowWalker) subscript(i int32, sc *rowScope) *aval {
	st := w.st
	obj := w.named(i, 0)
	idx := w.named(i, 1)
	if obj < 0 || idx < 0 {
		w.children(i, sc)
		return nil
	}
	v := w.eval(obj, sc)
	switch w.k(idx) {
	case rkNumber:
		if v.listish() {
			return v.elem()
		}
		return nil
	case rkString:
		name, sp, ok := st.stringValue(idx)
		if !ok || v == nil {
			return nil
		}
		if v.fields != nil {
			return v.fields[name]
		}
		if v.rowish() && !v.listish() {
			w.use(v.o, name, sp, st.span(idx), RowMember)
		}
		return nil
	}
	w.eval(idx, sc)
	if v.listish() && (v.o.Table != "" || v.items != nil) {
		return v.elem()
	}
	return nil
}

// listMethod reports whether name is length or a list method the row flow
// knows.
func listMethod(name []byte) bool {
	n := string(name)
	return n == "length" || rowListKeep[n] || rowListElem[n] || rowListCallback[n]
}

// binding is the project function an identifier (its bytes) names where
// the rowScope does not bind it: an import of a relative module, or a
// top-level function of the file; "" for anything else.
func (w *rowWalker) binding(name []byte) string {
	if b, ok := w.bindings[string(name)]; ok {
		return b
	}
	b := ""
	if im := w.imports[string(name)]; im != nil {
		if im.Imported != "*" {
			b = im.Module + "#" + im.Imported
		}
	} else if w.funcs[string(name)] {
		b = "#" + string(name)
	} else {
		return ""
	}
	w.bindings = setIn(w.bindings, w.st.str(name), b)
	return b
}

// setIn sets k to v in m, made where nil, and returns m.
func setIn[V any](m map[string]V, k string, v V) map[string]V {
	if m == nil {
		m = map[string]V{}
	}
	m[k] = v
	return m
}

// dbCall matches `<expr>.db.T.m` at callee fn: the table and method.
func (w *rowWalker) dbCall(fn int32) (table, method string, ok bool) {
	st := w.st
	if w.k(fn) != rkMember {
		return "", "", false
	}
	acc, m := w.named(fn, 0), w.lastNamed(fn)
	if acc < 0 || m < 0 || w.k(m) != rkPropertyIdentifier || !dbMethods[string(st.bytes(m))] {
		return "", "", false
	}
	switch w.k(acc) {
	case rkMember:
		db, t := w.named(acc, 0), w.lastNamed(acc)
		if db < 0 || t < 0 || w.k(t) != rkPropertyIdentifier || w.k(db) != rkMember {
			return "", "", false
		}
		if p := w.lastNamed(db); p < 0 || w.k(p) != rkPropertyIdentifier || !st.is(p, "db") {
			return "", "", false
		}
		return st.text(t), st.text(m), true
	case rkSubscript:
		db, t := w.named(acc, 0), w.named(acc, 1)
		if db < 0 || t < 0 || w.k(db) != rkMember || w.k(t) != rkString {
			return "", "", false
		}
		if p := w.lastNamed(db); p < 0 || w.k(p) != rkPropertyIdentifier || !st.is(p, "db") {
			return "", "", false
		}
		v, _, ok := st.stringValue(t)
		return v, st.text(m), ok && Identifier(v)
	}
	return "", "", false
}

// args returns the argument nodes of call c.
//
// The list is cut from the walker's argument stack (w.argStack), which
// the caller gives back with dropArgs once done with it: calls nest, so
// a call's arguments stand above its caller's.
func (w *rowWalker) args(c int32) []int32 {
	st := w.st
	a := w.childOf(c, rkArguments)
	if a < 0 {
		return nil
	}
	base := len(w.argStack)
	for x := st.nodes[a].first; x >= 0; x = st.nodes[x].next {
		if st.nodes[x].named && w.k(x) != rkComment {
			w.argStack = append(w.argStack, x)
		}
	}
	return w.argStack[base:len(w.argStack):len(w.argStack)]
}

// dropArgs gives back the arguments args took from the stack.
func (w *rowWalker) dropArgs(args []int32) {
	w.argStack = w.argStack[:len(w.argStack)-len(args)]
}

// call evaluates a call: a ctx.db method, a list method on rows, a call of
// a project function.
func (w *rowWalker) call(c int32, sc *rowScope) *aval {
	st := w.st
	fn := w.named(c, 0)
	if fn < 0 {
		w.children(c, sc)
		return nil
	}
	args := w.args(c)
	defer w.dropArgs(args)
	if table, method, ok := w.dbCall(fn); ok {
		w.eval(fn, sc)
		vals := make([]*aval, len(args))
		for k, a := range args {
			vals[k] = w.eval(a, sc)
		}
		// The options of all and where: order names a column.
		opt := -1
		switch method {
		case "all":
			opt = 0
		case "where":
			opt = 1
		}
		if opt >= 0 && opt < len(args) && w.k(args[opt]) == rkObject {
			w.orderOption(args[opt], table)
		}
		// An object built elsewhere and passed as the row, patch or match.
		if k, ok := dbKeyArg[method]; ok && k < len(vals) && w.k(args[k]) != rkObject && vals[k] != nil && vals[k].fields != nil {
			w.objectKeys(args[k], table, sc)
		}
		switch method {
		case "get", "insert", "update":
			return w.newAval(aval{o: RowOrigin{Table: table}})
		case "where", "all":
			return w.newAval(aval{o: RowOrigin{Table: table, List: true}})
		}
		return nil
	}
	switch w.k(fn) {
	case rkMember:
		obj, prop := w.named(fn, 0), w.lastNamed(fn)
		if obj >= 0 && prop >= 0 && obj != prop && w.k(prop) == rkPropertyIdentifier {
			nb := st.bytes(prop)
			// ns.helper(...)
			if w.k(obj) == rkIdentifier {
				if _, bound := sc.lookup(st.bytes(obj)); !bound {
					if im := w.imports[string(st.bytes(obj))]; im != nil && im.Imported == "*" {
						return w.projectCall(im.Module+"#"+string(nb), args, sc)
					}
				}
			}
			// Promise.all(list) is the list, awaited.
			if string(nb) == "all" && w.k(obj) == rkIdentifier && st.is(obj, "Promise") && len(args) == 1 {
				if _, bound := sc.lookup(st.bytes(obj)); !bound {
					if v := w.eval(args[0], sc); v.listish() {
						return v
					}
					return nil
				}
			}
			v := w.eval(obj, sc)
			// ctx.call('N', input): what N's run returns.
			if string(nb) == "call" && v.ctxish() && len(args) > 0 {
				for _, a := range args[1:] {
					w.eval(a, sc)
				}
				if callee, _, ok := st.stringValue(args[0]); ok && Identifier(callee) {
					return v.via("call:" + callee)
				}
				w.eval(args[0], sc)
				return nil
			}
			// A list of rows, or any value's map: an app has no library
			// whose map is not Array's, so its result holds what the
			// callback returns.
			if v.listish() && listMethod(nb) && string(nb) != "length" || v == nil && string(nb) == "map" {
				return w.listCall(v, string(nb), args, sc)
			}
			if v != nil && v.fields == nil && v.rowish() && !v.listish() {
				w.use(v.o, string(nb), st.span(prop), st.span(prop), RowMember)
			}
			for _, a := range args {
				w.eval(a, sc)
			}
			return nil
		}
	case rkIdentifier:
		name := st.bytes(fn)
		if _, bound := sc.lookup(name); !bound {
			if b := w.binding(name); b != "" {
				return w.projectCall(b, args, sc)
			}
		}
	}
	w.eval(fn, sc)
	for _, a := range args {
		w.eval(a, sc)
	}
	return nil
}

// listCall evaluates list method name of v, a list of rows (or an array
// map made), called with args: a callback gets the elements; map gives
// the array of what its callback returns.
func (w *rowWalker) listCall(v *aval, name string, args []int32, sc *rowScope) *aval {
	st := w.st
	e := v.elem()
	var out *aval
	for k, a := range args {
		var rets []*aval
		known := false
		switch w.k(a) {
		case rkArrow, rkFunction:
			if rowListCallback[name] && k == 0 {
				rets, known = w.function(a, []*aval{e}, sc), true
			} else {
				w.function(a, nil, sc)
			}
		case rkIdentifier:
			// A project function as the callback: called with an
			// element, its index and the list.
			if b := w.binding(st.bytes(a)); b != "" && rowListCallback[name] && k == 0 {
				if _, bound := sc.lookup(st.bytes(a)); !bound {
					call := RowCall{Callee: b, Args: make([]RowOrigin, 3)}
					if e != nil && e.fields == nil && e.items == nil {
						call.Args[0] = e.o
					}
					if v != nil && v.fields == nil && v.items == nil {
						call.Args[2] = v.o
					}
					w.flow.Calls = append(w.flow.Calls, call)
					rets, known = []*aval{{o: RowOrigin{Call: b}}}, true
					break
				}
			}
			w.eval(a, sc)
		default:
			w.eval(a, sc)
		}
		if name == "map" && k == 0 && known && len(rets) > 0 {
			r := rets[0]
			for _, x := range rets[1:] {
				if !same(r, x) {
					r = nil
				}
			}
			out = mapped(r)
		}
	}
	switch {
	case rowListKeep[name]:
		return v
	case rowListElem[name]:
		return e
	}
	return out
}

// projectCall records a call of the project function binding b.
func (w *rowWalker) projectCall(b string, args []int32, sc *rowScope) *aval {
	call := RowCall{Callee: b, Args: make([]RowOrigin, len(args))}
	for k, a := range args {
		if v := w.eval(a, sc); v != nil && v.fields == nil {
			call.Args[k] = v.o
		}
	}
	w.flow.Calls = append(w.flow.Calls, call)
	return w.newAval(aval{o: RowOrigin{Call: b}})
}

// orderOption records `order: 'c'` (or '-c') of an options object.
func (w *rowWalker) orderOption(obj int32, table string) {
	st := w.st
	for c := st.nodes[obj].first; c >= 0; c = st.nodes[c].next {
		if w.k(c) != rkPair {
			continue
		}
		key, val := w.named(c, 0), w.lastNamed(c)
		if name, _, ok := w.keyName(key); !ok || name != "order" || val < 0 || w.k(val) != rkString {
			continue
		}
		v, sp, ok := st.stringValue(val)
		if !ok {
			continue
		}
		if strings.HasPrefix(v, "-") {
			v, sp.Start = v[1:], sp.Start+1
		}
		if Identifier(v) {
			w.use(RowOrigin{Table: table}, v, sp, st.span(val), RowOrder)
		}
	}
}

// objectKeys records the keys of the object literal a variable passed to
// ctx.db.T.insert, update or where was bound to; the variable's node is
// arg. Only literals in the same function are found: the declarator of the
// name.
func (w *rowWalker) objectKeys(arg int32, table string, sc *rowScope) {
	st := w.st
	if w.k(arg) != rkIdentifier {
		return
	}
	name := st.text(arg)
	// The declarator `const name = { ... }` that binds it, before arg.
	for i := arg - 1; i >= 0; i-- {
		if w.k(i) != rkDeclarator {
			continue
		}
		id, val := w.named(i, 0), w.lastNamed(i)
		if id < 0 || w.k(id) != rkIdentifier || st.text(id) != name || val == id || w.k(val) != rkObject {
			continue
		}
		for c := st.nodes[val].first; c >= 0; c = st.nodes[c].next {
			switch w.k(c) {
			case rkShorthand:
				w.use(RowOrigin{Table: table}, st.text(c), st.span(c), st.span(c), RowPatchKey)
			case rkPair:
				if key := w.named(c, 0); key >= 0 {
					if n, sp, ok := w.keyName(key); ok {
						w.use(RowOrigin{Table: table}, n, sp, st.span(key), RowPatchKey)
					}
				}
			}
		}
		return
	}
}

// jsx walks an element's attributes: a tent/ui Table whose rows are a
// list of rows names columns of them in columns={[...]}.
func (w *rowWalker) jsx(i int32, sc *rowScope) {
	st := w.st
	var rows *aval
	var columns int32 = -1
	isTable := false
	if n := w.named(i, 0); n >= 0 && w.k(n) == rkIdentifier && w.uiTable != "" && st.is(n, w.uiTable) {
		isTable = true
	}
	for c := st.nodes[i].first; c >= 0; c = st.nodes[c].next {
		if w.k(c) != rkJSXAttr {
			if st.nodes[c].named && w.k(c) != rkIdentifier {
				w.eval(c, sc)
			}
			continue
		}
		key, val := w.named(c, 0), w.lastNamed(c)
		if val < 0 || val == key {
			continue
		}
		var v *aval
		expr := val
		if w.k(val) == rkJSXExpr {
			expr = w.named(val, 0)
		}
		if expr >= 0 {
			if isTable && st.is(key, "columns") && w.k(expr) == rkArray {
				columns = expr
			}
			v = w.eval(expr, sc)
		}
		if isTable && key >= 0 && st.is(key, "rows") {
			rows = v
		}
	}
	if !isTable || columns < 0 || !rows.listish() {
		return
	}
	e := rows.elem()
	if e == nil || !e.o.Known() || e.fields != nil {
		return
	}
	for c := st.nodes[columns].first; c >= 0; c = st.nodes[c].next {
		if w.k(c) != rkString {
			continue
		}
		if v, sp, ok := st.stringValue(c); ok && Identifier(v) {
			w.use(e.o, v, sp, st.span(c), RowColumns)
		}
	}
}
