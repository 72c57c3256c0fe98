package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestShellCommand(t *testing.T) {
	dir := shop(t)
	if err := os.WriteFile(filepath.Join(dir, "agent.json"), []byte(`{"also": ["shell"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	// The default policy refuses shell: nothing runs.
	r := tentTools(t, dir, "", "shell", "echo x > made.txt")
	if r.exit != 1 || !strings.HasPrefix(r.stderr, "T9105: ") {
		t.Errorf("shell without a policy: exit %d, stderr %q; want T9105", r.exit, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "made.txt")); err == nil {
		t.Error("shell without a policy ran its command")
	}
	r = tentTools(t, dir, "", "--policy", "agent.json", "shell", "echo note > notes.txt; echo done")
	if r.exit != 0 || !strings.HasPrefix(r.stdout, "done\nchanged notes.txt\n") || !strings.Contains(r.stdout, "point") {
		t.Errorf("shell COMMAND: exit %d, stdout %q, stderr %q", r.exit, r.stdout, r.stderr)
	}
	r = tentTools(t, dir, "", "--policy", "agent.json", "--json", "shell", "--timeout", "5", "--", "printf", "%s-", "-a", "b c")
	var a struct {
		ExitCode int      `json:"exitCode"`
		Output   string   `json:"output"`
		Files    []string `json:"files"`
		Point    *int     `json:"point"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &a); err != nil || r.exit != 0 || a.Output != "-a-b c-" || a.Point != nil || len(a.Files) != 0 {
		t.Errorf("shell -- ARGV: exit %d, stdout %q, stderr %q (%v)", r.exit, r.stdout, r.stderr, err)
	}
	// A refused change is put back and the refusal says so.
	r = tentTools(t, dir, "", "--policy", "agent.json", "shell", "echo '// x' >> engine.ts")
	if r.exit != 1 || !strings.HasPrefix(r.stderr, "T9105: ") || !strings.Contains(r.stderr, "put back") {
		t.Errorf("shell writing engine.ts: exit %d, stderr %q; want T9105 that says it was put back", r.exit, r.stderr)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "engine.ts")); err != nil || strings.Contains(string(b), "// x") {
		t.Errorf("engine.ts kept the refused change (%v)", err)
	}
	r = tentTools(t, dir, "", "--policy", "agent.json", "shell")
	if r.exit != 2 {
		t.Errorf("shell with nothing to run: exit %d, stderr %q; want 2", r.exit, r.stderr)
	}
}
