package change

import (
	"bytes"
	"strings"
)

// RemoveStatement returns the edit that drops a top-level statement the
// way a person would: with its semicolon, its trailing comment, the comment
// lines directly above it (its doc comment) and its line end; and where
// that leaves two blank lines together (or a blank line at the end of the
// file), one of them too.
func RemoveStatement(src []byte, stmt Span) Edit {
	start, end := stmt.Start, stmt.End
	if ls := LineStart(src, start); Blank(src, ls, start) {
		start = attachedComments(src, ls)
	}
	i := SkipSpace(src, end)
	if i < len(src) && src[i] == ';' {
		end = i + 1
		i = SkipSpace(src, end)
	}
	if i+1 < len(src) && src[i] == '/' && src[i+1] == '/' {
		i = LineEnd(src, i)
	}
	if i == len(src) || LineEnd(src, i) == i {
		end = NextLine(src, i)
	} else if start == stmt.Start {
		end = SkipSpace(src, end) // `a; b; c` gives `a; c`
	}
	if start == LineStart(src, start) && end == LineStart(src, end) {
		blankBefore := start == 0 || BlankLine(src, start-1)
		switch {
		case end < len(src) && blankBefore && BlankLine(src, end):
			end = NextLine(src, end)
		case end == len(src) && start > 0 && BlankLine(src, start-1):
			start = LineStart(src, start-1)
		}
	}
	return Edit{Start: start, End: end}
}

// attachedComments returns where the comment lines directly above the line
// starting at ls begin (ls where there are none): line comments, and block
// comments that start a line of their own.
func attachedComments(src []byte, ls int) int {
	for ls > 0 {
		prev := LineStart(src, ls-1)
		line := strings.TrimSpace(string(src[prev:LineEnd(src, prev)]))
		switch {
		case strings.HasPrefix(line, "//"):
			ls = prev
		case strings.HasSuffix(line, "*/"):
			open := bytes.LastIndex(src[:LineEnd(src, prev)], []byte("/*"))
			if open < 0 {
				return ls
			}
			start := LineStart(src, open)
			if !Blank(src, start, open) {
				return ls
			}
			ls = start
		default:
			return ls
		}
	}
	return ls
}
