package definitions

import (
	"unicode"
	"unicode/utf8"
)

// The one rule of what an identifier is, for every package: the index's
// reading of code words and keys, the language server's word at a
// position, and the names a rename takes.

// Identifier reports whether s is a plain identifier: a letter (of any
// script), `_` or `$`, then letters, digits, combining marks, connectors,
// `_` or `$`. Text that is not UTF-8 is none.
func Identifier[T string | []byte](s T) bool {
	if len(s) == 0 {
		return false
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '_' || c == '$' || (c|0x20 >= 'a' && c|0x20 <= 'z'):
			case c >= '0' && c <= '9' && i > 0:
			default:
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(string(s[i:min(len(s), i+utf8.UTFMax)]))
		switch {
		case r == utf8.RuneError:
			return false
		case unicode.IsLetter(r):
		case i > 0 && (unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) || unicode.Is(unicode.Pc, r)):
		default:
			return false
		}
		i += n
	}
	return true
}

// IdentByte reports whether the byte c may stand inside an identifier, for
// a scan over bytes: every byte of a multi-byte character counts (an
// identifier may hold letters of any script, Identifier), so that a word
// is never cut at a letter such as é.
func IdentByte(c byte) bool {
	return c == '_' || c == '$' || (c|0x20 >= 'a' && c|0x20 <= 'z') || (c >= '0' && c <= '9') || c >= utf8.RuneSelf
}
