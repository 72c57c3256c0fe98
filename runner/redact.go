package runner

import (
	"encoding/json"

	"github.com/tent-tools/tent-tools/diag"
)

// hiddenValue stands in the log for a private value.
const hiddenValue = "(private)"

// redactJSON answers a JSON text as the log keeps it (docs/pages/run.md): the
// value of every object key that names a private column of any table, or
// a private input field of any function, is hidden (by the key alone, so
// it may hide a value that only shares the name); and so is every private
// value the run was handed (secrets), wherever it stands: under another
// key, in an array, inside a longer text. A text that is not JSON is kept
// as a JSON string, cleaned the same way.
func redactJSON(a *app, secrets *secretSet, text json.RawMessage) json.RawMessage {
	if len(text) == 0 {
		return json.RawMessage("{}")
	}
	v, err := decodeJSON(text)
	if err != nil {
		v = string(text)
	}
	out, err := json.Marshal(secrets.hideValues(redact(a.private, v)))
	if err != nil {
		return json.RawMessage("null")
	}
	return out
}

// hideValues replaces the secrets in a JSON value's texts and numbers,
// keeping its keys.
func (ss *secretSet) hideValues(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			x[k] = ss.hideValues(val)
		}
		return x
	case []any:
		for i, val := range x {
			x[i] = ss.hideValues(val)
		}
		return x
	case string:
		return ss.hideText(x)
	case float64:
		if t, ok := secretText(x); ok && ss.values[t] {
			return hiddenValue
		}
	}
	return v
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
// logged and sent (the log keeps the run, not its output), its message and
// other facts redacted.
func redactError(a *app, secrets *secretSet, te *diag.ToolError) *diag.ToolError {
	out := &diag.ToolError{Code: te.Code, Message: secrets.hideText(te.Message)}
	for k, v := range te.Data {
		if k == "logged" || k == "sent" {
			continue
		}
		if b, err := json.Marshal(v); err == nil {
			if dv, err := decodeJSON(b); err == nil {
				v = dv
			}
		}
		out.With(k, secrets.hideValues(redact(a.private, v)))
	}
	return out
}
