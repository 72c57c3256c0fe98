package main

import (
	"encoding/json"
	"fmt"

	"github.com/tent-tools/tent-tools/tools"
)

// answerData answers a tool's data answer as the Go type T: as it is
// where the tool ran here, decoded where it came as JSON from a project
// on another machine (-C HOST:PATH).
func answerData[T any](ans tools.Answer) (T, error) {
	var v T
	switch d := ans.Data.(type) {
	case T:
		return d, nil
	case json.RawMessage:
		if err := json.Unmarshal(d, &v); err != nil {
			return v, fmt.Errorf("the answer from the other machine: %w", err)
		}
		return v, nil
	}
	return v, fmt.Errorf("an answer of %T, not %T", ans.Data, v)
}
