package definitions

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/projectfiles"
	"github.com/tent-tools/tent-tools/parser"
)

// Lines returns the byte offset of the start of each line of the file's
// text (LineStarts), [0] for a file without text. A File made with
// neither its lines nor a way to count them once (one derived from
// another's definitions) counts them at each call.
func (f *File) Lines() []int {
	switch {
	case f.lines != nil:
		return f.lines
	case f.lateLines != nil:
		l := f.lateLines
		l.once.Do(func() { l.lines = LineStarts(f.Src) })
		return l.lines
	}
	return LineStarts(f.Src)
}

// lateLines are a file's lines, counted on first use (File.lines).
type lateLines struct {
	once  sync.Once
	lines []int
}

// Pos returns the 1-based line and column of a byte offset; the column
// counts code points from the start of the line. An offset out of the
// file is clamped to it.
func (f *File) Pos(offset int) (line, col int) {
	offset = max(0, min(offset, len(f.Src)))
	lines := f.Lines()
	if len(lines) == 0 {
		lines = []int{0}
	}
	i := sort.Search(len(lines), func(i int) bool { return lines[i] > offset }) - 1
	i = max(i, 0)
	return i + 1, 1 + utf8.RuneCount(f.Src[lines[i]:offset])
}

// LineText returns the text of a 1-based line without its line end ("\n"
// or "\r\n"), or "" for a line the file does not have.
func (f *File) LineText(line int) string {
	lines := f.Lines()
	if line < 1 || line > len(lines) {
		return ""
	}
	start, end := lines[line-1], len(f.Src)
	if line < len(lines) {
		end = lines[line]
	}
	s := f.Src[start:end]
	s = bytes.TrimSuffix(s, []byte{'\n'})
	s = bytes.TrimSuffix(s, []byte{'\r'})
	return string(s)
}

// Finding makes a finding about a span of the file, with its lines and
// columns filled.
func (f *File) Finding(code string, sev diag.Severity, msg string, span Span) diag.Finding {
	line, col := f.Pos(span.Start)
	endLine, endCol := f.Pos(span.End)
	return diag.Finding{
		Code: code, Severity: sev, Path: f.Path, Message: msg,
		Line: line, Col: col, EndLine: endLine, EndCol: endCol,
		Start: span.Start, End: span.End,
	}
}

// LineStarts returns the byte offset of the start of each line of src: 0,
// and each offset that follows a "\n". A file that ends with a newline has
// an empty last line. It is the one rule of lines: File.Lines, the
// language server's positions and the tools' line numbers count by it.
func LineStarts(src []byte) []int {
	lines := make([]int, 1, lineCount(src))
	eachLineAfterFirst(src, func(start int) { lines = append(lines, start) })
	return lines
}

// lineCount is the number of lines of src (LineStarts' length).
func lineCount(src []byte) int { return bytes.Count(src, []byte{'\n'}) + 1 }

// eachLineAfterFirst calls fn with the byte offset of the start of each
// line of src but the first (which starts at 0), in order.
func eachLineAfterFirst(src []byte, fn func(start int)) {
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			return
		}
		i += j + 1
		fn(i)
	}
}

// langOf says how a project path is read, and whether it is indexed at
// all: .ts and .tsx files anywhere, and test data testdata/<table>.json.
// What is no project file by the one rule of internal/projectfiles (in a
// folder that is never project code, a framework file at the root, a path
// too deep or too long) is left out, whatever its capitals.
func langOf(p string) (Lang, bool) {
	dir, base := path.Split(p)
	if projectfiles.InSkippedFolder(dir) || projectfiles.FrameworkFile(p) || projectfiles.Bounded(p) != "" {
		return "", false
	}
	switch ext := strings.ToLower(path.Ext(base)); {
	case ext == ".ts":
		return LangTS, true
	case ext == ".tsx":
		return LangTSX, true
	case ext == ".json" && dir == "testdata/":
		return LangJSON, true
	}
	return "", false
}

// notText says why src is not UTF-8 text, with the offset of the first
// bad byte, or ok. A NUL byte marks a binary file.
func notText(src []byte) (why string, at int, ok bool) {
	if i := bytes.IndexByte(src, 0); i >= 0 {
		return "binary (it holds a NUL byte), not UTF-8 text", i, false
	}
	if utf8.Valid(src) {
		return "", 0, true
	}
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && size <= 1 {
			return fmt.Sprintf("not UTF-8 text (byte 0x%02x is no UTF-8)", src[i]), i, false
		}
		i += size
	}
	return "", 0, true
}

// SyntaxTree returns a syntax tree of the file for the caller to walk and
// then close: a copy of the tree the index keeps (walking a tree fills its
// node cache, so the shared one is never walked), or, where it keeps none
// (an index read from the cache, or built with Options.DropTrees), a new parse of
// the file's text. It is nil for test data and unreadable files.
func (f *File) SyntaxTree() *sitter.Tree {
	if (f.Lang != LangTS && f.Lang != LangTSX) || f.Src == nil {
		return nil
	}
	if f.Tree != nil {
		return f.Tree.Copy()
	}
	t, _ := parser.Parse(context.Background(), f.Path, f.Src)
	return t
}
