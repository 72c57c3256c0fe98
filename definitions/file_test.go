package definitions

import (
	"fmt"
	"testing"

	"github.com/tent-tools/tent-tools/diag"
)

func TestLineStarts(t *testing.T) {
	tests := []struct {
		src  string
		want []int
	}{
		{"", []int{0}},
		{"a", []int{0}},
		{"a\n", []int{0, 2}},
		{"a\r\nb\r\n", []int{0, 3, 6}},
		{"\n\n", []int{0, 1, 2}},
		{"a\rb", []int{0}}, // a lone CR is no line end
	}
	for _, tt := range tests {
		if got := LineStarts([]byte(tt.src)); fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("LineStarts(%q) = %v, want %v", tt.src, got, tt.want)
		}
	}
}

func TestPosAndLineText(t *testing.T) {
	src := "ab\r\nçé x\r\n\r\nlast"
	f := &File{Path: "a.ts", Src: []byte(src), lines: LineStarts([]byte(src))}
	pos := []struct {
		offset, line, col int
	}{
		{0, 1, 1}, {2, 1, 3}, {3, 1, 4}, {4, 2, 1},
		{6, 2, 2}, // after ç (2 bytes): one code point
		{8, 2, 3}, // after é
		{9, 2, 4},
		{12, 3, 1}, {14, 4, 1}, {18, 4, 5},
		{-5, 1, 1}, {1000, 4, 5}, // clamped
	}
	for _, tt := range pos {
		if line, col := f.Pos(tt.offset); line != tt.line || col != tt.col {
			t.Errorf("Pos(%d) = %d:%d, want %d:%d", tt.offset, line, col, tt.line, tt.col)
		}
	}
	lines := []struct {
		line int
		want string
	}{{0, ""}, {1, "ab"}, {2, "çé x"}, {3, ""}, {4, "last"}, {5, ""}}
	for _, tt := range lines {
		if got := f.LineText(tt.line); got != tt.want {
			t.Errorf("LineText(%d) = %q, want %q", tt.line, got, tt.want)
		}
	}
	fd := f.Finding(diag.T2010, diag.Error, "m", Span{4, 9})
	want := diag.Finding{Code: diag.T2010, Severity: diag.Error, Path: "a.ts", Line: 2, Col: 1, EndLine: 2, EndCol: 4, Message: "m", Start: 4, End: 9}
	if fd != want {
		t.Errorf("Finding = %+v, want %+v", fd, want)
	}
}

func TestLangOf(t *testing.T) {
	tests := []struct {
		path string
		want Lang
		ok   bool
	}{
		{"tables/orders.ts", LangTS, true},
		{"screens/a.tsx", LangTSX, true},
		{"lib/deep/x.TS", LangTS, true},
		{"testdata/orders.json", LangJSON, true},
		{"testdata/deeper/orders.json", "", false},
		{"other/orders.json", "", false},
		{"package.json", "", false},
		{"tent.d.ts", "", false},
		{"Tent.Clash.ts", "", false},
		{"mcp.lock.json", "", false},
		{".tent/x.ts", "", false},
		{"node_modules/a/index.ts", "", false},
		{"lib/node_modules/a.ts", "", false},
		{"dist/a.ts", "", false},
		{".git/a.ts", "", false},
		{"README.md", "", false},
		{"lib/x.js", "", false},
	}
	for _, tt := range tests {
		got, ok := langOf(tt.path)
		if got != tt.want || ok != tt.ok {
			t.Errorf("langOf(%q) = %q, %v; want %q, %v", tt.path, got, ok, tt.want, tt.ok)
		}
	}
}

func TestNotText(t *testing.T) {
	tests := []struct {
		src string
		ok  bool
		at  int
	}{
		{"plain ascii", true, 0},
		{"ünïcödé 😀", true, 0},
		{"ab\x00cd", false, 2},
		{"ab\xffcd", false, 2},
		{"é\xc3", false, 2}, // cut in the middle of a character
	}
	for _, tt := range tests {
		why, at, ok := notText([]byte(tt.src))
		if ok != tt.ok || (!ok && at != tt.at) || (!ok && why == "") {
			t.Errorf("notText(%q) = %q, %d, %v; want at %d, ok %v", tt.src, why, at, ok, tt.at, tt.ok)
		}
	}
}
