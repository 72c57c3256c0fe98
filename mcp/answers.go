package mcp

import (
	"encoding/base64"
	"encoding/json"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tent-tools/tent-tools/tools"
)

// errorSchema is the shape of a failed tool's structuredContent.
var errorSchema = map[string]any{
	"type":     "object",
	"required": []any{"error"},
	"properties": map[string]any{
		"error": map[string]any{
			"type":       "object",
			"required":   []any{"message"},
			"properties": map[string]any{"code": map[string]any{"type": "string"}, "message": map[string]any{"type": "string"}},
		},
	},
}

// outputSchema is the output schema of the tool t: the shapes of its
// answers (its registration's Answer and Also) or, on failure, the
// error's (a client holds an isError result's structuredContent to it
// too). Nil for a tool that states no answer type.
func outputSchema(t tools.Tool) map[string]any {
	if t.Answer == nil {
		return nil
	}
	shapes := []any{tools.AnswerSchema(t.Answer)}
	for _, also := range t.Also {
		shapes = append(shapes, tools.AnswerSchema(also))
	}
	return map[string]any{
		"type":  "object",
		"anyOf": append(shapes, errorSchema),
	}
}

// annotations are a tool's hints, as its registration states its facts
// (tools.Tool: ReadOnly, Additive, Idempotent, Local).
func annotations(t tools.Tool) *sdk.ToolAnnotations {
	a := &sdk.ToolAnnotations{
		Title:          t.Name,
		ReadOnlyHint:   t.ReadOnly,
		IdempotentHint: t.ReadOnly || t.Idempotent,
		OpenWorldHint:  boolRef(!t.Local),
	}
	if !t.ReadOnly {
		a.DestructiveHint = boolRef(!t.Additive)
	}
	return a
}

func boolRef(b bool) *bool { return &b }

// pictureOf finds a picture in a data answer: a "png" field holding a
// base64 PNG (shot's answer, docs/pages/shot.md).
func pictureOf(obj map[string]json.RawMessage) ([]byte, bool) {
	raw, ok := obj["png"]
	if !ok {
		return nil, false
	}
	var b64 string
	if json.Unmarshal(raw, &b64) != nil {
		return nil, false
	}
	png, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(png) < 8 || string(png[1:4]) != "PNG" {
		return nil, false
	}
	return png, true
}
