package tools

import (
	"bytes"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// requiredRegex is a regex with the text every match of it holds, so that
// it is tried only where that text is: not on a file without it, and, for
// a regex whose every match lies within one line, only on the lines that
// hold it. Go's regexp scans fast only for a pattern that starts with a
// text (and not at all for one in any case); this one is found by
// bytes.Index, or as search finds a text in any case (foldedText).
type requiredRegex struct {
	re     *regexp.Regexp
	text   []byte      // the longest text every match holds exactly, or nil
	folded *foldedText // where that text is one of (?i), in any case
	// withinLine says that no match spans a line end and that the regex
	// means on a line what it means in the file (withinLine).
	withinLine bool
}

// newRequiredRegex is re with the text every match of it holds, or nil
// where pattern (re's) gives none (required).
func newRequiredRegex(pattern string, re *regexp.Regexp) *requiredRegex {
	parsed, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil
	}
	parsed = parsed.Simplify()
	text, fold := required(parsed)
	if text == "" {
		return nil
	}
	r := &requiredRegex{re: re, withinLine: withinLine(parsed)}
	if fold {
		r.folded = newFoldedText(text)
	} else {
		r.text = []byte(text)
	}
	return r
}

// find returns where the required text first is in src, or -1.
func (r *requiredRegex) find(src []byte) int {
	if r.folded != nil {
		at, _ := r.folded.index(src)
		return at
	}
	return bytes.Index(src, r.text)
}

// index returns where re first matches src and how many bytes the match
// spans, or -1, as re.FindIndex does.
func (r *requiredRegex) index(src []byte) (at, n int) {
	if !r.withinLine {
		if r.find(src) < 0 {
			return -1, 0
		}
		loc := r.re.FindIndex(src)
		if loc == nil {
			return -1, 0
		}
		return loc[0], loc[1] - loc[0]
	}
	// Each line that holds the required text, in order: the first match
	// of the first line that has one is the first of src, as no match
	// spans lines and a line without the text holds none.
	for from := 0; from <= len(src); {
		q := r.find(src[from:])
		if q < 0 {
			return -1, 0
		}
		q += from
		start := bytes.LastIndexByte(src[from:q], '\n') + 1 + from
		end := len(src)
		if nl := bytes.IndexByte(src[q:], '\n'); nl >= 0 {
			end = q + nl
		}
		if loc := r.re.FindIndex(src[start:end]); loc != nil {
			return start + loc[0], loc[1] - loc[0]
		}
		from = end + 1
	}
	return -1, 0
}

// requiredText returns a text that every match of the regex pattern (Go's
// RE2 syntax, as regexp.Compile reads it) holds, and whether in any case
// ((?i)), or "" where it finds none.
func requiredText(pattern string) (text string, fold bool) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", false
	}
	return required(re.Simplify())
}

// required is requiredText of a parsed regex: the longest such text of a
// concatenation is taken, through groups and repeats that must occur; an
// alternation, a part that may be left out and U+FFFD (which also matches
// each byte that is no UTF-8) give none.
func required(re *syntax.Regexp) (text string, fold bool) {
	switch re.Op {
	case syntax.OpLiteral:
		text := string(re.Rune)
		if strings.ContainsRune(text, utf8.RuneError) {
			return "", false
		}
		return text, re.Flags&syntax.FoldCase != 0
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			if t, f := required(sub); len(t) > len(text) {
				text, fold = t, f
			}
		}
		return text, fold
	}
	return "", false
}

// withinLine reports whether no match of a parsed regex holds a line end
// (no "\n", no class that takes it, such as [^a] or \s, no . of (?s)) and
// it has no ^ or $ of the whole text (those of (?m) are the line's): each
// match then lies within one line, and the regex finds on the line alone
// what it finds there in the file (\b sees a line end as a non-word).
func withinLine(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpAnyChar, syntax.OpBeginText, syntax.OpEndText:
		return false
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if r == '\n' {
				return false
			}
		}
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i] <= '\n' && '\n' <= re.Rune[i+1] {
				return false
			}
		}
	}
	for _, sub := range re.Sub {
		if !withinLine(sub) {
			return false
		}
	}
	return true
}
