package tools

import (
	"os"
	"path/filepath"
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
		{name: "only with other spaces", before: "if (x) {\n\treturn 1\n}\n", input: `{"path": "f.ts", "find": "if (x) {\n    return 1", "with": "c"}`, code: diag.T9106,
			facts: map[string]any{"count": 0, "whitespace": true, "nearest": []Line{{Line: 1, Text: "if (x) {"}}}},
		{name: "second edit fails, first rolled back", before: "one two\n", input: `{"path": "f.ts", "edits": [{"find": "one", "with": "two"}, {"find": "two", "with": "three"}]}`, code: diag.T9106,
			facts: map[string]any{"count": 2, "edit": 2}},
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
