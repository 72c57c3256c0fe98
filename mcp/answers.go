package mcp

import (
	"encoding/base64"
	"encoding/json"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tent-tools/tent-tools/check"
	"github.com/tent-tools/tent-tools/outline"
	"github.com/tent-tools/tent-tools/remove"
	"github.com/tent-tools/tent-tools/rename"
	"github.com/tent-tools/tent-tools/runner"
	"github.com/tent-tools/tent-tools/tools"
)

// answerTypes holds a value of each tool's data answer type, whose shape
// (tools.AnswerSchema) is the tool's output schema. A tool left out has
// no fixed shape to promise. shot has two (its picture, or with html its
// page), named in answerAlso.
var answerTypes = map[string]any{
	"changedBy": tools.ChangedByAnswer{},
	"check":     check.Answer{},
	"compare":   tools.CompareAnswer{},
	"docs":      tools.DocsAnswer{},
	"edit":      tools.Changed{},
	"history":   tools.HistoryAnswer{},
	"keys":      tools.KeysAnswer{},
	"list":      tools.ListAnswer{},
	"logs":      runner.Logs{},
	"map":       outline.Map{},
	"move":      tools.MoveAnswer{},
	"read":      tools.ReadAnswer{},
	"recall":    tools.RecallAnswer{},
	"remember":  tools.RememberAnswer{},
	"remove":    remove.Answer{},
	"rename":    rename.Answer{},
	"reset":     tools.ResetAnswer{},
	"rows":      runner.Rows{},
	"run":       runner.Result{},
	"search":    tools.SearchAnswer{},
	"shell":     tools.ShellAnswer{},
	"shot":      tools.ShotPicture{},
	"undo":      tools.UndoAnswer{},
	"write":     tools.Changed{},
}

// answerAlso holds a tool's other answer types, where it has more than one.
var answerAlso = map[string][]any{"shot": {tools.ShotPage{}}}

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

// outputSchema is the output schema of the tool name: its answer's shape
// or, on failure, the error's (a client holds an isError result's
// structuredContent to it too). Nil where the answer has no fixed shape.
func outputSchema(name string) map[string]any {
	v, ok := answerTypes[name]
	if !ok {
		return nil
	}
	shapes := []any{tools.AnswerSchema(v)}
	for _, also := range answerAlso[name] {
		shapes = append(shapes, tools.AnswerSchema(also))
	}
	return map[string]any{
		"type":  "object",
		"anyOf": append(shapes, errorSchema),
	}
}

// Annotations. A tool is read-only where it changes nothing at all: not
// the project's files (Tool.Writes) and not the workspace's other state
// either, which run (the test database), reset (the test database) and
// remember (the notes) change.
var changesState = map[string]bool{"run": true, "reset": true, "remember": true}

// destructive are the tools that may take away what was there: a file's
// text (write, undo), a definition or a file (remove), a file's place
// (move), the test database's rows (reset), anything (shell's command).
var destructive = map[string]bool{"remove": true, "write": true, "undo": true, "move": true, "reset": true, "shell": true}

// notIdempotent are the tools that change more when called again with the
// same input: edit (its with may hold its find), undo (it undoes the newest
// change, which is the last undo), run (app code), shell (any command).
var notIdempotent = map[string]bool{"edit": true, "undo": true, "run": true, "shell": true}

// openWorld are the tools that reach beyond the workspace: run may send
// mail (captured) or reach a host that engine.ts allows; shell's command
// may reach anything its process may.
var openWorld = map[string]bool{"run": true, "shell": true}

// annotations are a tool's hints, true for what it does.
func annotations(t tools.Tool) *sdk.ToolAnnotations {
	readOnly := !t.Writes && !changesState[t.Name]
	a := &sdk.ToolAnnotations{
		Title:          t.Name,
		ReadOnlyHint:   readOnly,
		IdempotentHint: readOnly || !notIdempotent[t.Name],
		OpenWorldHint:  boolRef(openWorld[t.Name]),
	}
	if !readOnly {
		a.DestructiveHint = boolRef(destructive[t.Name])
	}
	return a
}

func boolRef(b bool) *bool { return &b }

// pictureOf finds a picture in a data answer: a "png" field holding a
// base64 PNG (shot's answer, tools.md §7).
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
