package tools

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/diag"
)

// TestDuplicateKeys: a key given twice in one object, at any depth, is
// refused with T9102 naming it, in tool input and in the policy file,
// never "the last wins".
func TestDuplicateKeys(t *testing.T) {
	tests := []struct{ input, field string }{
		{`{"path": "a.ts", "path": "b.ts"}`, "path"},
		{`{"path": "project.ts", "edits": [{"find": "a", "with": "b", "find": "c"}]}`, "edits[0].find"},
		{`{"name": "f", "input": {"x": 1, "y": {"z": 1, "z": 2}}}`, "input.y.z"},
		{`{"name": "f", "input": [{"a": 1}, {"a": 1, "a": 2}]}`, "input[1].a"},
		{`{"path": "a.ts", "pat\u0068": "b.ts"}`, "path"},
	}
	w, _ := openFiles(t, map[string]string{"project.ts": "export default project({ name: 'p' })\n"})
	for _, tt := range tests {
		tool := "read"
		if strings.Contains(tt.input, "edits") {
			tool = "edit"
		} else if strings.Contains(tt.input, `"name"`) {
			tool = "run"
		}
		_, err := call(w, tool, tt.input)
		if te := wantCode(t, err, diag.T9102); te != nil && te.Data["field"] != tt.field {
			t.Errorf("%s: field %v; want %q", tt.input, te.Data["field"], tt.field)
		}
	}
	// The same keys in different objects are fine.
	if _, err := call(w, "read", `{"path": "project.ts", "from": 1, "to": 1}`); err != nil {
		t.Error(err)
	}

	for _, policy := range []string{
		`{"deny": ["**"], "deny": []}`,
		`{"allow": ["**"], "ask": ["remove:*"], "ask": []}`,
	} {
		_, err := ParsePolicy([]byte(policy))
		wantCode(t, err, diag.T9102)
	}
}

// FuzzDecodeInput holds the strict decoding of tool input against any
// text: it never panics; what it accepts is one valid JSON object whose
// objects hold each key once, and a refusal is T9102.
func FuzzDecodeInput(f *testing.F) {
	for _, seed := range []string{
		`{"path": "a.ts"}`, `{"path": "a.ts", "path": "b"}`, `{"path": "a", "edits": [{"find": "x", "with": "y"}]}`,
		`{"edits": [{"find": "x", "with": "y", "with": "z"}]}`, `[]`, `null`, ``, `{"path": 1}`, `{"Path": "a"}`,
		`{"path": "a", "find": "\u0000", "with": ""}`, `{"path": "a"} {}`, strings.Repeat("[", 20000),
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		var in EditInput
		err := DecodeInput(input, &in)
		if err != nil {
			if !isCode(err, diag.T9102) {
				t.Fatalf("refused without T9102: %v", err)
			}
			return
		}
		trimmed := bytes.TrimSpace(input)
		if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
			return
		}
		if !json.Valid(trimmed) {
			t.Fatalf("accepted no JSON: %q", input)
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(trimmed, &obj); err != nil {
			t.Fatalf("accepted no object: %q", input)
		}
		dec := json.NewDecoder(bytes.NewReader(trimmed))
		keys, depth := 0, 0
		for {
			tok, err := dec.Token()
			if err != nil {
				break
			}
			switch tok {
			case json.Delim('{'), json.Delim('['):
				depth++
				continue
			case json.Delim('}'), json.Delim(']'):
				depth--
				continue
			}
			if _, isKey := tok.(string); isKey && depth == 1 && dec.More() {
				keys++
				var skip json.RawMessage
				if dec.Decode(&skip) != nil {
					break
				}
			}
		}
		if keys != len(obj) {
			t.Fatalf("accepted %d keys of which %d differ: %q", keys, len(obj), input)
		}
	})
}
