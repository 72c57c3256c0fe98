package definitions

// This file derives the definitions of a file after a rename's edits from
// the definitions it had, without parsing it again. A rename replaces
// names with names: an identifier with another, the inside of a string
// literal with a name. Such an edit leaves the file's syntax as it was
// (the same tree, its ranges moved), so its definitions are the old ones
// with their spans moved and the names at the edited spans replaced; the
// typed parts (Table, Fn, ...) are read again from the field tree, as a
// parse and the index cache read them (readTyped). Anything else (an
// insertion, an alias written, a name that TypeScript reads as a word of
// its own, an edit of a builder's name) is not derived: the caller reads
// the file. TestRenamedDefinitionsAreAParse holds the derivation to a
// parse of the new text.

import (
	"bytes"
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
// where every edit replaces a name with a name (see the top of this
// file); ok is false where they cannot be derived, and the file must be
// read. f must be a TypeScript file without syntax errors (no T1xxx
// finding), whose new text then has none either. The definitions are
// new: f's are not changed.
func (f *File) RenamedDefinitions(src []byte, edits []TextEdit) (defs []*Definition, ok bool) {
	if (f.Lang != LangTS && f.Lang != LangTSX) || f.Src == nil || len(edits) == 0 {
		return nil, false
	}
	for _, fd := range f.Findings {
		if strings.HasPrefix(fd.Code, "T1") {
			return nil, false
		}
	}
	if !nameEdits(f.Src, src, edits) {
		return nil, false
	}
	s := &shifter{old: f.Src, src: src, edits: edits, used: make([]bool, len(edits)), rebound: map[string]bool{}}
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
	if !s.outside(f) {
		return nil, false
	}
	return defs, true
}

// outside takes the edits that no definition's statement holds: each must
// replace a name the index knows the meaning of (a reference to a
// top-level binding, an import's name from a module other than 'tent',
// an export's name). Where a top-level binding is renamed (an import's
// local name, a definition's name), every reference to it must be too:
// whether a call in a field tree is a builder's depends on which names
// the file binds.
func (s *shifter) outside(f *File) bool {
	edited := make(map[Span]bool, len(s.edits))
	for i, e := range s.edits {
		edited[Span{e.Start, e.End}] = true
		if s.used[i] {
			continue
		}
		sp := Span{e.Start, e.End}
		known := false
		for _, r := range f.Refs {
			if r.Span == sp {
				known = true
				break
			}
		}
		for _, imp := range f.Imports {
			if imp.ImportedSpan != sp && imp.LocalSpan != sp {
				continue
			}
			if imp.Module == moduleTent || imp.Module == moduleTentUI {
				return false // which builders the file has
			}
			known = true
			if imp.LocalSpan == sp {
				s.rebound[imp.Local] = true
			}
		}
		for _, ex := range f.Exports {
			if ex.LocalSpan == sp || ex.ExportedSpan == sp {
				known = true
			}
		}
		if !known {
			return false
		}
	}
	for _, r := range f.Refs {
		if s.rebound[r.Name] && !edited[r.Span] {
			return false
		}
	}
	return true
}

// nameEdits reports whether each edit replaces a whole word of old that
// is a name with a name (ASCII letters, digits and _, not starting with a
// digit; no word TypeScript reads as one of its own), and whether src is
// old with the edits applied. A new name that old holds already as a word
// is refused too: a name bound at the top level decides whether a call is
// a builder's, and the new name may be one that was not bound before.
func nameEdits(old, src []byte, edits []TextEdit) bool {
	size, last := len(old), 0
	for _, e := range edits {
		if e.Start < last || e.End <= e.Start || e.End > len(old) {
			return false
		}
		if !plainName(old[e.Start:e.End]) || !plainName([]byte(e.Text)) {
			return false
		}
		if e.Start > 0 && IdentByte(old[e.Start-1]) || e.End < len(old) && IdentByte(old[e.End]) {
			return false // part of a longer word
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
	if !bytes.Equal(src[pos:], old[at:]) {
		return false
	}
	seen := map[string]bool{}
	for _, e := range edits {
		if !seen[e.Text] {
			seen[e.Text] = true
			if hasWord(old, e.Text) {
				return false
			}
		}
	}
	return true
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

// hasWord reports whether text holds w as a whole word.
func hasWord(text []byte, w string) bool {
	for i := 0; ; {
		j := bytes.Index(text[i:], []byte(w))
		if j < 0 {
			return false
		}
		at := i + j
		end := at + len(w)
		if (at == 0 || !IdentByte(text[at-1])) && (end == len(text) || !IdentByte(text[end])) {
			return true
		}
		i = at + 1
	}
}

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
	// rebound are the top-level bindings renamed (by their old names).
	rebound map[string]bool
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
	for _, i := range s.within(sp) {
		if s.edits[i].Start == sp.Start && s.edits[i].End == sp.End {
			return i
		}
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
	if len(inStmt) == 0 {
		// Nothing in it changed: the same tree, its spans moved.
		if d.Arg != nil {
			if nd.Arg, ok = s.value(d.Arg); !ok {
				return nil, false
			}
		}
		readTyped(nd)
		return nd, true
	}
	if d.NameSpan.End > d.NameSpan.Start {
		if i := s.exactly(d.NameSpan); i >= 0 {
			if d.Name != string(s.old[d.NameSpan.Start:d.NameSpan.End]) {
				return nil, false
			}
			nd.Name, s.used[i] = s.edits[i].Text, true
			s.rebound[d.Name] = true
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
	readTyped(nd)
	return nd, true
}

// value derives one node of a field tree and what it holds.
func (s *shifter) value(v *Value) (*Value, bool) {
	nv := &Value{Kind: v.Kind, Str: v.Str, Num: v.Num, Bool: v.Bool}
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
				if s.edits[i].Start < inner.Start || s.edits[i].End > inner.End {
					return nil, false
				}
				s.used[i] = true
			}
			ni, _ := s.span(inner)
			nv.Str = string(s.src[ni.Start:ni.End])
		}
	}
	if v.Items != nil {
		nv.Items = make([]*Value, len(v.Items))
		for i, it := range v.Items {
			if nv.Items[i], ok = s.value(it); !ok {
				return nil, false
			}
		}
	}
	if v.Props != nil {
		nv.Props = make([]*Prop, len(v.Props))
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
	np := &Prop{Key: p.Key, Shorthand: p.Shorthand}
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
			if s.edits[i].Start < ks.Start || s.edits[i].End > ks.End {
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
