package tools

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// foldCases are texts and sources where finding a text in any case is
// easy to get wrong: runes whose case orbit leaves ASCII (k and the Kelvin
// sign, s and the long s, the three sigmas), runes of other lengths than
// the text's, bytes that are no UTF-8 (which the regexp reads as U+FFFD),
// a text that starts with U+FFFD, places far apart (beyond a window of
// index) and many near places that do not match.
var foldCases = []struct{ text, src string }{
	{"json.stringify", "x = JSON.stringify(a)\njson.STRINGIFY\nJSON.strinGify"},
	{"JSON.stringify", "Json.ſtringify and JSON.\u017Ftringify"},
	{"kelvin", "\u212Aelvin KELVIN kElViN"},
	{"K", "\u212A"},
	{"\u212A", "k K \u212A"},
	{"σ", "Σ ς σ"},
	{"ς", "ΣΑΣ"},
	{"ab", "a\xffb ab A\x80B"},
	{"\uFFFD", "a\xffb\xc5\xbf\xe2\x84"},
	{"\uFFFDb", "\xc5\xbfb \xbfb"},
	{"x\uFFFD", "x\xe2\x84 x\xff"},
	{"needle", strings.Repeat("n", 5000) + "NEEDLE" + strings.Repeat("e", 100) + "needle"},
	{"end", strings.Repeat("x", 4095) + "END"},
	{"ſ", "s S ſ"},
	{"ǅ", "Ǆ ǆ ǅ"},
	{"a.b", "aXb a.b"},
	{"", ""},
}

// TestFoldedTextSameAsRegexp checks that a text in any case is found where
// Go's regexp finds (?i) and the quoted text, from every byte of each
// source (every 97th of a long one): the same start and the same length.
func TestFoldedTextSameAsRegexp(t *testing.T) {
	for _, c := range foldCases {
		if c.text == "" {
			continue
		}
		sameAsRegexp(t, c.text, c.src)
	}
}

// FuzzFoldedText checks the same for any text and source.
func FuzzFoldedText(f *testing.F) {
	for _, c := range foldCases {
		f.Add(c.text, c.src)
	}
	f.Fuzz(func(t *testing.T, text, src string) {
		if text == "" || !utf8.ValidString(text) {
			return // search takes these to the regexp (an error for text that is no UTF-8)
		}
		sameAsRegexp(t, text, src)
	})
}

func sameAsRegexp(t *testing.T, text, src string) {
	t.Helper()
	re := regexp.MustCompile("(?i)" + regexp.QuoteMeta(text))
	f := newFoldedText(text)
	step := 1
	if len(src) > 1000 {
		step = 97 // the long sources: from enough places, not from each
	}
	for i := 0; i <= len(src); i += step {
		want, wantN := -1, 0
		if loc := re.FindIndex([]byte(src[i:])); loc != nil {
			want, wantN = loc[0], loc[1]-loc[0]
		}
		if at, n := f.index([]byte(src[i:])); at != want || n != wantN {
			t.Fatalf("%q in %q from %d: at %d (%d bytes), the regexp finds %d (%d bytes)", text, src, i, at, n, want, wantN)
		}
	}
}
