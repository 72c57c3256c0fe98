package mcp_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestShell calls shell over stdio: refused under the default policy,
// run where the policy's also names shell, its answer fitting its output
// schema and its change recorded as a point of the kind shell.
func TestShell(t *testing.T) {
	dir := copyProject(t, "shop")
	cs := connect(t, dir, nil, nil, "--caller", "ann")
	if got := errorCode(t, call(t, cs, "shell", `{"command": "echo x > made.txt"}`)); got != "T9105" {
		t.Errorf("shell under the default policy: code %q, want T9105", got)
	}
	policy := filepath.Join(t.TempDir(), "agent.json")
	if err := os.WriteFile(policy, []byte(`{"also": ["shell"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cs = connect(t, dir, nil, nil, "--policy", policy, "--caller", "ann")
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	res := call(t, cs, "shell", `{"command": "echo note > notes.txt; echo done"}`)
	if res.IsError {
		t.Fatalf("shell: %s", text(res))
	}
	for _, tool := range list.Tools {
		if tool.Name == "shell" && tool.OutputSchema != nil {
			validate(t, "shell's answer", compile(t, "output:shell", tool.OutputSchema), res.StructuredContent)
		}
	}
	a := structured(t, res)
	if a["output"] != "done\n" || a["point"] == nil {
		t.Errorf("answer %v; want output done and a point", a)
	}
	h := structured(t, call(t, cs, "history", `{"newest": 1}`))
	points, _ := h["points"].([]any)
	if len(points) != 1 || points[0].(map[string]any)["kind"] != "shell" || points[0].(map[string]any)["who"] != "ann" {
		t.Errorf("newest point %v; want the shell's, by ann", points)
	}
}
