package change

import (
	"bytes"
	"fmt"
	"sort"
	"unicode/utf8"
)

// Span is a byte range [Start, End) in one file's text. It has the fields
// of definitions.Span, so one converts to the other with a plain conversion.
type Span struct {
	Start int
	End   int
}

// Edit replaces the bytes [Start, End) of a file's text with Text. An
// insertion has Start == End; a deletion has an empty Text.
type Edit struct {
	Start int
	End   int
	Text  string
	// Stated marks an edit that states a removal (a name added to a
	// `removed` list), so that an answer can say where it was stated.
	Stated bool
}

// Apply returns src with edits applied. Edits are given in any order; they
// are sorted, identical duplicates dropped, and then validated (see
// Validate). Apply never changes src.
func Apply(src []byte, edits []Edit) ([]byte, error) {
	edits = Normalize(edits)
	if err := Validate(src, edits); err != nil {
		return nil, err
	}
	size := len(src)
	for _, e := range edits {
		size += len(e.Text) - (e.End - e.Start)
	}
	out := make([]byte, 0, size)
	last := 0
	for _, e := range edits {
		out = append(out, src[last:e.Start]...)
		out = append(out, e.Text...)
		last = e.End
	}
	return append(out, src[last:]...), nil
}

// Normalize returns edits sorted by position (insertions at one offset
// keep their order) with identical duplicates dropped: two places that
// name one span (an unaliased export specifier is both its local and its
// exported name) then make one edit.
func Normalize(edits []Edit) []Edit {
	out := append([]Edit(nil), edits...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Start != out[j].Start {
			return out[i].Start < out[j].Start
		}
		return out[i].End < out[j].End
	})
	n := 0
	for i, e := range out {
		if i > 0 && e.Start == out[n-1].Start && e.End == out[n-1].End && e.Text == out[n-1].Text && e.Start != e.End {
			out[n-1].Stated = out[n-1].Stated || e.Stated
			continue
		}
		out[n] = e
		n++
	}
	return out[:n]
}

// Validate reports the first reason edits (sorted, as Normalize leaves
// them) cannot apply to src: a range outside the text or splitting a UTF-8
// character, two edits that overlap, or a text whose line ends differ from
// the file's (a CRLF file stays CRLF, an LF file gets no CR).
func Validate(src []byte, edits []Edit) error {
	return validate(src, edits, EOL(src))
}

// validate is Validate with the line end the texts must use.
func validate(src []byte, edits []Edit, eol string) error {
	prevEnd := -1
	for i, e := range edits {
		if e.Start < 0 || e.End < e.Start || e.End > len(src) {
			return fmt.Errorf("edit %d: range [%d, %d) is outside the text (%d bytes)", i, e.Start, e.End, len(src))
		}
		if !boundary(src, e.Start) || !boundary(src, e.End) {
			return fmt.Errorf("edit %d: range [%d, %d) splits a UTF-8 character", i, e.Start, e.End)
		}
		if e.Start < prevEnd {
			return fmt.Errorf("edit %d: range [%d, %d) overlaps the edit before it (ending at %d)", i, e.Start, e.End, prevEnd)
		}
		if !utf8.ValidString(e.Text) {
			return fmt.Errorf("edit %d: text is not UTF-8", i)
		}
		if err := checkLineEnds(e.Text, eol); err != nil {
			return fmt.Errorf("edit %d: %w", i, err)
		}
		prevEnd = e.End
	}
	return nil
}

// boundary reports whether off starts a UTF-8 character (or is the end).
func boundary(src []byte, off int) bool {
	return off == len(src) || utf8.RuneStart(src[off])
}

// checkLineEnds reports an error where text has a line end other than eol.
func checkLineEnds(text, eol string) error {
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\n':
			crlf := i > 0 && text[i-1] == '\r'
			if crlf != (eol == "\r\n") {
				return fmt.Errorf("text has a line end other than the file's (%q)", eol)
			}
		case '\r':
			if i+1 >= len(text) || text[i+1] != '\n' {
				return fmt.Errorf("text has a lone CR")
			}
		}
	}
	return nil
}

// MapOffset maps an offset of the text before edits (sorted, valid) to the
// text after them. ok is false where off lies strictly inside a replaced
// range, whose bytes are gone (it then maps to where that edit's text
// begins). An offset where an edit starts maps to before that edit's text.
func MapOffset(edits []Edit, off int) (mapped int, ok bool) {
	delta := 0
	for _, e := range edits {
		if e.Start >= off {
			break
		}
		if e.End > off {
			return e.Start + delta, false
		}
		delta += len(e.Text) - (e.End - e.Start)
	}
	return off + delta, true
}

// EOL is the line end a text uses: "\r\n" where its first line ends so,
// "\n" otherwise (also for a text of one line).
func EOL(src []byte) string {
	i := bytes.IndexByte(src, '\n')
	if i > 0 && src[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}
