package change

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// contextLines is how many unchanged lines a hunk shows around a change.
const contextLines = 2

// Diff renders the set as a unified-style diff of every file it changes,
// moves or deletes, in path order, for reviewing (goldens, previews). A CR
// before a line end is shown as `\r`, so that a CRLF file visibly stays one.
func (s *Set) Diff(deleted func(path string) []byte) (string, error) {
	var b strings.Builder
	for _, f := range s.Files {
		after, err := f.Result()
		if err != nil {
			return "", err
		}
		from := f.Path
		if f.New {
			from = "/dev/null"
		}
		fmt.Fprintf(&b, "--- %s\n+++ %s\n", from, f.NewPath())
		b.WriteString(diffText(string(f.Base), string(after)))
	}
	for _, d := range s.Deletes {
		fmt.Fprintf(&b, "--- %s\n+++ /dev/null\n", d)
		if deleted != nil {
			b.WriteString(diffText(string(deleted(d)), ""))
		}
	}
	return b.String(), nil
}

// splitLines splits a text into lines, each without its LF; a CR before
// the LF is kept (and shown by showLine).
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\n")
	}
	return lines
}

// showLine writes a line for a diff: a trailing CR as `\r`.
func showLine(l string) string {
	if strings.HasSuffix(l, "\r") {
		return l[:len(l)-1] + `\r`
	}
	return l
}

// diffText diffs two texts line by line: common lines at both ends are
// cut first, and the middle is matched by a longest common subsequence
// (or, where that would be too large to compute, replaced whole).
func diffText(a, b string) string {
	x, y := splitLines(a), splitLines(b)
	ops := diffLines(x, y)
	var out strings.Builder
	// Group the ops into hunks with context.
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := i - contextLines
		if start < 0 {
			start = 0
		}
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*contextLines {
				end += min(contextLines, run-end)
				break
			}
			end = run
		}
		ai, bi, an, bn := ops[start].a, ops[start].b, 0, 0
		for _, o := range ops[start:end] {
			if o.kind != '+' {
				an++
			}
			if o.kind != '-' {
				bn++
			}
		}
		fmt.Fprintf(&out, "@@ -%d,%d +%d,%d @@\n", ai+1, an, bi+1, bn)
		for _, o := range ops[start:end] {
			out.WriteByte(o.kind)
			out.WriteString(showLine(o.text))
			out.WriteByte('\n')
		}
		i = end
	}
	if !strings.HasSuffix(a, "\n") && a != "" && !strings.HasSuffix(b, "\n") && b != "" && a != b {
		out.WriteString("\\ no line end at the end of the file\n")
	}
	return out.String()
}

// op is one line of a diff: ' ' kept, '-' removed, '+' added; a and b are
// the line's 0-based indexes in the old and new text where it stands.
type op struct {
	kind byte
	text string
	a, b int
}

// maxCells bounds the table of the longest common subsequence.
const maxCells = 4 << 20

// diffLines returns the ops that turn x into y.
func diffLines(x, y []string) []op {
	pre := 0
	for pre < len(x) && pre < len(y) && x[pre] == y[pre] {
		pre++
	}
	suf := 0
	for suf < len(x)-pre && suf < len(y)-pre && x[len(x)-1-suf] == y[len(y)-1-suf] {
		suf++
	}
	var ops []op
	for i := 0; i < pre; i++ {
		ops = append(ops, op{' ', x[i], i, i})
	}
	mx, my := x[pre:len(x)-suf], y[pre:len(y)-suf]
	ops = append(ops, middle(mx, my, pre)...)
	for k := 0; k < suf; k++ {
		i, j := len(x)-suf+k, len(y)-suf+k
		ops = append(ops, op{' ', x[i], i, j})
	}
	return ops
}

// middle diffs the differing middle of two texts (offset lines in).
func middle(x, y []string, offset int) []op {
	var ops []op
	if len(x)*len(y) > maxCells {
		for i, l := range x {
			ops = append(ops, op{'-', l, offset + i, offset})
		}
		for j, l := range y {
			ops = append(ops, op{'+', l, offset + len(x), offset + j})
		}
		return ops
	}
	// lcs[i][j] is the length of the longest common subsequence of x[i:], y[j:].
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			ops = append(ops, op{' ', x[i], offset + i, offset + j})
			i++
			j++
		case j < len(y) && (i == len(x) || lcs[i][j+1] > lcs[i+1][j]):
			ops = append(ops, op{'+', y[j], offset + i, offset + j})
			j++
		default:
			ops = append(ops, op{'-', x[i], offset + i, offset + j})
			i++
		}
	}
	return ops
}

// LineEdits returns the edits that turn a into b, hunk by hunk of a line
// diff, each cut to the bytes that differ: the edits a person would have
// made, so that a change composed of several (the editor's operations,
// each planned on the text the one before left) tells each place it
// changed and leaves every other byte as it was.
func LineEdits(a, b []byte) []Edit {
	x, y := splitKeep(a), splitKeep(b)
	ops := diffLines(x, y)
	offA := make([]int, len(x)+1)
	for i, l := range x {
		offA[i+1] = offA[i] + len(l)
	}
	var edits []Edit
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := offA[ops[i].a]
		end := start
		var text strings.Builder
		for ; i < len(ops) && ops[i].kind != ' '; i++ {
			if ops[i].kind == '-' {
				end += len(ops[i].text)
			} else {
				text.WriteString(ops[i].text)
			}
		}
		edits = append(edits, trimEdit(a, Edit{Start: start, End: end, Text: text.String()}))
	}
	return edits
}

// splitKeep splits a text into lines that keep their line ends.
func splitKeep(s []byte) []string {
	if len(s) == 0 {
		return nil
	}
	lines := strings.SplitAfter(string(s), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// trimEdit cuts the bytes an edit's text shares with the text it replaces
// at both ends, on UTF-8 boundaries.
func trimEdit(src []byte, e Edit) Edit {
	old, text := string(src[e.Start:e.End]), e.Text
	inside := func(s string, i int) bool { return i < len(s) && !utf8.RuneStart(s[i]) }
	pre := 0
	for pre < len(old) && pre < len(text) && old[pre] == text[pre] {
		pre++
	}
	for pre > 0 && (inside(old, pre) || inside(text, pre)) {
		pre--
	}
	suf := 0
	for suf < len(old)-pre && suf < len(text)-pre && old[len(old)-1-suf] == text[len(text)-1-suf] {
		suf++
	}
	for suf > 0 && (inside(old, len(old)-suf) || inside(text, len(text)-suf)) {
		suf--
	}
	return Edit{Start: e.Start + pre, End: e.End - suf, Text: text[pre : len(text)-suf]}
}
