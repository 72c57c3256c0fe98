package change

// Style is how a file writes what an edit inserts, so that inserted text
// looks hand-made: its quote character, its line end and one level of its
// indentation.
type Style struct {
	Quote  byte   // '\'' or '"'
	EOL    string // "\n" or "\r\n"
	Indent string // one level of indentation: "  ", "    " or "\t"
}

// DetectStyle reads a file's style. The quote is the one that starts most
// string literals outside comments (single quotes on a tie); the indent
// unit is the first indentation found that is deeper than the line before.
func DetectStyle(src []byte) Style {
	return Style{Quote: detectQuote(src), EOL: EOL(src), Indent: detectIndent(src)}
}

// Quoted writes s as a string literal in the style's quote.
func (st Style) Quoted(s string) string {
	q := st.Quote
	if q == 0 {
		q = '\''
	}
	out := make([]byte, 0, len(s)+2)
	out = append(out, q)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == q || c == '\\' {
			out = append(out, '\\')
		}
		out = append(out, c)
	}
	return string(append(out, q))
}

// quotedAll writes each name as a string literal.
func (st Style) quotedAll(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = st.Quoted(n)
	}
	return out
}

// detectQuote counts the string literals a light scan of TypeScript finds,
// skipping comments and template literals.
func detectQuote(src []byte) byte {
	single, double := 0, 0
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '/':
			if i+1 < len(src) && src[i+1] == '/' {
				for i < len(src) && src[i] != '\n' {
					i++
				}
			} else if i+1 < len(src) && src[i+1] == '*' {
				i += 2
				for i+1 < len(src) && !(src[i] == '*' && src[i+1] == '/') {
					i++
				}
				i++
			}
		case '\'', '"', '`':
			if c == '\'' {
				single++
			} else if c == '"' {
				double++
			}
			for i++; i < len(src) && src[i] != c; i++ {
				if src[i] == '\\' {
					i++
				} else if src[i] == '\n' && c != '`' {
					break
				}
			}
		}
	}
	if double > single {
		return '"'
	}
	return '\''
}

// detectIndent finds the first line indented deeper than the non-blank
// line before it by a tab, two or four spaces, and returns the difference;
// two spaces by default.
func detectIndent(src []byte) string {
	prev := ""
	for off := 0; off < len(src); off = NextLine(src, off) {
		if BlankLine(src, off) {
			continue
		}
		ind := Indent(src, off)
		if src[off+len(ind)] == '*' {
			continue // the body of a block comment
		}
		if len(ind) > len(prev) && ind[:len(prev)] == prev {
			if unit := ind[len(prev):]; unit == "\t" || unit == "  " || unit == "    " {
				return unit
			}
		}
		prev = ind
	}
	return "  "
}
