package tools

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/words"
)

// How much a T9106 answer shows.
const (
	maxListedLines = 20 // line numbers listed where find stands more than once
	maxNearest     = 3  // nearest lines shown where it stands nowhere
	maxCandidates  = 20 // lines scored exactly, after the cheap trigram count
	maxScoredLen   = 200
)

// notOnce is the T9106 answer for a find that stands len(at) times in text
// (text as the replacements before item i left it).
func notOnce(rel string, text []byte, find string, at []int, i, items int) error {
	starts := lineStarts(text)
	which := "find"
	if items > 1 {
		which = fmt.Sprintf("find of edit %d of %d", i+1, items)
		if i > 0 {
			which += " (after the edits before it)"
		}
	}
	if len(at) > 1 {
		var lines []int
		for _, a := range at {
			if l := lineAt(starts, a); len(lines) == 0 || lines[len(lines)-1] != l {
				lines = append(lines, l)
			}
		}
		listed := lines
		more := ""
		if len(listed) > maxListedLines {
			more = fmt.Sprintf(" and %d more", len(listed)-maxListedLines)
			listed = listed[:maxListedLines]
		}
		e := diag.Errorf(diag.T9106, "%s stands %d times in %s (%s %s%s); give more of the text around it, so that it stands once; nothing was written",
			which, len(at), rel, words.Plural(len(lines), "line"), joinInts(listed), more)
		return withItem(e.With("path", rel).With("count", len(at)).With("lines", lines), i, items)
	}

	if lines := whitespaceMatches(text, starts, find); len(lines) > 0 {
		shown := make([]Line, 0, len(lines))
		for _, l := range lines {
			shown = append(shown, echoLine(text, starts, l))
		}
		e := diag.Errorf(diag.T9106, "%s stands nowhere in %s as written, but it does with other spaces, tabs or line ends; copy the text exactly as read shows it; nothing was written:\n%s",
			which, rel, strings.TrimRight(numbered(shown), "\n"))
		return withItem(e.With("path", rel).With("count", 0).With("nearest", shown).With("whitespace", true), i, items)
	}
	near := nearestLines(text, starts, find)
	msg := fmt.Sprintf("%s stands nowhere in %s; nothing was written", which, rel)
	if len(near) > 0 {
		msg += "; the nearest lines:\n" + strings.TrimRight(numbered(near), "\n")
	} else {
		near = []Line{}
	}
	e := diag.Errorf(diag.T9106, "%s", msg)
	return withItem(e.With("path", rel).With("count", 0).With("nearest", near), i, items)
}

func withItem(e *diag.ToolError, i, items int) *diag.ToolError {
	if items > 1 {
		e.With("edit", i+1)
	}
	return e
}

// whitespaceMatches returns the lines where find stands once every run of
// spaces, tabs and line ends is taken as one space (at most maxNearest).
func whitespaceMatches(text []byte, starts []int, find string) []int {
	want, _ := squeeze([]byte(find))
	want = strings.TrimSpace(want)
	if want == "" {
		return nil
	}
	have, offsets := squeeze(text)
	var lines []int
	for i := 0; len(lines) < maxNearest; {
		j := strings.Index(have[i:], want)
		if j < 0 {
			break
		}
		l := lineAt(starts, offsets[i+j])
		if len(lines) == 0 || lines[len(lines)-1] != l {
			lines = append(lines, l)
		}
		i += j + 1
	}
	return lines
}

// squeeze writes each run of white space in text as one space, and returns
// for each byte of the result the offset in text it came from.
func squeeze(text []byte) (string, []int) {
	var b strings.Builder
	offsets := make([]int, 0, len(text))
	space := false
	for i, c := range text {
		if c == ' ' || c == '\t' || c == '\r' || c == '\n' {
			if !space {
				b.WriteByte(' ')
				offsets = append(offsets, i)
			}
			space = true
			continue
		}
		space = false
		b.WriteByte(c)
		offsets = append(offsets, i)
	}
	return b.String(), offsets
}

// nearestLines returns up to maxNearest lines of text most like a line of
// find, in line order: the lines that share the longest common substring
// with one of find's lines (at least 4 bytes). Lines are first ranked by
// the trigrams they share, so only a few are compared exactly.
func nearestLines(text []byte, starts []int, find string) []Line {
	var wants []string
	for _, l := range strings.Split(find, "\n") {
		if l = strings.TrimSpace(l); len(l) >= 3 {
			wants = append(wants, clip(l))
		}
	}
	if len(wants) == 0 {
		return nil
	}
	grams := map[string]bool{}
	for _, w := range wants {
		for k := 0; k+3 <= len(w); k++ {
			grams[w[k:k+3]] = true
		}
	}
	type scored struct{ line, score int }
	var cands []scored
	for l := 1; l <= len(starts); l++ {
		t := clip(strings.TrimSpace(lineText(text, starts, l)))
		shared := 0
		for k := 0; k+3 <= len(t); k++ {
			if grams[t[k:k+3]] {
				shared++
			}
		}
		if shared > 0 {
			cands = append(cands, scored{l, shared})
		}
	}
	sort.SliceStable(cands, func(a, b int) bool { return cands[a].score > cands[b].score })
	if len(cands) > maxCandidates {
		cands = cands[:maxCandidates]
	}
	for k := range cands {
		t := clip(strings.TrimSpace(lineText(text, starts, cands[k].line)))
		best := 0
		for _, w := range wants {
			best = max(best, longestCommon(t, w))
		}
		cands[k].score = best
	}
	sort.SliceStable(cands, func(a, b int) bool {
		if cands[a].score != cands[b].score {
			return cands[a].score > cands[b].score
		}
		return cands[a].line < cands[b].line
	})
	// Keep the lines at least half as near as the nearest, so that a line
	// sharing a common word does not stand beside the one the agent meant.
	var out []Line
	for _, c := range cands {
		if len(out) == maxNearest || c.score < 4 || c.score*2 < cands[0].score {
			break
		}
		out = append(out, echoLine(text, starts, c.line))
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Line < out[b].Line })
	return out
}

// clip cuts s to maxScoredLen bytes, so scoring a minified line stays cheap.
func clip(s string) string {
	if len(s) > maxScoredLen {
		return s[:maxScoredLen]
	}
	return s
}

// longestCommon returns the length in bytes of the longest common substring
// of a and b.
func longestCommon(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	best := 0
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			if a[i-1] == b[j-1] {
				cur[j] = prev[j-1] + 1
				best = max(best, cur[j])
			} else {
				cur[j] = 0
			}
		}
		prev, cur = cur, prev
	}
	return best
}

func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, ", ")
}
