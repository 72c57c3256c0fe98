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
		for _, f := range jsonFields(t) {
			fs := schemaOf(f.typ)
			if f.doc != "" {
				fs["description"] = f.doc
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

var (
	jsonMarshaler = reflect.TypeOf((*json.Marshaler)(nil)).Elem()
	textMarshaler = reflect.TypeOf((*interface{ MarshalText() ([]byte, error) })(nil)).Elem()
)

// AnswerSchema returns the JSON Schema of a data answer (each tool's page in docs/pages/) of
// the Go type of v, by the rules encoding/json writes it with: a field
// with omitempty may be missing, a pointer, slice or map may be null, a
// type that marshals itself may be anything. Unlike an input, an answer
// may gain fields (§7: more fields may come), so other properties are
// allowed. The MCP face publishes it as a tool's output schema.
func AnswerSchema(v any) map[string]any {
	return answerSchemaOf(reflect.TypeOf(v))
}

// answerSchemaOf is the schema of the JSON that encoding/json writes for t.
func answerSchemaOf(t reflect.Type) map[string]any {
	if t.Implements(jsonMarshaler) || t.Implements(textMarshaler) ||
		reflect.PointerTo(t).Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(textMarshaler) {
		return map[string]any{} // it writes itself: any JSON value
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice:
		if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
			return nullable(map[string]any{"type": "string"}) // []byte: base64
		}
		var s map[string]any
		switch t.Kind() {
		case reflect.Pointer:
			s = answerSchemaOf(t.Elem())
		case reflect.Map:
			s = map[string]any{"type": "object", "additionalProperties": answerSchemaOf(t.Elem())}
		default:
			s = map[string]any{"type": "array", "items": answerSchemaOf(t.Elem())}
		}
		return nullable(s)
	case reflect.Array:
		return map[string]any{"type": "array", "items": answerSchemaOf(t.Elem())}
	case reflect.Struct:
		props := map[string]any{}
		required := []string{}
		for _, f := range jsonFields(t) {
			props[f.name] = answerSchemaOf(f.typ)
			if f.required {
				required = append(required, f.name)
			}
		}
		s := map[string]any{"type": "object", "properties": props}
		if len(required) > 0 {
			s["required"] = required
		}
		return s
	case reflect.Interface:
		return map[string]any{}
	}
	return schemaOf(t)
}

// nullable lets a schema's value also be null (a nil pointer, slice or map).
func nullable(s map[string]any) map[string]any {
	switch typ := s["type"].(type) {
	case string:
		s["type"] = []any{typ, "null"}
		return s
	case nil:
		if len(s) == 0 {
			return s // any value already
		}
	}
	return map[string]any{"anyOf": []any{s, map[string]any{"type": "null"}}}
}
