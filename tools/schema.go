package tools

import (
	"encoding/json"
	"reflect"
)

// InputSchema returns the JSON Schema (draft 2020-12) of the tool's input,
// generated from its Go input type by the same rules that DecodeInput
// holds input to: the JSON field names, a field without omitempty is
// required, no other field is allowed, at every depth. The MCP face
// publishes it; a field's `doc` tag, where it has one, is its description.
func (t Tool) InputSchema() map[string]any {
	s := schemaOf(reflect.TypeOf(t.NewInput()))
	s["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	if t.Summary != "" {
		s["description"] = t.Summary
	}
	return s
}

var rawMessage = reflect.TypeOf(json.RawMessage(nil))

// schemaOf is the schema of one Go type.
func schemaOf(t reflect.Type) map[string]any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == rawMessage {
		return map[string]any{} // any JSON value
	}
	switch t.Kind() {
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.Slice, reflect.Array:
		return map[string]any{"type": "array", "items": schemaOf(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": schemaOf(t.Elem())}
	case reflect.Struct:
		props := map[string]any{}
		required := []string{}
		for i, f := range jsonFields(t) {
			fs := schemaOf(f.typ)
			if doc := t.Field(fieldIndex(t, i)).Tag.Get("doc"); doc != "" {
				fs["description"] = doc
			}
			props[f.name] = fs
			if f.required {
				required = append(required, f.name)
			}
		}
		s := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
		if len(required) > 0 {
			s["required"] = required
		}
		return s
	}
	return map[string]any{}
}

// fieldIndex maps the i-th JSON field of a struct (as jsonFields lists
// them) to its Go field index.
func fieldIndex(t reflect.Type, i int) int {
	n := -1
	for j := range t.NumField() {
		f := t.Field(j)
		if !f.IsExported() || f.Tag.Get("json") == "-" {
			continue
		}
		if n++; n == i {
			return j
		}
	}
	return 0
}
