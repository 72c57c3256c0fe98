package tools

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"testing"

	"github.com/tent-tools/tent-tools/defchange"
	"github.com/tent-tools/tent-tools/diag"
)

// TestPointAnswersSchema: the answers that embed a point's facts and undo
// links write them as their own fields, and their schemas (MCP's output
// schemas) name exactly the fields the JSON has, in its order of writing.
func TestPointAnswersSchema(t *testing.T) {
	turn := 2
	facts := PointFacts{Point: 3, Time: "2026-03-01T10:00:00Z", Who: "ann", Agent: "a", Kind: "command", Turn: &turn, Tool: "edit", Summary: "s"}
	links := UndoLinks{Undid: []int{1}, UndoneBy: 4}
	more := []diag.More{{List: "files", Shown: 1, Cut: 1}}
	tests := []struct {
		name string
		v    any
		keys []string
	}{
		{"history's point", PointAnswer{PointFacts: facts, Files: []string{"a.ts"}, Changes: []ChangeSummary{}, UndoLinks: links, More: more},
			[]string{"point", "time", "who", "agent", "kind", "turn", "tool", "summary", "files", "changes", "undid", "undoneBy", "more"}},
		{"changedBy", ChangedByAnswer{PointFacts: facts, Change: defchange.DefChange{}, UndoLinks: links, More: more},
			[]string{"point", "time", "who", "agent", "kind", "turn", "tool", "summary", "change", "undid", "undoneBy", "more"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := json.Marshal(tt.v)
			if err != nil {
				t.Fatal(err)
			}
			dec := json.NewDecoder(bytes.NewReader(data))
			var keys []string
			dec.Token() // {
			for dec.More() {
				k, _ := dec.Token()
				keys = append(keys, k.(string))
				var skip json.RawMessage
				if err := dec.Decode(&skip); err != nil {
					t.Fatal(err)
				}
			}
			if !slices.Equal(keys, tt.keys) {
				t.Errorf("JSON keys %v; want %v", keys, tt.keys)
			}
			props := AnswerSchema(tt.v)["properties"].(map[string]any)
			if got := slices.Sorted(maps.Keys(props)); !slices.Equal(got, slices.Sorted(slices.Values(tt.keys))) {
				t.Errorf("schema properties %v; want %v", got, tt.keys)
			}
		})
	}
}
