package lsp

import (
	"fmt"
	"sort"
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/tent-tools/tent-tools/definitions"
)

// Position encodings (LSP 3.17 positionEncoding): UTF-16 code units, the
// default every client understands, or UTF-8 bytes where the client offers
// it (cheaper: a byte offset needs no counting).
const (
	encUTF16 = "utf-16"
	encUTF8  = "utf-8"
)

// lines answers positions in one text: byte offsets to LSP positions and
// back, in the session's encoding.
type lines struct {
	src    []byte
	starts []int
	enc    string
}

func newLines(src []byte, enc string) *lines {
	return &lines{src: src, starts: definitions.LineStarts(src), enc: enc}
}

// position is the LSP position of a byte offset (clamped to the text).
func (l *lines) position(off int) protocol.Position {
	off = max(0, min(off, len(l.src)))
	line := sort.Search(len(l.starts), func(i int) bool { return l.starts[i] > off }) - 1
	start := l.starts[line]
	if l.enc == encUTF8 {
		return protocol.Position{Line: uint32(line), Character: uint32(off - start)}
	}
	return protocol.Position{Line: uint32(line), Character: uint32(utf16Len(l.src[start:off]))}
}

// span is the LSP range of a byte range.
func (l *lines) span(start, end int) protocol.Range {
	return protocol.Range{Start: l.position(start), End: l.position(end)}
}

// offset is the byte offset of an LSP position. A character past the end
// of its line stands at the line's end (as LSP says); a line past the end
// of the text is an error.
func (l *lines) offset(p protocol.Position) (int, error) {
	line := int(p.Line)
	if line >= len(l.starts) {
		if line == len(l.starts) && p.Character == 0 {
			return len(l.src), nil
		}
		return 0, fmt.Errorf("line %d is past the end of the text (%d lines)", line, len(l.starts))
	}
	start := l.starts[line]
	end := len(l.src)
	if line+1 < len(l.starts) {
		end = l.starts[line+1] - 1 // the \n
		if end > start && l.src[end-1] == '\r' {
			end--
		}
	}
	want := int(p.Character)
	if l.enc == encUTF8 {
		return min(start+want, end), nil
	}
	units := 0
	for i := start; i < end; {
		if units >= want {
			return i, nil
		}
		r, size := utf8.DecodeRune(l.src[i:end])
		units += utf16.RuneLen(r)
		if r == utf8.RuneError && size == 1 {
			units = units - utf16.RuneLen(r) + 1
		}
		i += size
	}
	return end, nil
}

// utf16Len counts the UTF-16 code units of a UTF-8 text.
func utf16Len(b []byte) int {
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			n++
		} else {
			n += utf16.RuneLen(r)
		}
		b = b[size:]
	}
	return n
}
