package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/tent-tools/tent-tools/diag"
)

// Answer is what a tool answers: a text for a model to read, and the same
// answer as data, which marshals to the JSON of each tool's page in docs/pages/.
type Answer struct {
	Text string
	Data any
}

// ErrorData is the data answer of a failed tool, as every face prints it:
// {"error": {"code": "T9106", "message": "...", ...facts}}. An error that
// carries no code (a fault of the tool itself, not of its input) has only
// a message.
func ErrorData(err error) map[string]any {
	body := map[string]any{}
	var te *diag.ToolError
	if errors.As(err, &te) {
		for k, v := range te.Data {
			body[k] = v
		}
		body["code"] = te.Code
		body["message"] = te.Message
	} else {
		body["message"] = err.Error()
	}
	return map[string]any{"error": body}
}

// Line is one line of a file as an answer shows it: its 1-based number and
// its text without the line end.
type Line struct {
	Line int    `json:"line"`
	Text string `json:"text"`
	// Cut counts the bytes of a long line left out of Text where an answer
	// only echoes it (edit, write, the nearest lines of T9106): a one-line
	// file of 1 MB is not echoed whole.
	Cut int `json:"cut,omitempty"`
}

// Changed is the data answer of a tool that wrote a file (edit, write).
// Point is the history point recorded for the change, null where nothing
// changed.
type Changed struct {
	Path    string `json:"path"`
	Changed []Line `json:"changed"`
	Point   *int   `json:"point"`
	// Created says the file did not exist before.
	Created bool `json:"created,omitempty"`
	// Cut counts changed lines left out of Changed to keep the answer short.
	Cut int `json:"cut,omitempty"`
	// Tolerated lists the replacements of edit whose find matched only once
	// differences were set aside, what those were and the lines it matched.
	Tolerated []Tolerance `json:"tolerated,omitempty"`
}

// JSON renders a data answer as every face prints it: indented by two
// spaces, with "<", ">" and "&" left as they are (answers hold code), and
// a final newline.
func JSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// pointRef is a point's number as answers hold it: null for 0 (nothing
// was changed, so no point was recorded).
func pointRef(n int) *int {
	if n == 0 {
		return nil
	}
	return &n
}

// writePoint ends a text answer with the point recorded, where there is one.
func writePoint(b *strings.Builder, n int) {
	if n > 0 {
		fmt.Fprintf(b, "recorded as point %d (undo puts it back)\n", n)
	}
}
