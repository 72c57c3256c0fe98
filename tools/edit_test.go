package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/diag"
)

func TestEditKeepsTheFile(t *testing.T) {
	tests := []struct {
		name, before, input, after string
	}{
		{
			name:   "literal dollar",
			before: "const a = 1\n",
			input:  `{"path": "f.ts", "find": "a = 1", "with": "a = '$1 $& $$ \\1'"}`,
			after:  "const a = '$1 $& $$ \\1'\n",
		},
		{
			name:   "CRLF kept where find and with use \\n",
			before: "a\r\nb\r\nc\r\n",
			input:  `{"path": "f.ts", "find": "a\nb", "with": "a\nx\ny"}`,
			after:  "a\r\nx\r\ny\r\nc\r\n",
		},
		{
			name:   "CRLF find in a CRLF file",
			before: "a\r\nb\r\n",
			input:  `{"path": "f.ts", "find": "a\r\nb", "with": "b\r\na"}`,
			after:  "b\r\na\r\n",
		},
		{
			name:   "CRLF in find meets an LF file",
			before: "a\nb\n",
			input:  `{"path": "f.ts", "find": "a\r\nb", "with": "c\r\nd"}`,
			after:  "c\nd\n",
		},
		{
			name:   "BOM kept",
			before: "\xEF\xBB\xBFconst a = 1\n",
			input:  `{"path": "f.ts", "find": "const a", "with": "let a"}`,
			after:  "\xEF\xBB\xBFlet a = 1\n",
		},
		{
			name:   "final line end kept",
			before: "a\nb\n",
			input:  `{"path": "f.ts", "find": "b\n", "with": "c"}`,
			after:  "a\nc\n",
		},
		{
			name:   "no final line end stays none",
			before: "a\nb",
			input:  `{"path": "f.ts", "find": "b", "with": "c\nd"}`,
			after:  "a\nc\nd",
		},
		{
			name:   "tabs kept",
			before: "if (x) {\n\treturn 1\n}\n",
			input:  `{"path": "f.ts", "find": "\treturn 1", "with": "\treturn 2"}`,
			after:  "if (x) {\n\treturn 2\n}\n",
		},
		{
			name:   "edits in order",
			before: "one two three\n",
			input:  `{"path": "f.ts", "edits": [{"find": "one", "with": "two"}, {"find": "two two", "with": "2"}]}`,
			after:  "2 three\n",
		},
		{
			name:   "delete",
			before: "a\nb\nc\n",
			input:  `{"path": "f.ts", "find": "b\n", "with": ""}`,
			after:  "a\nc\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, dir := openFiles(t, map[string]string{"f.ts": tt.before})
			if _, err := call(w, "edit", tt.input); err != nil {
				t.Fatal(err)
			}
			if got := readFile(t, dir, "f.ts"); got != tt.after {
				t.Errorf("got %q; want %q", got, tt.after)
			}
		})
	}
}

func TestEditRefuses(t *testing.T) {
	tests := []struct {
		name, before, input, code string
		facts                     map[string]any
	}{
		{name: "twice", before: "a\nb a\n", input: `{"path": "f.ts", "find": "a", "with": "c"}`, code: diag.T9106,
			facts: map[string]any{"count": 2, "lines": []int{1, 2}}},
		{name: "overlapping", before: "aaa\n", input: `{"path": "f.ts", "find": "aa", "with": "b"}`, code: diag.T9106,
			facts: map[string]any{"count": 2, "lines": []int{1}}},
		{name: "nowhere", before: "export const orders = table({\n", input: `{"path": "f.ts", "find": "export const order = table", "with": "c"}`, code: diag.T9106,
			facts: map[string]any{"count": 0, "nearest": []Line{{Line: 1, Text: "export const orders = table({"}}}},
		{name: "only with other spaces", before: "if (x) {\n\treturn 1\n}\n", input: `{"path": "f.ts", "find": "if (x)  {\n    return 1", "with": "c"}`, code: diag.T9106,
			facts: map[string]any{"count": 0, "whitespace": true, "nearest": []Line{{Line: 1, Text: "if (x) {"}}}},
		{name: "second edit fails, first rolled back", before: "one two\n", input: `{"path": "f.ts", "edits": [{"find": "one", "with": "two"}, {"find": "two", "with": "three"}]}`, code: diag.T9106,
			facts: map[string]any{"count": 2, "edit": 2}},
		{name: "twice once indentation is set aside", before: "if (a) {\n\treturn 1\n}\nif (b) {\n  return 1\n}\n", input: `{"path": "f.ts", "find": "    return 1", "with": "c"}`, code: diag.T9106,
			facts: map[string]any{"count": 0, "tolerantCount": 2, "lines": []int{2, 5}}},
		{name: "indentation only at a line's start", before: "a = b\n", input: `{"path": "f.ts", "find": "  b", "with": "c"}`, code: diag.T9106,
			facts: map[string]any{"count": 0}},
		{name: "trailing spaces only at a line's end", before: "a = b;\n", input: `{"path": "f.ts", "find": "a = b  ", "with": "c"}`, code: diag.T9106,
			facts: map[string]any{"count": 0}},
		{name: "exact twice, tolerant once", before: "a = 'x'\na = 'x'\nb = \"x\"\n", input: `{"path": "f.ts", "find": "'x'", "with": "y"}`, code: diag.T9106,
			facts: map[string]any{"count": 2, "lines": []int{1, 2}}},
		{name: "both forms", before: "a\n", input: `{"path": "f.ts", "find": "a", "with": "b", "edits": [{"find": "a", "with": "b"}]}`, code: diag.T9102},
		{name: "empty find", before: "a\n", input: `{"path": "f.ts", "find": "", "with": "b"}`, code: diag.T9102},
		{name: "no with", before: "a\n", input: `{"path": "f.ts", "find": "a"}`, code: diag.T9102},
		{name: "empty edits", before: "a\n", input: `{"path": "f.ts", "edits": []}`, code: diag.T9102},
		{name: "missing file", before: "a\n", input: `{"path": "g.ts", "find": "a", "with": "b"}`, code: diag.T9103},
		{name: "binary", before: "a\x00b\n", input: `{"path": "f.ts", "find": "a", "with": "b"}`, code: diag.T1003},
		{name: "not UTF-8", before: "a\n\xff\n", input: `{"path": "f.ts", "find": "a", "with": "b"}`, code: diag.T1003,
			facts: map[string]any{"line": 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, dir := openFiles(t, map[string]string{"f.ts": tt.before})
			_, err := call(w, "edit", tt.input)
			te := wantCode(t, err, tt.code)
			for k, want := range tt.facts {
				if got, _ := JSON(te.Data[k]); string(got) != string(mustJSON(t, want)) {
					t.Errorf("%s = %s; want %s", k, got, mustJSON(t, want))
				}
			}
			if got := readFile(t, dir, "f.ts"); got != tt.before {
				t.Errorf("the file changed to %q", got)
			}
		})
	}
}

func TestEditTolerant(t *testing.T) {
	tests := []struct {
		name, before, input, after string
		tolerated                  []Tolerance // nil: find stood as written
	}{
		{
			name:      "exact match wins over a tolerant one",
			before:    "a = \"x\"\nb = 'x'\n",
			input:     `{"path": "f.ts", "find": "'x'", "with": "'y'"}`,
			after:     "a = \"x\"\nb = 'y'\n",
			tolerated: nil,
		},
		{
			name:      "indentation: with takes the file's",
			before:    "export const t = table({\n    columns: {\n        a: text(),\n    },\n})\n",
			input:     `{"path": "f.ts", "find": "  columns: {\n    a: text(),\n  },\n", "with": "  columns: {\n    a: text(),\n    b: money(),\n  },\n"}`,
			after:     "export const t = table({\n    columns: {\n        a: text(),\n        b: money(),\n    },\n})\n",
			tolerated: []Tolerance{{Normalised: []string{"indentation"}, Lines: [2]int{2, 4}}},
		},
		{
			name:      "tabs in the file, spaces in find",
			before:    "if (x) {\n\treturn 1\n}\n",
			input:     `{"path": "f.ts", "find": "if (x) {\n    return 1\n", "with": "if (x) {\n    return 2\n"}`,
			after:     "if (x) {\n\treturn 2\n}\n",
			tolerated: []Tolerance{{Normalised: []string{"indentation"}, Lines: [2]int{1, 2}}},
		},
		{
			name:      "find starts mid-line without the indentation",
			before:    "  a: text(),\n  b: text(),\n",
			input:     `{"path": "f.ts", "find": "a: text(),\nb: text(),", "with": "a: text(),\nc: money(),"}`,
			after:     "  a: text(),\n  c: money(),\n",
			tolerated: []Tolerance{{Normalised: []string{"indentation"}, Lines: [2]int{1, 2}}},
		},
		{
			name:      "trailing spaces in the file",
			before:    "a: text(),   \nb: text(),\t\n",
			input:     `{"path": "f.ts", "find": "a: text(),\nb: text(),\n", "with": "a: money(),\nb: text(),\n"}`,
			after:     "a: money(),\nb: text(),\t\n",
			tolerated: []Tolerance{{Normalised: []string{"trailing spaces"}, Lines: [2]int{1, 2}}},
		},
		{
			name:      "quote style",
			before:    "a: ref('users'),\n",
			input:     `{"path": "f.ts", "find": "ref(\"users\")", "with": "ref('people')"}`,
			after:     "a: ref('people'),\n",
			tolerated: []Tolerance{{Normalised: []string{"quotes"}, Lines: [2]int{1, 1}}},
		},
		{
			name:      "a stray CRLF line in an LF file",
			before:    "a\nb\r\nc\nd\ne\n",
			input:     `{"path": "f.ts", "find": "b\nc", "with": "x\ny"}`,
			after:     "a\nx\ny\nd\ne\n",
			tolerated: []Tolerance{{Normalised: []string{"line ends"}, Lines: [2]int{2, 3}}},
		},
		{
			name:      "CRLF file and BOM kept, several differences",
			before:    "\xEF\xBB\xBFif (x) {  \r\n\treturn \"a\"\r\n}\r\n",
			input:     `{"path": "f.ts", "find": "if (x) {\n  return 'a'\n", "with": "if (x) {\n  return 'b'\n"}`,
			after:     "\xEF\xBB\xBFif (x) {  \r\n\treturn 'b'\r\n}\r\n",
			tolerated: []Tolerance{{Normalised: []string{"trailing spaces", "indentation", "quotes"}, Lines: [2]int{1, 2}}},
		},
		{
			name:      "lines with keeps from find stay as the file has them",
			before:    "t({\r\n\ta: ref('users'),  \r\n\tb: text(),\r\n})\r\n",
			input:     `{"path": "f.ts", "find": "  a: ref(\"users\"),\n  b: text(),\n", "with": "  a: ref(\"users\"),\n  c: money(),\n  b: text(),\n"}`,
			after:     "t({\r\n\ta: ref('users'),  \r\n\tc: money(),\r\n\tb: text(),\r\n})\r\n",
			tolerated: []Tolerance{{Normalised: []string{"trailing spaces", "indentation", "quotes"}, Lines: [2]int{2, 3}}},
		},
		{
			name:      "trailing spaces in find at a line's end",
			before:    "a = b;\nc\n",
			input:     `{"path": "f.ts", "find": "a = b;  ", "with": "a = d;"}`,
			after:     "a = d;\nc\n",
			tolerated: []Tolerance{{Normalised: []string{"trailing spaces"}, Lines: [2]int{1, 1}}},
		},
		{
			name:      "in edits, the tolerant one is named",
			before:    "one\n\ttwo\n",
			input:     `{"path": "f.ts", "edits": [{"find": "one", "with": "1"}, {"find": "  two", "with": "  2"}]}`,
			after:     "1\n\t2\n",
			tolerated: []Tolerance{{Edit: 2, Normalised: []string{"indentation"}, Lines: [2]int{2, 2}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, dir := openFiles(t, map[string]string{"f.ts": tt.before})
			ans, err := call(w, "edit", tt.input)
			if err != nil {
				t.Fatal(err)
			}
			if got := readFile(t, dir, "f.ts"); got != tt.after {
				t.Errorf("got %q; want %q", got, tt.after)
			}
			got := ans.Data.(Changed).Tolerated
			if string(mustJSON(t, got)) != string(mustJSON(t, tt.tolerated)) {
				t.Errorf("tolerated = %s; want %s", mustJSON(t, got), mustJSON(t, tt.tolerated))
			}
			if said := strings.Contains(ans.Text, "did not stand as written"); said != (tt.tolerated != nil) {
				t.Errorf("the text answer says so: %v; want %v:\n%s", said, tt.tolerated != nil, ans.Text)
			}
		})
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := JSON(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestEditKeepsMode(t *testing.T) {
	w, dir := openFiles(t, map[string]string{"run.sh": "echo a\n", "lib/x.ts": "a\n"})
	for name, mode := range map[string]os.FileMode{"run.sh": 0o755, "lib/x.ts": 0o600} {
		if err := os.Chmod(filepath.Join(dir, name), mode); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := call(w, "edit", `{"path": "run.sh", "find": "echo a", "with": "echo b"}`); err != nil {
		t.Fatal(err)
	}
	if _, err := call(w, "write", `{"path": "lib/x.ts", "text": "b\n"}`); err != nil {
		t.Fatal(err)
	}
	for name, mode := range map[string]os.FileMode{"run.sh": 0o755, "lib/x.ts": 0o600} {
		info, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode().Perm() != mode {
			t.Errorf("%s has mode %v; want %v", name, info.Mode().Perm(), mode)
		}
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "lib"))
	if len(entries) != 1 {
		t.Errorf("lib holds %d entries after the write; a temporary file was left", len(entries))
	}
}
