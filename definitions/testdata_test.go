package definitions

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// readJSON reads src as testdata/orders.json.
func readJSON(src string) *File {
	f := &File{Path: "testdata/orders.json", Lang: LangJSON, Src: []byte(src), lines: LineStarts([]byte(src))}
	readTestData(f, nil)
	return f
}

// at shows the text of a span.
func spanText(f *File, s Span) string { return string(f.Src[s.Start:s.End]) }

func TestTestDataPositions(t *testing.T) {
	src := "\ufeff[\r\n  {\"id\": \"o1\", \"buyer\": \"u1\", \"total\": 1250, \"note\": null},\r\n" +
		"  { \"id\" : 7, \"t\\u00e9\": [1, {\"deep\": true}] },\r\n  {}\r\n]\r\n"
	f := readJSON(src)
	if len(f.Findings) != 0 {
		t.Fatalf("findings: %v", f.Findings)
	}
	td := f.TestData
	if td.Table != "orders" || len(td.Rows) != 3 {
		t.Fatalf("table %q with %d rows", td.Table, len(td.Rows))
	}
	var got []string
	for i, row := range td.Rows {
		got = append(got, fmt.Sprintf("row %d id=%q %s", i, row.ID, spanText(f, row.Span)))
		for _, k := range row.Keys {
			line, col := f.Pos(k.Name.Span.Start)
			js, _ := json.Marshal(k.Value)
			got = append(got, fmt.Sprintf("  %s %d:%d name=%s lit=%s pair=%s value=%s %s", k.Name.Name, line, col,
				spanText(f, k.Name.Span), spanText(f, k.Name.Lit), spanText(f, k.Pair()), spanText(f, k.ValueSpan), js))
		}
	}
	want := []string{
		`row 0 id="o1" {"id": "o1", "buyer": "u1", "total": 1250, "note": null}`,
		`  id 2:5 name=id lit="id" pair="id": "o1" value="o1" "o1"`,
		`  buyer 2:17 name=buyer lit="buyer" pair="buyer": "u1" value="u1" "u1"`,
		`  total 2:32 name=total lit="total" pair="total": 1250 value=1250 1250`,
		`  note 2:47 name=note lit="note" pair="note": null value=null null`,
		`row 1 id="" { "id" : 7, "t\u00e9": [1, {"deep": true}] }`,
		`  id 3:6 name=id lit="id" pair="id" : 7 value=7 7`,
		`  té 3:16 name=t\u00e9 lit="t\u00e9" pair="t\u00e9": [1, {"deep": true}] value=[1, {"deep": true}] [1,{"deep":true}]`,
		`row 2 id="" {}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestTestDataErrors(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // line:col message
		rows      int
	}{
		{"empty", "", []string{"1:1 the file is empty: test data is a JSON array of rows, `[{\"id\": \"...\", ...}]`"}, 0},
		{"spaces only", " \n ", []string{"2:2 the file is empty: test data is a JSON array of rows, `[{\"id\": \"...\", ...}]`"}, 0},
		{"object", `{"id": "a"}`, []string{"1:1 test data is a JSON array of rows, `[{...}, ...]`; this file holds an object"}, 0},
		{"trailing comma", "[\n {\"id\": \"a\"},\n]", []string{"3:1 unexpected `]`: expected a value"}, 0},
		{"missing bracket", "[\n {\"id\": \"a\"}\n", []string{"3:1 expected `,` or `]` after row 1, found the end of the file"}, 0},
		{"missing comma", "[{\"id\": \"a\"} {\"id\": \"b\"}]", []string{"1:14 expected `,` or `]` after row 1, found `{`"}, 0},
		{"bad key", "[{id: 1}]", []string{"1:3 expected a key in double quotes, found `i`"}, 0},
		{"missing colon", `[{"id" 1}]`, []string{`1:8 expected ` + "`:`" + ` after the key "id", found ` + "`1`"}, 0},
		{"unclosed string", "[{\"id\": \"abc}]", []string{"1:9 a string that is never closed"}, 0},
		{"control character", "[{\"id\": \"a\tb\"}]", []string{"1:11 a control character (0x09) in a string: write it as an escape such as \\n"}, 0},
		{"bad escape", `[{"id": "a\qb"}]`, []string{"1:12 bad escape sequence `\\q` in a string"}, 0},
		{"leading zero", `[{"n": 012}]`, []string{"1:8 a number may not start with 0"}, 0},
		{"bad word", `[{"n": tru}]`, []string{"1:8 unexpected `t`: expected a value"}, 0},
		{"text after", `[] x`, []string{"1:4 unexpected `x` after the array of rows"}, 0},
		{"rows that are no objects", "[{\"id\": \"a\"}, 3, \"x\", [1]]", []string{
			"1:15 row 2 is a number, not an object `{...}`",
			"1:18 row 3 is a string, not an object `{...}`",
			"1:23 row 4 is an array, not an object `{...}`"}, 1},
		{"fine", `[]`, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := readJSON(tt.src)
			var got []string
			for _, fd := range f.Findings {
				if fd.Code != "T1002" {
					t.Errorf("code %s, want T1002", fd.Code)
				}
				got = append(got, fmt.Sprintf("%d:%d %s", fd.Line, fd.Col, fd.Message))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if f.TestData == nil || f.TestData.Table != "orders" {
				t.Fatalf("test data %+v, want table orders", f.TestData)
			}
			if len(f.TestData.Rows) != tt.rows {
				t.Errorf("%d rows, want %d", len(f.TestData.Rows), tt.rows)
			}
		})
	}
}

// TestTestDataValuesMatchEncodingJSON checks that the scanner decodes
// values exactly as encoding/json does, and accepts and refuses the same
// texts.
func TestTestDataValuesMatchEncodingJSON(t *testing.T) {
	inputs := []string{
		`[{"a": "plain", "b": "esc \" \\ \/ \b \f \n \r \t \u00e9 \ud83d\ude00", "c": -0.5e-3, "d": 1E2, "e": [[], {}], "f": false}]`,
		`[{"big": 123456789012345678901234567890, "small": -1e-300, "zero": -0}]`,
		`[{"dup": 1, "dup": 2}]`,
		`[{"x": 1e999}]`,
		`[{"x": .5}]`,
		`[{"x": 1.}]`,
		`[{"x": "\ud800"}]`,
		`[{"x": "a` + "\x7f" + `"}]`,
		`[{"x": 01}]`,
		`[{"x": -}]`,
		`[{"x": 1e}]`,
		`[{"x": [1,]}]`,
		`[{"x": {"a":1,}}]`,
		`[{"x": nul}]`,
	}
	for _, in := range inputs {
		f := readJSON(in)
		var want []map[string]any
		jsonErr := json.Unmarshal([]byte(in), &want)
		if (jsonErr != nil) != (len(f.Findings) > 0) {
			t.Errorf("%s: encoding/json error %v, scanner findings %v", in, jsonErr, f.Findings)
			continue
		}
		if jsonErr != nil {
			continue
		}
		for i, row := range f.TestData.Rows {
			got := map[string]any{}
			for _, k := range row.Keys {
				got[k.Name.Name] = k.Value
			}
			if !reflect.DeepEqual(got, want[i]) {
				t.Errorf("%s: row %d = %#v, encoding/json %#v", in, i, got, want[i])
			}
		}
	}
}

func TestTestDataDeepNesting(t *testing.T) {
	deep := `[{"x": ` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}]`
	f := readJSON(deep)
	if len(f.Findings) != 1 || !strings.Contains(f.Findings[0].Message, "nested more than") {
		t.Fatalf("findings %v, want one about nesting", f.Findings)
	}
}

// TestTestDataRowIDs checks the id of a row: the last "id" key counts,
// as where the row is decoded, and only where it is a string.
func TestTestDataRowIDs(t *testing.T) {
	tests := []struct{ src, want string }{
		{`[{"id": "a"}]`, "a"},
		{`[{"id": "a", "id": "b"}]`, "b"},
		{`[{"id": "a", "id": 3}]`, ""},
		{`[{"x": {"id": "inner"}}]`, ""},
		{`[{}]`, ""},
	}
	for _, tt := range tests {
		f := readJSON(tt.src)
		if len(f.Findings) != 0 || len(f.TestData.Rows) != 1 {
			t.Fatalf("%s: findings %v, rows %v", tt.src, f.Findings, f.TestData.Rows)
		}
		if got := f.TestData.Rows[0].ID; got != tt.want {
			t.Errorf("%s: id %q, want %q", tt.src, got, tt.want)
		}
	}
}
