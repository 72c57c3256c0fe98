package tools

import (
	"bytes"
	"regexp"
	"regexp/syntax"
	"unicode/utf8"
)

// requiredRegex is a regex with the text every match of it holds, so that
// it is tried only where that text is: not on a file without it, and, for
// a regex whose every match lies within one line, only on the lines that
// hold it. Go's regexp scans fast only for a pattern that starts with a
// text; this one is found by bytes.Index.
type requiredRegex struct {
	re       *regexp.Regexp
	required []byte // the longest text every match holds
	// withinLine says that no match spans a line end and that the regex
	// means on a line what it means in the file (withinLine).
	withinLine bool
}

// newRequiredRegex is re with the text every match of it holds, or nil
// where pattern (re's) gives none (requiredText).
func newRequiredRegex(pattern string, re *regexp.Regexp) *requiredRegex {
	parsed, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil
	}
	parsed = parsed.Simplify()
	text := required(parsed)
	if text == nil {
		return nil
	}
	return &requiredRegex{re: re, required: text, withinLine: withinLine(parsed)}
}

// index returns where re first matches src and how many bytes the match
// spans, or -1, as re.FindIndex does.
func (r *requiredRegex) index(src []byte) (at, n int) {
	if !r.withinLine {
		if !bytes.Contains(src, r.required) {
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
		q := bytes.Index(src[from:], r.required)
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
// RE2 syntax, as regexp.Compile reads it) holds, exactly, or nil where it
// finds none.
func requiredText(pattern string) []byte {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil
	}
	return required(re.Simplify())
}

// required is requiredText of a parsed regex: the longest such text of a
// concatenation is taken, through groups and repeats that must occur; an
// alternation, a part that may be left out, a text in any case and U+FFFD
// (which also matches each byte that is no UTF-8) give none.
func required(re *syntax.Regexp) []byte {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return nil
		}
		text := []byte(string(re.Rune))
		if bytes.ContainsRune(text, utf8.RuneError) {
			return nil
		}
		return text
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpConcat:
		var longest []byte
		for _, sub := range re.Sub {
			if text := required(sub); len(text) > len(longest) {
				longest = text
			}
		}
		return longest
	}
	return nil
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
