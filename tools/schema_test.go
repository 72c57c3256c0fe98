package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// compileSchema compiles a tool's input schema with a JSON Schema
// validator, as an MCP client would.
func compileSchema(t *testing.T, tool Tool) *jsonschema.Schema {
	t.Helper()
	b, err := json.Marshal(tool.InputSchema())
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	url := "tool:" + tool.Name
	if err := c.AddResource(url, doc); err != nil {
		t.Fatalf("%s: %v", tool.Name, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("%s: schema does not compile: %v\n%s", tool.Name, err, b)
	}
	return s
}

// TestInputSchemas checks that every tool's input schema compiles, and that
// it accepts exactly what DecodeInput accepts, on inputs of every kind of
// mistake.
func TestInputSchemas(t *testing.T) {
	for _, tool := range All() {
		compileSchema(t, tool)
	}
	tests := []struct {
		tool, input string
	}{
		{"read", `{"path": "a.ts"}`},
		{"read", `{"path": "a.ts", "from": 1, "to": 2}`},
		{"read", `{}`},
		{"read", `{"path": "a.ts", "line": 3}`},
		{"read", `{"path": 3}`},
		{"read", `{"Path": "a.ts"}`},
		{"edit", `{"path": "a.ts", "find": "x", "with": "y"}`},
		{"edit", `{"path": "a.ts", "edits": [{"find": "x", "with": "y"}]}`},
		{"edit", `{"path": "a.ts", "edits": [{"find": "x"}]}`},
		{"edit", `{"path": "a.ts", "edits": [{"find": "x", "with": "y", "also": 1}]}`},
		{"edit", `{"path": "a.ts", "edits": {"find": "x"}}`},
		{"run", `{"name": "placeOrder", "input": {"buyer": "u1"}}`},
		{"run", `{"name": "placeOrder", "input": [1, 2]}`},
		{"history", `{}`},
		{"history", `{"newest": "3"}`},
		{"compare", `{"from": 1, "to": 2, "name": "orders"}`},
		{"compare", `{"to": 2}`},
		{"undo", `{"point": 2}`},
		{"move", `{"path": "a.ts"}`},
		{"remember", `{"key": "k", "value": "v"}`},
		{"remember", `{"key": "k", "value": 1}`},
		{"changedBy", `{"name": "orders", "path": "columns.buyer.type"}`},
	}
	for _, tt := range tests {
		tool, ok := Lookup(tt.tool)
		if !ok {
			t.Fatalf("no tool %s", tt.tool)
		}
		s := compileSchema(t, tool)
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(tt.input)))
		if err != nil {
			t.Fatal(err)
		}
		schemaOK := s.Validate(doc) == nil
		decodeOK := DecodeInput(json.RawMessage(tt.input), tool.NewInput()) == nil
		if schemaOK != decodeOK {
			t.Errorf("%s %s: the schema says %v, DecodeInput %v", tt.tool, tt.input, schemaOK, decodeOK)
		}
	}
}

func TestInputSchemaShape(t *testing.T) {
	tool, _ := Lookup("compare")
	got, _ := json.Marshal(tool.InputSchema())
	want := `{"$schema":"https://json-schema.org/draft/2020-12/schema","additionalProperties":false,` +
		`"description":` + fmt.Sprintf("%q", tool.Summary) + `,"properties":{"from":{"type":"integer"},"name":{"type":"string"},"skip":{"type":"integer"},"to":{"type":"integer"}},` +
		`"required":["from"],"type":"object"}`
	if string(got) != want {
		t.Errorf("compare's schema:\n%s\nwant\n%s", got, want)
	}
}
