package tools

import (
	"bytes"
	"regexp"
	"testing"
)

// TestRequiredText checks the text every match of a regex holds: the
// longest of a concatenation's, through groups and repeats that must occur,
// and none for an alternation, an optional part, a text in any case and
// U+FFFD (which also matches bytes that are no UTF-8).
func TestRequiredText(t *testing.T) {
	for _, c := range []struct{ pattern, want string }{
		{`[Jj]SON\.stringify`, "SON.stringify"},
		{`(orders|customers)\.placedAt`, ".placedAt"},
		{`money\(\{ ?optional`, "optional"},
		{`(abc)+x`, "abc"},
		{`x{2,3}yz`, "yz"},
		{`(?:ab){1,}`, "ab"},
		{`\bplacedAt\b`, "placedAt"},
		{`héllo\d`, "héllo"},
		{`(?i)abc`, ""},
		{`a(?i:bcd)e`, "a"},
		{`a|b`, ""},
		{`(ab)?`, ""},
		{`(ab){0,2}`, ""},
		{`a*`, ""},
		{`\x{FFFD}abc`, ""},
		{`[a-z]+`, ""},
		{`(`, ""},
	} {
		if got := string(requiredText(c.pattern)); got != c.want {
			t.Errorf("%s: %q, want %q", c.pattern, got, c.want)
		}
	}
}

// FuzzRequiredText checks that every match of a regex in a source holds
// the text requiredText answers, so that leaving out a file without it
// loses no hit.
func FuzzRequiredText(f *testing.F) {
	for _, c := range []struct{ pattern, src string }{
		{`[Jj]SON\.stringify`, "a jSON.stringify(x) JSON.stringify"},
		{`(o|c)\.p+x{2}`, "o.ppxx c.px"},
		{`a\x{FFFD}b`, "a\xffb a\uFFFDb"},
		{`(?s)a.b`, "a\nb"},
		{`^abc$`, "abc"},
	} {
		f.Add(c.pattern, c.src)
	}
	f.Fuzz(func(t *testing.T, pattern, src string) {
		re, err := regexp.Compile(pattern)
		if err != nil {
			return
		}
		text := requiredText(pattern)
		if text == nil {
			return
		}
		for _, loc := range re.FindAllIndex([]byte(src), -1) {
			if !bytes.Contains([]byte(src[loc[0]:loc[1]]), text) {
				t.Fatalf("%s matches %q in %q, which does not hold %q", pattern, src[loc[0]:loc[1]], src, text)
			}
		}
	})
}
