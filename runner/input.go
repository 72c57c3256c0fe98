package runner

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/tent-tools/tent-tools/schema"
)

// checkInput checks a run's input against the declared fields and answers
// it with the defaults filled in: every declared field must fit its type,
// a required field without a default must be there, and, unless lenient,
// no other key may be. A flow's steps are lenient: each gets the flow's
// input with the previous step's result spread over it (docs/pages/format.md §2.3).
// The error says every problem, in key order.
func checkInput(fields []*schema.Column, raw any, lenient bool) (map[string]any, error) {
	if raw == nil {
		raw = map[string]any{}
	}
	in, ok := raw.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("input is an object, got %s", schema.JSONKind(raw))
	}
	out := make(map[string]any, len(in)+len(fields))
	var problems []string
	declared := map[string]bool{}
	for _, c := range fields {
		declared[c.Name] = true
		v, ok := in[c.Name]
		if !ok {
			if c.Default == nil && !c.Optional {
				problems = append(problems, fmt.Sprintf("%s is required (%s)", c.Name, c.Type))
				continue
			}
			v = c.Default
		}
		if err := schema.CheckValue(c, v); err != nil {
			problems = append(problems, err.Error())
			continue
		}
		out[c.Name] = v
	}
	keys := make([]string, 0, len(in))
	for k := range in {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if declared[k] {
			continue
		}
		if !lenient {
			problems = append(problems, fmt.Sprintf("%s is no input field (fields: %s)", k, fieldNames(fields)))
			continue
		}
		out[k] = in[k]
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(problems, "; "))
	}
	return out, nil
}

// fieldNames lists the declared fields for a message.
func fieldNames(fields []*schema.Column) string {
	if len(fields) == 0 {
		return "none"
	}
	names := make([]string, len(fields))
	for i, c := range fields {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}

// decodeJSON decodes a JSON text into JSON values; an empty text is null.
func decodeJSON(text []byte) (any, error) {
	if len(strings.TrimSpace(string(text))) == 0 {
		return nil, nil
	}
	var v any
	if err := json.Unmarshal(text, &v); err != nil {
		return nil, err
	}
	return v, nil
}
