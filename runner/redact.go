package runner

import (
	"encoding/json"

	"github.com/tent-tools/tent-tools/diag"
)

// hiddenValue stands in the log for a private value.
const hiddenValue = "(private)"

// redactJSON answers a JSON text with the value of every object key that
// names a private column of any table, or a private input field of any
// function, hidden: the log never shows a private value (tools.md §6). It
// goes by the key alone, so it may hide a value that only shares the name.
func redactJSON(a *app, text json.RawMessage) json.RawMessage {
	if len(text) == 0 {
		return json.RawMessage("{}")
	}
	v, err := decodeJSON(text)
	if err != nil {
		return text
	}
	out, err := json.Marshal(redact(a.private, v))
	if err != nil {
		return text
	}
	return out
}

// redact hides the values of private keys in a JSON value.
func redact(private map[string]bool, v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			if private[k] && val != nil {
				out[k] = hiddenValue
				continue
			}
			out[k] = redact(private, val)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, val := range x {
			out[i] = redact(private, val)
		}
		return out
	}
	return v
}

// redactError is a run's error as the log keeps it: without what the run
// logged and sent (the log keeps the run, not its output), its other facts
// redacted.
func redactError(a *app, te *diag.ToolError) *diag.ToolError {
	out := &diag.ToolError{Code: te.Code, Message: te.Message}
	for k, v := range te.Data {
		if k == "logged" || k == "sent" {
			continue
		}
		out.With(k, redact(a.private, v))
	}
	return out
}
