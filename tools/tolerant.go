package tools

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/words"
)

// Tolerance says that a find of edit stood nowhere as written, but once
// exactly after some differences were set aside (the edit page, "Tolerated
// differences"), and which.
type Tolerance struct {
	// Edit is the 1-based number of the replacement in edits; 0 for the
	// find/with form.
	Edit int `json:"edit,omitempty"`
	// Normalised names what was set aside: "line ends", "trailing spaces",
	// "indentation", "quotes".
	Normalised []string `json:"normalised"`
	// Lines are the first and last line find matched, in the file as the
	// replacements before it left it.
	Lines [2]int `json:"lines"`
}

// tolerantKey writes text as the tolerant match compares it: each line
// without its indentation, its trailing spaces and tabs and its CR, and
// with every '"' written as "'". It returns for each byte of the key the
// offset in text it came from.
func tolerantKey(text []byte) (string, []int) {
	var b strings.Builder
	offsets := make([]int, 0, len(text))
	for start := 0; start < len(text); {
		end := bytes.IndexByte(text[start:], '\n')
		next := len(text)
		if end < 0 {
			end = len(text)
		} else {
			end += start
			next = end + 1
		}
		lo, hi := start, end
		for lo < hi && isBlank(text[lo]) {
			lo++
		}
		for hi > lo && (isBlank(text[hi-1]) || text[hi-1] == '\r') {
			hi--
		}
		for i := lo; i < hi; i++ {
			c := text[i]
			if c == '"' {
				c = '\''
			}
			b.WriteByte(c)
			offsets = append(offsets, i)
		}
		if end < len(text) {
			b.WriteByte('\n')
			offsets = append(offsets, end)
		}
		start = next
	}
	return b.String(), offsets
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// tolerantMatch looks for find in body once indentation, trailing spaces,
// line ends and quote style are set aside. It returns the offsets in body of
// every place it stands (overlapping ones included) as [start, end) spans;
// a span starts at its line's start where find starts with indentation.
func tolerantMatch(body []byte, find string) [][2]int {
	want, _ := tolerantKey([]byte(find))
	if strings.Trim(want, "\n") == "" {
		return nil
	}
	have, offsets := tolerantKey(body)
	// Indentation is only at a line's start, trailing spaces only at its
	// end: a find that begins or ends with them must match there.
	indented := len(find) > 0 && isBlank(find[0])
	trailing := len(find) > 0 && (isBlank(find[len(find)-1]) || find[len(find)-1] == '\r')
	var spans [][2]int
	for i := 0; i <= len(have)-len(want); {
		j := strings.Index(have[i:], want)
		if j < 0 {
			break
		}
		i += j + 1
		start, end := offsets[i-1], offsets[i-1+len(want)-1]+1
		if indented {
			lineStart := bytes.LastIndexByte(body[:start], '\n') + 1
			if len(bytes.TrimLeft(body[lineStart:start], " \t")) != 0 {
				continue
			}
			start = lineStart
		}
		if trailing && body[end-1] != '\n' {
			lineEnd := len(body)
			if k := bytes.IndexByte(body[end:], '\n'); k >= 0 {
				lineEnd = end + k
			}
			if len(bytes.TrimLeft(body[end:lineEnd], " \t\r")) != 0 {
				continue
			}
		}
		spans = append(spans, [2]int{start, end})
	}
	return spans
}

// tolerated names the differences between the text find matched and find,
// line by line, in a fixed order.
func tolerated(matched, find string) []string {
	ms, fs := strings.Split(matched, "\n"), strings.Split(find, "\n")
	var ends, trailing, indent, quotes bool
	for k := 0; k < len(ms) && k < len(fs); k++ {
		m, f := ms[k], fs[k]
		mcr, fcr := strings.HasSuffix(m, "\r"), strings.HasSuffix(f, "\r")
		if k < len(ms)-1 && mcr != fcr {
			ends = true
		}
		m, f = strings.TrimSuffix(m, "\r"), strings.TrimSuffix(f, "\r")
		mCore, fCore := strings.TrimRight(m, " \t"), strings.TrimRight(f, " \t")
		if m[len(mCore):] != f[len(fCore):] {
			trailing = true
		}
		mText, fText := strings.TrimLeft(mCore, " \t"), strings.TrimLeft(fCore, " \t")
		if mCore[:len(mCore)-len(mText)] != fCore[:len(fCore)-len(fText)] {
			indent = true
		}
		if mText != fText {
			quotes = true
		}
	}
	var names []string
	for _, n := range []struct {
		used bool
		name string
	}{{ends, "line ends"}, {trailing, "trailing spaces"}, {indent, "indentation"}, {quotes, "quotes"}} {
		if n.used {
			names = append(names, n.name)
		}
	}
	return names
}

// reindent gives with the file's indentation where find's differed. A line
// of with indented as a line of find is indented as the line that matched
// it; another that begins with the indentation of find's first indented
// line gets, in place of that, the indentation of the line that matched it.
// With's first line is left as it is unless find begins with indentation;
// blank lines stay.
func reindent(with, matched, find string) string {
	ms, fs := strings.Split(matched, "\n"), strings.Split(find, "\n")
	indented := len(find) > 0 && isBlank(find[0])
	same := map[string]string{} // find's indentation: the file's
	var from, to string
	found := false
	for k := 0; k < len(ms) && k < len(fs); k++ {
		if k == 0 && !indented {
			continue
		}
		f := strings.TrimRight(fs[k], " \t\r")
		if strings.TrimLeft(f, " \t") == "" {
			continue
		}
		m := strings.TrimRight(ms[k], " \t\r")
		fi, mi := indentOf(f), indentOf(m)
		if _, ok := same[fi]; !ok {
			same[fi] = mi
		}
		if !found {
			from, to, found = fi, mi, true
		}
	}
	if !found {
		return with
	}
	lines := strings.Split(with, "\n")
	for j, l := range lines {
		if (j == 0 && !indented) || strings.TrimSpace(l) == "" {
			continue
		}
		wi := indentOf(l)
		if mi, ok := same[wi]; ok {
			lines[j] = mi + l[len(wi):]
		} else if strings.HasPrefix(l, from) {
			lines[j] = to + l[len(from):]
		}
	}
	return strings.Join(lines, "\n")
}

// indentOf returns the spaces and tabs line begins with.
func indentOf(line string) string {
	return line[:len(line)-len(strings.TrimLeft(line, " \t"))]
}

// tolerantWith returns what to put in place of the text find matched: the
// lines with begins and ends with that are find's own, as the file has them
// (its quotes, spaces and line ends kept), and between them the lines of
// with as given, re-indented (reindent).
func tolerantWith(with, matched, find string) string {
	ws, fs, ms := strings.Split(with, "\n"), strings.Split(find, "\n"), strings.Split(matched, "\n")
	if len(fs) != len(ms) {
		return reindent(with, matched, find)
	}
	out := strings.Split(reindent(with, matched, find), "\n")
	head := 0
	for head < len(ws) && head < len(fs) && ws[head] == fs[head] {
		out[head] = ms[head]
		head++
	}
	for tail := 1; tail <= len(ws)-head && tail <= len(fs)-head && ws[len(ws)-tail] == fs[len(fs)-tail]; tail++ {
		out[len(out)-tail] = ms[len(ms)-tail]
	}
	return strings.Join(out, "\n")
}

// tolerantTwice is the T9106 of a find that stands nowhere as written and
// more than once once differences are set aside.
func tolerantTwice(rel string, body []byte, spans [][2]int, i, items int) error {
	starts := lineStarts(body)
	var lines []int
	for _, s := range spans {
		if l := lineAt(starts, s[0]); len(lines) == 0 || lines[len(lines)-1] != l {
			lines = append(lines, l)
		}
	}
	which := "find"
	if items > 1 {
		which = fmt.Sprintf("find of edit %d of %d", i+1, items)
	}
	listed, more := lines, ""
	if len(listed) > maxListedLines {
		more = fmt.Sprintf(" and %d more", len(listed)-maxListedLines)
		listed = listed[:maxListedLines]
	}
	e := diag.Errorf(diag.T9106, "%s stands nowhere in %s as written, and %d times once indentation, trailing spaces, line ends and quotes are set aside (%s %s%s); give more of the text around it, so that it stands once; nothing was written",
		which, rel, len(spans), words.Plural(len(lines), "line"), joinInts(listed), more)
	return withItem(e.With("path", rel).With("count", 0).With("tolerantCount", len(spans)).With("lines", lines), i, items)
}

// writeTolerance writes the line of edit's text answer that says a find
// matched only once differences were set aside.
func writeTolerance(b *strings.Builder, tol Tolerance) {
	which := "find"
	if tol.Edit > 0 {
		which = fmt.Sprintf("find of edit %d", tol.Edit)
	}
	where := fmt.Sprintf("line %d", tol.Lines[0])
	if tol.Lines[1] != tol.Lines[0] {
		where = fmt.Sprintf("lines %d-%d", tol.Lines[0], tol.Lines[1])
	}
	fmt.Fprintf(b, "%s did not stand as written; it matched %s once %s were set aside\n", which, where, strings.Join(tol.Normalised, ", "))
}
