package change

import "unicode/utf8"

// LineStart returns the offset where the line holding off begins.
func LineStart(src []byte, off int) int {
	for off > 0 && src[off-1] != '\n' {
		off--
	}
	return off
}

// LineEnd returns the offset of the line end (the CR of a CRLF, or the LF)
// of the line holding off, or len(src) on the last line.
func LineEnd(src []byte, off int) int {
	for off < len(src) && src[off] != '\n' {
		off++
	}
	if off > 0 && src[off-1] == '\r' {
		return off - 1
	}
	return off
}

// NextLine returns the offset where the line after the one holding off
// begins, or len(src) on the last line.
func NextLine(src []byte, off int) int {
	for off < len(src) && src[off] != '\n' {
		off++
	}
	if off < len(src) {
		off++
	}
	return off
}

// Indent returns the spaces and tabs that begin the line holding off.
func Indent(src []byte, off int) string {
	start := LineStart(src, off)
	end := start
	for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	return string(src[start:end])
}

// Blank reports whether src[from:to] holds only spaces and tabs.
func Blank(src []byte, from, to int) bool {
	for i := from; i < to; i++ {
		if src[i] != ' ' && src[i] != '\t' {
			return false
		}
	}
	return true
}

// BlankLine reports whether the line holding off holds only spaces and tabs
// (and its line end).
func BlankLine(src []byte, off int) bool {
	return Blank(src, LineStart(src, off), LineEnd(src, off))
}

// SkipSpace returns the first offset at or after off that is not a space
// or a tab.
func SkipSpace(src []byte, off int) int {
	for off < len(src) && (src[off] == ' ' || src[off] == '\t') {
		off++
	}
	return off
}

// Pos returns the 1-based line and column of off; the column counts code
// points, as the index's File.Pos does.
func Pos(src []byte, off int) (line, col int) {
	line = 1
	start := 0
	for i := 0; i < off && i < len(src); i++ {
		if src[i] == '\n' {
			line++
			start = i + 1
		}
	}
	return line, utf8.RuneCount(src[start:off]) + 1
}

// LineText returns the text of the line holding off, without its line end.
func LineText(src []byte, off int) string {
	return string(src[LineStart(src, off):LineEnd(src, off)])
}
