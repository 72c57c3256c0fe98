package definitions

// This file derives the definitions of a file after a rename's edits from
// the definitions it had, without parsing it again. A rename replaces
// names with names: an identifier with another, the inside of a string
// literal with a name, and a few forms around an alias (an import's
// `x as y` written `y`, or `x` written `y as x`; an export's alias
// likewise; a shorthand `{ x }` written `{ x: y }`). None of them changes
// a definition's syntax, and none changes which names the file binds
// where the rename renames a binding with every reference to it, so the
// definitions are the old ones with their spans moved and the names at
// the edited spans replaced; the typed parts (Table, Fn, ...) are read
// again from the field tree, as a parse and the index cache read them
// (readTyped). Anything else (an insertion, a word TypeScript reads as
// its own, an edit of a builder's name or of an import of 'tent', a
// reference renamed apart from its binding) is not derived: the caller
// reads the file. TestRenamedDefinitionsAreAParse and
// TestRandomNameEditsDeriveAsParsed hold the derivation to a parse of
// the new text.

import (
	"bytes"
	"slices"
	"sort"
	"strings"
)

// TextEdit replaces the bytes [Start, End) of a file's text with Text.
type TextEdit struct {
	Start, End int
	Text       string
}

// RenamedDefinitions answers the definitions that src, f's text with
// edits applied (sorted, not overlapping), reads as, derived from f's own
// where the edits are a rename's (see the top of this file); ok is false
// where they cannot be derived, and the file must be read. f must be a
// TypeScript file without syntax errors (no T1xxx finding), whose new
// text then has none either. f's definitions are not changed; one that
// no edit moves (or a node of its field tree), it is shared, as a
// snapshot shares an unchanged file.
func (f *File) RenamedDefinitions(src []byte, edits []TextEdit) (defs []*Definition, ok bool) {
	return f.renamed(src, edits, false)
}

// RenamedStatements is RenamedDefinitions for a diff of the two versions
// of the file (defchange.Diff), with what a diff reads: a definition
// that no edit lies in is answered as its statement alone, its name,
// kind, builder, path and spans, without its field tree and typed part
// (nil): its text is the old one's, so the diff pairs it by name and
// finds it unchanged by its text. The others have their field trees, and
// of the typed parts a table's alone (its columns' names and was, which
// pair its columns). A planned rename of the hub table derives thousands
// of definitions, most of which only the edits before them move.
func (f *File) RenamedStatements(src []byte, edits []TextEdit) (defs []*Definition, ok bool) {
	return f.renamed(src, edits, true)
}

// renamed is RenamedDefinitions, or with statements RenamedStatements.
func (f *File) renamed(src []byte, edits []TextEdit, statements bool) (defs []*Definition, ok bool) {
	if (f.Lang != LangTS && f.Lang != LangTSX) || f.Src == nil || len(edits) == 0 {
		return nil, false
	}
	for _, fd := range f.Findings {
		if strings.HasPrefix(fd.Code, "T1") {
			return nil, false
		}
	}
	if !appliedAs(f.Src, src, edits) {
		return nil, false
	}
	s := &shifter{old: f.Src, src: src, edits: edits, kinds: make([]editKind, len(edits)), used: make([]bool, len(edits)), rebound: map[string]string{},
		statements: statements}
	if !s.classify(f) {
		return nil, false
	}
	defs = make([]*Definition, 0, len(f.Definitions))
	for _, d := range f.Definitions {
		nd, ok := s.definition(d)
		if !ok {
			return nil, false
		}
		defs = append(defs, nd)
	}
	if f.Definitions == nil {
		defs = nil
	}
	if !s.bindings(f) {
		return nil, false
	}
	return defs, true
}

// editKind is what one edit of a rename does.
type editKind uint8

const (
	// editName replaces a name with a name.
	editName editKind = iota + 1
	// editUnalias writes an import's `x as y` (or an export's) as `y`.
	editUnalias
	// editAlias writes an import's `x` as `y as x`.
	editAlias
	// editShorthand writes a shorthand `{ x }` as `{ x: y }`.
	editShorthand
)

// classify says what each edit does, where it is one of a rename's
// (editKind), and which top-level bindings the edits rename (rebound):
// an import's local name. A definition's name is found by definition.
func (s *shifter) classify(f *File) bool {
	for i, e := range s.edits {
		old := s.old[e.Start:e.End]
		sp := Span{e.Start, e.End}
		switch {
		case plainName(old) && plainName([]byte(e.Text)):
			if e.Start > 0 && IdentByte(s.old[e.Start-1]) || e.End < len(s.old) && IdentByte(s.old[e.End]) {
				return false // part of a longer word
			}
			s.kinds[i] = editName
		default:
			for _, imp := range f.Imports {
				switch {
				case imp.ImportedSpan != imp.LocalSpan && sp == Span{imp.ImportedSpan.Start, imp.LocalSpan.End} && e.Text == imp.Local:
					s.kinds[i] = editUnalias
				case imp.ImportedSpan == imp.LocalSpan && sp == imp.LocalSpan && plainName(old) &&
					strings.HasSuffix(e.Text, " as "+imp.Local) && plainName([]byte(strings.TrimSuffix(e.Text, " as "+imp.Local))):
					s.kinds[i] = editAlias
				default:
					continue
				}
				if imp.Module == moduleTent || imp.Module == moduleTentUI || !plainName([]byte(imp.Local)) {
					return false
				}
			}
			for _, ex := range f.Exports {
				if ex.ExportedSpan != ex.LocalSpan && sp == (Span{ex.LocalSpan.Start, ex.ExportedSpan.End}) && e.Text == ex.Exported && plainName([]byte(ex.Exported)) {
					s.kinds[i] = editUnalias
				}
			}
			for _, r := range f.IdentRefs() {
				if r.Shorthand && r.Span == sp && plainName(old) && strings.HasPrefix(e.Text, string(old)+": ") &&
					plainName([]byte(strings.TrimPrefix(e.Text, string(old)+": "))) {
					s.kinds[i] = editShorthand
				}
			}
			if s.kinds[i] == 0 {
				return false
			}
		}
	}
	for i, e := range s.edits {
		if s.kinds[i] != editName {
			continue
		}
		for _, imp := range f.Imports {
			if imp.LocalSpan == (Span{e.Start, e.End}) {
				s.rebound[imp.Local] = e.Text
			}
		}
	}
	return true
}

// bindings takes the edits that no definition's statement holds: each must
// be one whose meaning the index knows (a reference to a top-level
// binding, an import's name from a module other than 'tent', an export's
// name). A reference renamed must be one to a binding renamed to the same
// name, and a binding renamed must have every reference renamed with it:
// whether a call in a field tree is a builder's depends on which names
// the file binds. So must a binding's new name be one that no import,
// builder or call of the file names already.
func (s *shifter) bindings(f *File) bool {
	refs := f.IdentRefs()
	sorted := slices.IsSortedFunc(refs, func(a, b IdentRef) int { return a.Span.Start - b.Span.Start })
	for i, e := range s.edits {
		sp := Span{e.Start, e.End}
		to := s.to(i)
		if r, ok := refAt(refs, sorted, sp); ok {
			if s.rebound[r.Name] != to {
				return false
			}
			continue
		}
		if s.used[i] {
			continue
		}
		known := false
		for _, imp := range f.Imports {
			if imp.ImportedSpan == sp || imp.LocalSpan == sp || s.kinds[i] == editUnalias && sp.Start == imp.ImportedSpan.Start {
				if imp.Module == moduleTent || imp.Module == moduleTentUI {
					return false // which builders the file has
				}
				known = true
			}
		}
		for _, ex := range f.Exports {
			if ex.LocalSpan == sp || ex.ExportedSpan == sp || s.kinds[i] == editUnalias && sp.Start == ex.LocalSpan.Start {
				known = true
			}
		}
		if !known {
			return false
		}
	}
	if len(s.rebound) == 0 {
		return true
	}
	for _, r := range refs {
		if to, ok := s.rebound[r.Name]; ok {
			if i := s.exactly(r.Span); i < 0 || s.to(i) != to {
				return false
			}
		}
	}
	named := map[string]bool{}
	for _, imp := range f.Imports {
		named[imp.Local] = true
	}
	for _, d := range f.Definitions {
		named[d.Builder] = true
		callNames(d.Arg, named)
	}
	for _, to := range s.rebound {
		if named[to] {
			return false
		}
	}
	return true
}

// to is the name edit i writes: its text, or for a shorthand written
// out, the new name after the key.
func (s *shifter) to(i int) string {
	e := s.edits[i]
	if s.kinds[i] == editShorthand {
		return e.Text[e.End-e.Start+len(": "):]
	}
	return e.Text
}

// refAt answers the IdentRef at sp of refs (the last where two stand at
// one span), searched where refs are in source order (sorted), as a
// file's are.
func refAt(refs []IdentRef, sorted bool, sp Span) (IdentRef, bool) {
	i := 0
	if sorted {
		i = sort.Search(len(refs), func(i int) bool { return refs[i].Span.Start >= sp.Start })
	}
	var found IdentRef
	ok := false
	for ; i < len(refs) && (!sorted || refs[i].Span.Start == sp.Start); i++ {
		if refs[i].Span == sp {
			found, ok = refs[i], true
		}
	}
	return found, ok
}

// callNames adds the names of the calls of a field tree to named.
func callNames(v *Value, named map[string]bool) {
	if v == nil {
		return
	}
	if v.Kind == ValCall {
		named[v.Str] = true
	}
	for _, it := range v.Items {
		callNames(it, named)
	}
	for _, p := range v.Props {
		callNames(p.Value, named)
	}
}

// appliedAs reports whether src is old with the edits (sorted, not
// overlapping, none empty) applied.
func appliedAs(old, src []byte, edits []TextEdit) bool {
	size, last := len(old), 0
	for _, e := range edits {
		if e.Start < last || e.End <= e.Start || e.End > len(old) {
			return false
		}
		size += len(e.Text) - (e.End - e.Start)
		last = e.End
	}
	if size != len(src) {
		return false
	}
	at, pos := 0, 0
	for _, e := range edits {
		n := e.Start - at
		if !bytes.Equal(src[pos:pos+n], old[at:e.Start]) || string(src[pos+n:pos+n+len(e.Text)]) != e.Text {
			return false
		}
		pos += n + len(e.Text)
		at = e.End
	}
	return bytes.Equal(src[pos:], old[at:])
}

// plainName reports whether b is an ASCII name that stays a name in every
// position of TypeScript code: letters, digits and _ (no $, which starts
// a substitution in a template), not a digit first, and no word the
// grammar reads as its own (ownWords).
func plainName(b []byte) bool {
	if len(b) == 0 || b[0] >= '0' && b[0] <= '9' {
		return false
	}
	for _, c := range b {
		if !(c == '_' || c|0x20 >= 'a' && c|0x20 <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return !ownWords[string(b)]
}

// ownWords are the words the TypeScript grammar reads as its own in some
// position (reserved words, contextual keywords, the predefined types,
// `undefined`): an identifier renamed to or from one may be read another
// way.
var ownWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
		break case catch class const continue debugger default delete do else enum export extends
		false finally for function if import in instanceof new null return super switch this throw
		true try typeof var void while with yield let static implements interface package private
		protected public await arguments eval
		abstract accessor any as asserts assert async bigint boolean constructor declare from get
		global infer intrinsic is keyof module namespace never number object of out override readonly
		require satisfies set string symbol type undefined unique unknown using target meta`) {
		m[w] = true
	}
	return m
}()

// shifter moves the spans of a file's definitions through a rename's
// edits and replaces the names at the edited spans.
type shifter struct {
	old, src []byte
	edits    []TextEdit
	// used marks the edits that a definition's reading took account of
	// (a name, a key or a string replaced, or a code span that holds
	// it); an edit inside a definition's statement that none took is one
	// whose meaning is not known here (a builder's name): not derived.
	used []bool
	// kinds says what each edit does (classify).
	kinds []editKind
	// rebound maps the top-level bindings renamed to their new names.
	rebound map[string]string
	// statements answers a definition no edit lies in as its statement
	// alone (RenamedStatements).
	statements bool
	// The nodes of the field trees being derived, taken from slabs made
	// once a definition (reserve), not one allocation a node.
	vals  []Value
	props []Prop
	vptrs []*Value
	pptrs []*Prop
}

// reserve makes the slabs for the field tree v.
func (s *shifter) reserve(v *Value) {
	var nv, np, nvp, npp int
	var count func(v *Value)
	count = func(v *Value) {
		if s.unmoved(v.Span) {
			return // shared (value)
		}
		nv++
		nvp += len(v.Items)
		npp += len(v.Props)
		for _, it := range v.Items {
			count(it)
		}
		for _, p := range v.Props {
			if s.unmoved(p.Span) {
				continue // shared (prop)
			}
			np++
			if p.Value != nil {
				count(p.Value)
			}
		}
	}
	count(v)
	s.vals, s.props = make([]Value, nv), make([]Prop, np)
	s.vptrs, s.pptrs = make([]*Value, nvp), make([]*Prop, npp)
}

// newValue takes a node from the slab.
func (s *shifter) newValue() *Value {
	v := &s.vals[0]
	s.vals = s.vals[1:]
	return v
}

// unmoved reports whether a span ends at or before the first edit: what
// it holds is at the same offsets in the new text and reads the same, so
// a node of a field tree there is shared with the old tree, not copied.
func (s *shifter) unmoved(sp Span) bool {
	return sp.End <= s.edits[0].Start && sp.Start <= sp.End
}

// at maps an offset of the old text to the new one; ok is false for an
// offset strictly inside an edit.
func (s *shifter) at(off int) (int, bool) {
	i := sort.Search(len(s.edits), func(i int) bool { return s.edits[i].End > off })
	delta := 0
	for _, e := range s.edits[:i] {
		delta += len(e.Text) - (e.End - e.Start)
	}
	if i < len(s.edits) && s.edits[i].Start < off {
		return 0, false
	}
	return off + delta, true
}

// span maps a span.
func (s *shifter) span(sp Span) (Span, bool) {
	a, ok1 := s.at(sp.Start)
	b, ok2 := s.at(sp.End)
	return Span{a, b}, ok1 && ok2
}

// within lists the indices of the edits inside sp (which holds each whole).
func (s *shifter) within(sp Span) []int {
	i := sort.Search(len(s.edits), func(i int) bool { return s.edits[i].End > sp.Start })
	var out []int
	for ; i < len(s.edits) && s.edits[i].Start < sp.End; i++ {
		out = append(out, i)
	}
	return out
}

// exactly answers the edit whose span is sp, or -1.
func (s *shifter) exactly(sp Span) int {
	i := sort.Search(len(s.edits), func(i int) bool { return s.edits[i].End > sp.Start })
	if i < len(s.edits) && s.edits[i].Start == sp.Start && s.edits[i].End == sp.End {
		return i
	}
	return -1
}

// definition derives one definition.
func (s *shifter) definition(d *Definition) (*Definition, bool) {
	nd := &Definition{Name: d.Name, Kind: d.Kind, Builder: d.Builder, Path: d.Path}
	var ok bool
	if nd.Stmt, ok = s.span(d.Stmt); !ok {
		return nil, false
	}
	if nd.NameSpan, ok = s.span(d.NameSpan); !ok {
		return nil, false
	}
	inStmt := s.within(d.Stmt)
	if len(inStmt) == 0 && nd.Stmt == d.Stmt {
		// Nothing in it changed and nothing before it moved it: the
		// definition itself, shared as a snapshot shares a file.
		return d, true
	}
	if len(inStmt) == 0 && s.statements {
		return nd, true
	}
	if d.Arg != nil {
		s.reserve(d.Arg)
	}
	if len(inStmt) == 0 {
		// Nothing in it changed: the same tree, its spans moved.
		if d.Arg != nil {
			if nd.Arg, ok = s.value(d.Arg); !ok {
				return nil, false
			}
		}
		s.typed(nd)
		return nd, true
	}
	if d.NameSpan.End > d.NameSpan.Start {
		if i := s.exactly(d.NameSpan); i >= 0 {
			if d.Name != string(s.old[d.NameSpan.Start:d.NameSpan.End]) || s.kinds[i] != editName {
				return nil, false
			}
			nd.Name, s.used[i] = s.edits[i].Text, true
			s.rebound[d.Name] = nd.Name
		}
	}
	if d.Arg != nil {
		if nd.Arg, ok = s.value(d.Arg); !ok {
			return nil, false
		}
	}
	for _, i := range inStmt {
		if !s.used[i] {
			return nil, false // outside the argument and the name: a builder's name, a type
		}
	}
	s.typed(nd)
	return nd, true
}

// typed reads a derived definition's typed part from its field tree, as
// a parse does; for a diff (statements) only a table's, the one part a
// diff reads (its columns' names and was).
func (s *shifter) typed(nd *Definition) {
	if !s.statements || nd.Kind == KindTable {
		readTyped(nd)
	}
}

// value derives one node of a field tree and what it holds.
func (s *shifter) value(v *Value) (*Value, bool) {
	if s.unmoved(v.Span) {
		return v, true
	}
	nv := s.newValue()
	*nv = Value{Kind: v.Kind, Str: v.Str, Num: v.Num, Bool: v.Bool}
	var ok bool
	if nv.Span, ok = s.span(v.Span); !ok {
		return nil, false
	}
	in := s.within(v.Span)
	switch v.Kind {
	case ValCode, ValUnreadable, ValNumber:
		// Read as written (the text at the span), whatever names it holds.
		for _, i := range in {
			s.used[i] = true
		}
	case ValString:
		if len(in) > 0 {
			inner := Span{v.Span.Start + 1, v.Span.End - 1}
			if inner.End < inner.Start || string(s.old[inner.Start:inner.End]) != v.Str {
				return nil, false // escapes, or no literal's quotes around
			}
			for _, i := range in {
				if s.edits[i].Start < inner.Start || s.edits[i].End > inner.End || s.kinds[i] != editName {
					return nil, false
				}
				s.used[i] = true
			}
			ni, _ := s.span(inner)
			nv.Str = string(s.src[ni.Start:ni.End])
		}
	}
	if v.Items != nil {
		nv.Items, s.vptrs = s.vptrs[:len(v.Items):len(v.Items)], s.vptrs[len(v.Items):]
		for i, it := range v.Items {
			if nv.Items[i], ok = s.value(it); !ok {
				return nil, false
			}
		}
	}
	if v.Props != nil {
		nv.Props, s.pptrs = s.pptrs[:len(v.Props):len(v.Props)], s.pptrs[len(v.Props):]
		for i, p := range v.Props {
			if nv.Props[i], ok = s.prop(p); !ok {
				return nil, false
			}
		}
	}
	return nv, true
}

// prop derives one property of an object literal.
func (s *shifter) prop(p *Prop) (*Prop, bool) {
	if s.unmoved(p.Span) {
		return p, true
	}
	np := &s.props[0]
	s.props = s.props[1:]
	*np = Prop{Key: p.Key, Shorthand: p.Shorthand}
	var ok bool
	if np.KeySpan, ok = s.span(p.KeySpan); !ok {
		return nil, false
	}
	if np.Span, ok = s.span(p.Span); !ok {
		return nil, false
	}
	in := s.within(p.KeySpan)
	if len(in) > 0 && p.Shorthand {
		return nil, false // `{ orders }`: its key is the name it reads
	}
	if len(in) > 0 && p.Key != "" {
		// A key written as a name, or as a string without escapes.
		ks, key := p.KeySpan, string(s.old[p.KeySpan.Start:p.KeySpan.End])
		if key != p.Key {
			ks = Span{ks.Start + 1, ks.End - 1}
			if ks.End < ks.Start || string(s.old[ks.Start:ks.End]) != p.Key || !quote(s.old[p.KeySpan.Start]) {
				return nil, false
			}
		}
		for _, i := range in {
			if s.edits[i].Start < ks.Start || s.edits[i].End > ks.End || s.kinds[i] != editName {
				return nil, false
			}
			s.used[i] = true
		}
		nk, _ := s.span(ks)
		np.Key = string(s.src[nk.Start:nk.End])
	}
	if p.Value != nil {
		if np.Value, ok = s.value(p.Value); !ok {
			return nil, false
		}
	}
	return np, true
}

// quote reports whether c opens a string literal.
func quote(c byte) bool { return c == '\'' || c == '"' || c == '`' }
