package tools

import (
	"bytes"
	"regexp/syntax"
	"unicode/utf8"
)

// requiredText returns a text that every match of the regex pattern (Go's
// RE2 syntax, as regexp.Compile reads it) holds, exactly, or nil where it
// finds none: a file without it holds no match, and is not given to the
// regexp, which scans fast only for a pattern that starts with a text.
// The longest such text of a concatenation is taken; an alternation, a
// part that may be left out and a text in any case give none.
func requiredText(pattern string) []byte {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil
	}
	return required(re.Simplify())
}

func required(re *syntax.Regexp) []byte {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return nil
		}
		text := []byte(string(re.Rune))
		if bytes.ContainsRune(text, utf8.RuneError) {
			return nil // U+FFFD also matches each byte that is no UTF-8
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
