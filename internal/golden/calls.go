package golden

import (
	"encoding/json"
	"os"
	"testing"
)

// Call is one of the Go API's golden tool calls (tools/testdata/calls.json),
// which the CLI, MCP and remote tests run too, so the faces cannot drift.
type Call struct {
	Name  string          `json:"name"`
	Tool  string          `json:"tool"`
	Input json.RawMessage `json:"input"`
	// Show names a file whose content after the call goes into the golden.
	Show string `json:"show,omitempty"`
}

// Calls reads the golden calls from path (tools/testdata/calls.json,
// relative to the test's package folder), failing t where it cannot.
func Calls(t testing.TB, path string) []Call {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var calls []Call
	if err := json.Unmarshal(b, &calls); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return calls
}
