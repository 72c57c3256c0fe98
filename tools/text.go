package tools

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/words"
	"github.com/tent-tools/tent-tools/internal/workspace"
)

// Size limits of the file tools.
const (
	// MaxText is the most a tool reads whole or writes: 1 MB.
	MaxText = workspace.MaxText
	// MaxFile is the largest file read at all (read by lines, edit, search).
	MaxFile = workspace.MaxFile
	// MaxInput is the most JSON input a tool takes: a write's 1 MB text,
	// even escaped (\u0000 is six bytes for one).
	MaxInput = 8 << 20
	// sniffLen is how far a file is looked into for a NUL byte, the sign of
	// a binary file (as git does).
	sniffLen = 8000
)

var bom = []byte("\xEF\xBB\xBF")

// checkText refuses a file that is not UTF-8 text, with T1003: one with a
// NUL byte near its start (binary), or with bytes that are not UTF-8.
func checkText(rel string, src []byte) error {
	if isBinary(src) {
		return diag.Errorf(diag.T1003, "%s is a binary file, not text; the file tools read and edit text only", rel).With("path", rel)
	}
	if !utf8.Valid(src) {
		line, _ := invalidUTF8At(src)
		return diag.Errorf(diag.T1003, "%s is not UTF-8 text (the first bad byte is on line %d)", rel, line).
			With("path", rel).With("line", line)
	}
	return nil
}

// invalidUTF8At returns the 1-based line of the first byte that is not UTF-8.
func invalidUTF8At(src []byte) (line, offset int) {
	line = 1
	for i := 0; i < len(src); {
		r, n := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && n <= 1 {
			return line, i
		}
		if src[i] == '\n' {
			line++
		}
		i += n
	}
	return line, len(src)
}

// lineStarts returns the byte offset where each line of src that holds
// text starts: the lines of definitions.LineStarts but the empty one after
// a final "\n" (an empty file has no lines), as the tools number them.
func lineStarts(src []byte) []int {
	if len(src) == 0 {
		return nil
	}
	starts := definitions.LineStarts(src)
	if starts[len(starts)-1] == len(src) {
		starts = starts[:len(starts)-1]
	}
	return starts
}

// lineAt returns the 1-based line that holds the byte at offset.
func lineAt(starts []int, offset int) int {
	lo, hi := 0, len(starts)
	for lo < hi {
		mid := (lo + hi) / 2
		if starts[mid] <= offset {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return max(lo, 1)
}

// lineText returns line n (1-based) of src without its line end.
func lineText(src []byte, starts []int, n int) string {
	start := starts[n-1]
	end := len(src)
	if n < len(starts) {
		end = starts[n]
	}
	return strings.TrimRight(string(src[start:end]), "\r\n")
}

// numbered renders lines with their numbers, right-aligned, the way read
// and edit show them to a model. A gap between lines shows as "...".
func numbered(lines []Line) string {
	if len(lines) == 0 {
		return ""
	}
	width := len(fmt.Sprint(lines[len(lines)-1].Line))
	var b strings.Builder
	for i, l := range lines {
		if i > 0 && l.Line > lines[i-1].Line+1 {
			fmt.Fprintf(&b, "%*s\n", width, "...")
		}
		if l.Cut > 0 {
			fmt.Fprintf(&b, "%*d  %s … (%s more of this line not shown)\n", width, l.Line, l.Text, words.Bytes(int64(l.Cut)))
			continue
		}
		fmt.Fprintf(&b, "%*d  %s\n", width, l.Line, l.Text)
	}
	return b.String()
}

// changedRegion returns the bytes [start, end) of now that differ from
// before: what is left between their common start and their common end.
func changedRegion(before, now []byte) [2]int {
	p := 0
	for p < len(before) && p < len(now) && before[p] == now[p] {
		p++
	}
	s := 0
	for s < len(before)-p && s < len(now)-p && before[len(before)-1-s] == now[len(now)-1-s] {
		s++
	}
	return [2]int{p, len(now) - s}
}

// around returns the lines of src that the byte ranges touch, with ctx
// lines before and after each, in order and without repeats. An empty
// range touches the line it stands on.
func around(src []byte, starts []int, ranges [][2]int, ctx int) []Line {
	n := len(starts)
	if n == 0 {
		return nil
	}
	keep := make([]bool, n+1)
	for _, r := range ranges {
		first := lineAt(starts, min(r[0], len(src)-1))
		last := lineAt(starts, min(max(r[0], r[1]-1), len(src)-1))
		for l := max(first-ctx, 1); l <= min(last+ctx, n); l++ {
			keep[l] = true
		}
	}
	var lines []Line
	for l := 1; l <= n; l++ {
		if keep[l] {
			lines = append(lines, echoLine(src, starts, l))
		}
	}
	return lines
}

// maxEchoedLine bounds the bytes of one line that an answer echoes.
const maxEchoedLine = 1000

// echoLine is line l of src as an answer echoes it: at most maxEchoedLine
// bytes (cut at a character's start), with Cut counting the rest.
func echoLine(src []byte, starts []int, l int) Line {
	text := lineText(src, starts, l)
	if len(text) <= maxEchoedLine {
		return Line{Line: l, Text: text}
	}
	end := maxEchoedLine
	for end > 0 && !utf8.RuneStart(text[end]) {
		end--
	}
	return Line{Line: l, Text: text[:end], Cut: len(text) - end}
}

// isCode reports whether err is a tool error with the code.
func isCode(err error, code string) bool {
	var te *diag.ToolError
	return errors.As(err, &te) && te.Code == code
}

// errTooLarge stands for "too large" where a tool only needs to know it.
var errTooLarge = errors.New("too large")

// isBinary reports whether src looks binary: a NUL byte near its start.
func isBinary(src []byte) bool {
	head := src
	if len(head) > sniffLen {
		head = head[:sniffLen]
	}
	return bytes.IndexByte(head, 0) >= 0
}
