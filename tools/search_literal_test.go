package tools

import (
	"regexp"
	"regexp/syntax"
	"testing"
)

// TestRequiredText checks the text every match of a regex holds: the
// longest of a concatenation's, through groups and repeats that must occur,
// in any case where it is (?i) (as the parser keeps it: in capitals), and none for an alternation, an optional
// part and U+FFFD (which also matches bytes that are no UTF-8).
func TestRequiredText(t *testing.T) {
	for _, c := range []struct {
		pattern, want string
		fold          bool
	}{
		{`[Jj]SON\.stringify`, "SON.stringify", false},
		{`(orders|customers)\.placedAt`, ".placedAt", false},
		{`money\(\{ ?optional`, "optional", false},
		{`(abc)+x`, "abc", false},
		{`x{2,3}yz`, "yz", false},
		{`(?:ab){1,}`, "ab", false},
		{`\bplacedAt\b`, "placedAt", false},
		{`héllo\d`, "héllo", false},
		{`(?i)abc`, "ABC", true},
		{`(?i)json\.string[a-z]+`, "JSON.STRING", true},
		{`a(?i:bcd)e`, "BCD", true},
		{`ab(?i:c)`, "ab", false},
		{`a|b`, "", false},
		{`(ab)?`, "", false},
		{`(ab){0,2}`, "", false},
		{`a*`, "", false},
		{`\x{FFFD}abc`, "", false},
		{`[a-z]+`, "", false},
		{`(`, "", false},
	} {
		if got, fold := requiredText(c.pattern); got != c.want || fold != c.fold {
			t.Errorf("%s: %q (in any case %v), want %q (%v)", c.pattern, got, fold, c.want, c.fold)
		}
	}
}

// TestWithinLine checks which regexes find on a line alone what they find
// there in the file: none that may match a line end or has ^ or $ of the
// whole text.
func TestWithinLine(t *testing.T) {
	for _, c := range []struct {
		pattern string
		want    bool
	}{
		{`[Jj]SON\.stringify`, true},
		{`\bplaced[A-Z]\w*\b`, true},
		{`(?m)^export .*$`, true},
		{`a.b`, true},
		{`(?s)a.b`, false},
		{`a\sb`, false},
		{`a[^x]b`, false},
		{`a\nb`, false},
		{`^export`, false},
		{`export$`, false},
		{`\Aexport`, false},
	} {
		re, err := syntax.Parse(c.pattern, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		if got := withinLine(re.Simplify()); got != c.want {
			t.Errorf("%s: %v, want %v", c.pattern, got, c.want)
		}
	}
}

// requiredCases are regexes and sources for TestRequiredRegexSameAsRegexp
// and the seeds of FuzzRequiredRegex.
var requiredCases = []struct{ pattern, src string }{
	{`[Jj]SON\.stringify`, "a jSON.stringify(x)\nno\nJSON.stringify JSON.stringify"},
	{`(o|c)\.p+x{2}`, "o.ppxx c.px\nc.pxx"},
	{`a\x{FFFD}b`, "a\xffb a\uFFFDb"},
	{`(?s)a.b`, "a\nb"},
	{`^abc$`, "abc"},
	{`(?m)^abc$`, "x\nabc\nabc"},
	{`\bword\b`, "sword word\nword\nwords"},
	{`[a-z]+Flow\b`, "articles1Flow ordersFlow\n  xFlowy\nyFlow"},
	{`x\sy`, "x\ny x y"},
	{`needle.`, "needle\nneedle!"},
	{`\Bedl`, "needle\nedl\nxedl"},
	{`(?i)json\.string[a-z]+`, "x JSON.stringify\njson.STRINGIFY y\nJson.ſtring"},
	{`(?i)k+elvin\b`, "\u212Aelvin kkelvins KELVIN"},
	{`x(?i:σ)y`, "xΣy xςy xσy"},
}

// TestRequiredRegexSameAsRegexp checks that a regex tried only where the
// text its matches hold is (in the file, or on its lines) finds what the
// regexp finds on the whole source, from every byte of it.
func TestRequiredRegexSameAsRegexp(t *testing.T) {
	for _, c := range requiredCases {
		sameAsWholeRegexp(t, c.pattern, c.src)
	}
}

// FuzzRequiredRegex checks the same for any regex and source, and that
// every match holds the required text.
func FuzzRequiredRegex(f *testing.F) {
	for _, c := range requiredCases {
		f.Add(c.pattern, c.src)
	}
	f.Fuzz(func(t *testing.T, pattern, src string) {
		sameAsWholeRegexp(t, pattern, src)
	})
}

func sameAsWholeRegexp(t *testing.T, pattern, src string) {
	t.Helper()
	re, err := regexp.Compile(pattern)
	if err != nil {
		return
	}
	r := newRequiredRegex(pattern, re)
	if r == nil {
		return
	}
	for _, loc := range re.FindAllIndex([]byte(src), -1) {
		if r.find([]byte(src[loc[0]:loc[1]])) < 0 {
			t.Fatalf("%s matches %q in %q, which does not hold its required text", pattern, src[loc[0]:loc[1]], src)
		}
	}
	for i := 0; i <= len(src); i++ {
		want, wantN := -1, 0
		if loc := re.FindIndex([]byte(src[i:])); loc != nil {
			want, wantN = loc[0], loc[1]-loc[0]
		}
		if at, n := r.index([]byte(src[i:])); at != want || n != wantN {
			t.Fatalf("%s in %q from %d: at %d (%d bytes), the regexp finds %d (%d bytes)", pattern, src, i, at, n, want, wantN)
		}
	}
}
