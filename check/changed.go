package check

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/tent-tools/tent-tools/diag"
)

// ChangedLines holds, per project path, the lines a change added or
// changed in the new text, for reporting only the findings a change brings
// (`check --changed-since`).
type ChangedLines struct {
	lines map[string]map[int]bool
	whole map[string]bool
}

// ParseDiff reads the lines a unified diff adds or changes, per path of
// the new side, from `git diff -U0` output. A line added with the text of
// a line the diff removes (spaces aside; in the same file or another) was
// moved, not changed, so code moved within a file or across files brings
// no finding it had before. Paths lose git's b/ prefix where the diff has
// one; a quoted path ("a\tb.ts") is unquoted. A deleted file adds no line.
func ParseDiff(diff []byte) (*ChangedLines, error) {
	c := &ChangedLines{lines: map[string]map[int]bool{}, whole: map[string]bool{}}
	type added struct {
		path string
		line int
		text string
	}
	var adds []added
	removed := map[string]int{} // normalised text -> lines removed with it
	sc := bufio.NewScanner(bytes.NewReader(diff))
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	path := ""
	// oldLeft and newLeft count the lines of the hunk still to come, so
	// that a line of text that starts like a header ("+++ x" added, "@@"
	// removed) is read as text; next is the new side's next line number.
	oldLeft, newLeft, next := 0, 0, 0
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if oldLeft > 0 || newLeft > 0 {
			switch {
			case strings.HasPrefix(line, "-"):
				removed[normalSpace(line[1:])]++
				oldLeft--
			case strings.HasPrefix(line, "+"):
				if path != "" {
					adds = append(adds, added{path, next, normalSpace(line[1:])})
				}
				newLeft--
				next++
			case strings.HasPrefix(line, `\`): // "\ No newline at end of file"
			default:
				oldLeft--
				newLeft--
				next++
			}
			continue
		}
		switch {
		case strings.HasPrefix(line, "+++ "):
			p, err := diffPath(strings.TrimPrefix(line, "+++ "))
			if err != nil {
				return nil, fmt.Errorf("diff line %d: %w", n, err)
			}
			path = p
		case strings.HasPrefix(line, "@@ "):
			oldCount, start, count, err := hunkHeader(line)
			if err != nil {
				return nil, fmt.Errorf("diff line %d: %w", n, err)
			}
			oldLeft, newLeft, next = oldCount, count, start
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read diff: %w", err)
	}
	for _, a := range adds {
		if a.text != "" && removed[a.text] > 0 {
			removed[a.text]--
			continue
		}
		if c.lines[a.path] == nil {
			c.lines[a.path] = map[int]bool{}
		}
		c.lines[a.path][a.line] = true
	}
	return c, nil
}

// normalSpace is a line's text with its runs of spaces made one space and
// its ends trimmed.
func normalSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// AddFile marks every line of a file changed: a file that git does not
// track yet is new as a whole.
func (c *ChangedLines) AddFile(path string) { c.whole[path] = true }

// Touches reports whether a finding stands on a changed line: any line
// from its start to its end.
func (c *ChangedLines) Touches(f diag.Finding) bool {
	if c.whole[f.Path] {
		return true
	}
	lines := c.lines[f.Path]
	for l := max(f.Line, 1); l <= max(f.EndLine, f.Line, 1); l++ {
		if lines[l] {
			return true
		}
	}
	return false
}

// Changed returns the report with only the findings on changed lines.
func (c *ChangedLines) Changed(r Report) Report {
	return r.Filter(func(f diag.Finding, _ string) bool { return c.Touches(f) })
}

// diffPath reads the path of a "+++ " line: "/dev/null" (a deleted file)
// is "", git's "b/" prefix goes, a quoted path is unquoted, and a tab
// ending the path (with a time after it, as diff -u writes) ends it.
func diffPath(s string) (string, error) {
	if strings.HasPrefix(s, `"`) {
		end := strings.LastIndexByte(s, '"')
		p, err := strconv.Unquote(s[:end+1])
		if err != nil {
			return "", fmt.Errorf("quoted path %s: %w", s, err)
		}
		s = p
	} else if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	}
	if s == "/dev/null" {
		return "", nil
	}
	return strings.TrimPrefix(s, "b/"), nil
}

// hunkHeader reads a hunk header, "@@ -a,b +c,d @@": the count of old
// lines b, and the new side's first line c and count of lines d (a count
// left out is 1).
func hunkHeader(header string) (oldCount, start, count int, err error) {
	fields := strings.Fields(header)
	if len(fields) < 3 || !strings.HasPrefix(fields[1], "-") || !strings.HasPrefix(fields[2], "+") {
		return 0, 0, 0, fmt.Errorf("not a hunk header: %q", header)
	}
	if _, oldCount, err = hunkRange(fields[1][1:]); err != nil {
		return 0, 0, 0, fmt.Errorf("hunk header %q: %w", header, err)
	}
	if start, count, err = hunkRange(fields[2][1:]); err != nil {
		return 0, 0, 0, fmt.Errorf("hunk header %q: %w", header, err)
	}
	return oldCount, start, count, nil
}

// hunkRange reads "c,d" or "c" (d is then 1).
func hunkRange(s string) (start, count int, err error) {
	startText, countText, hasCount := strings.Cut(s, ",")
	if start, err = strconv.Atoi(startText); err != nil {
		return 0, 0, err
	}
	count = 1
	if hasCount {
		if count, err = strconv.Atoi(countText); err != nil {
			return 0, 0, err
		}
	}
	return start, count, nil
}
