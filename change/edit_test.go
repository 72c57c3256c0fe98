package change

import (
	"strings"
	"testing"
)

func TestApply(t *testing.T) {
	src := []byte("const orders = 1\nuse(orders)\n")
	got := apply(t, src, []Edit{{Start: 21, End: 27, Text: "purchases"}, {Start: 6, End: 12, Text: "purchases"}, {Start: 6, End: 12, Text: "purchases"}})
	if want := "const purchases = 1\nuse(purchases)\n"; got != want {
		t.Errorf("got %q want %q", got, want)
	}
}

func TestValidate(t *testing.T) {
	lf := []byte("a\nb\n")
	crlf := []byte("a\r\nb\r\n")
	utf := []byte("é")
	tests := []struct {
		name  string
		src   []byte
		edits []Edit
		err   string
	}{
		{"outside", lf, []Edit{{Start: 2, End: 9}}, "outside"},
		{"backwards", lf, []Edit{{Start: 2, End: 1}}, "outside"},
		{"overlap", lf, []Edit{{Start: 0, End: 2}, {Start: 1, End: 3}}, "overlaps"},
		{"splits a character", utf, []Edit{{Start: 1, End: 2}}, "UTF-8"},
		{"LF into CRLF", crlf, []Edit{{Start: 0, End: 0, Text: "x\n"}}, "line end"},
		{"CRLF into LF", lf, []Edit{{Start: 0, End: 0, Text: "x\r\n"}}, "line end"},
		{"lone CR", lf, []Edit{{Start: 0, End: 0, Text: "x\r"}}, "lone CR"},
		{"fine CRLF", crlf, []Edit{{Start: 0, End: 0, Text: "x\r\n"}}, ""},
		{"two insertions at one place", lf, []Edit{{Start: 1, End: 1, Text: "x"}, {Start: 1, End: 1, Text: "y"}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Validate(tt.src, Normalize(tt.edits))
			switch {
			case tt.err == "" && err != nil:
				t.Errorf("unexpected error %v", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Errorf("error %v, want one about %q", err, tt.err)
			}
		})
	}
}

func TestMapOffset(t *testing.T) {
	edits := []Edit{{Start: 2, End: 4, Text: "xyz"}, {Start: 6, End: 6, Text: "!!"}}
	tests := []struct {
		off, want int
		ok        bool
	}{
		{0, 0, true}, {2, 2, true}, {3, 2, false}, {4, 5, true}, {6, 7, true}, {7, 10, true},
	}
	for _, tt := range tests {
		got, ok := MapOffset(edits, tt.off)
		if got != tt.want || ok != tt.ok {
			t.Errorf("MapOffset(%d) = %d, %v; want %d, %v", tt.off, got, ok, tt.want, tt.ok)
		}
	}
}

func TestRemoveStatement(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{
			"between neighbours",
			"import { table } from 'tent'\n\nexport const a = table({})\n\n§export const b = table({})\n\nexport const c = table({})\n",
			"import { table } from 'tent'\n\nexport const a = table({})\n\nexport const c = table({})\n",
		},
		{
			"with its doc comment and semicolon",
			"const x = 1\n\n// B is old.\n// Really.\n§export const b = table({});\n\nconst y = 2\n",
			"const x = 1\n\nconst y = 2\n",
		},
		{
			"block doc comment",
			"const x = 1\n\n/**\n * B.\n */\n§export const b = table({})\n\nconst y = 2\n",
			"const x = 1\n\nconst y = 2\n",
		},
		{
			"a comment after a blank line stays",
			"// header\n\n§export const b = 1\n",
			"// header\n",
		},
		{
			"last in the file",
			"const x = 1\n\n§export const b = 1\n",
			"const x = 1\n",
		},
		{
			"CRLF",
			"const x = 1\r\n\r\n§export const b = 1\r\n\r\nconst y = 2\r\n",
			"const x = 1\r\n\r\nconst y = 2\r\n",
		},
		{
			"not alone on its line",
			"const x = 1; §export const b = 1; const y = 2\n",
			"const x = 1; const y = 2\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			at := strings.Index(tt.in, "§")
			src := []byte(tt.in[:at] + tt.in[at+len("§"):])
			n := findNode(t, src, at, "export_statement")
			stmt := Span{int(n.StartByte()), int(n.EndByte())}
			if src[stmt.End-1] == ';' {
				stmt.End-- // the index's span may or may not hold the semicolon
			}
			got := apply(t, src, []Edit{RemoveStatement(src, stmt)})
			if got != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

func TestDetectStyle(t *testing.T) {
	tests := []struct {
		src  string
		want Style
	}{
		{"import { a } from 'tent'\nconst x = {\n  a: 'b',\n}\n", Style{Quote: '\'', EOL: "\n", Indent: "  "}},
		{"import { a } from \"tent\"\r\nconst x = {\r\n    a: \"b\",\r\n}\r\n", Style{Quote: '"', EOL: "\r\n", Indent: "    "}},
		{"// it's \"quoted\" 'twice'\nconst x = {\n\ta: \"b\",\n}\n", Style{Quote: '"', EOL: "\n", Indent: "\t"}},
		{"/**\n * doc\n */\nconst x = `it's`\n", Style{Quote: '\'', EOL: "\n", Indent: "  "}},
	}
	for _, tt := range tests {
		if got := DetectStyle([]byte(tt.src)); got != tt.want {
			t.Errorf("DetectStyle(%q) = %+v, want %+v", tt.src, got, tt.want)
		}
	}
	if got := (Style{Quote: '"'}).Quoted(`a"b\c`); got != `"a\"b\\c"` {
		t.Errorf("Quoted = %s", got)
	}
}
