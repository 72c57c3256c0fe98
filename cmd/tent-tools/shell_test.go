package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/internal/testneed"
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
	os.WriteFile(filepath.Join(dir, "deny.json"), []byte(`{"also": ["shell"], "deny": ["tables/**"]}`), 0o644)
	r = tentTools(t, dir, "", "--policy", "deny.json", "shell", "echo '// x' >> tables/orders.ts")
	if r.exit != 1 || !strings.HasPrefix(r.stderr, "T9105: ") || !strings.Contains(r.stderr, "put back") {
		t.Errorf("shell writing a denied file: exit %d, stderr %q; want T9105 that says it was put back", r.exit, r.stderr)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "tables", "orders.ts")); err != nil || strings.Contains(string(b), "// x") {
		t.Errorf("tables/orders.ts kept the refused change (%v)", err)
	}
	// --cwd runs in a folder of the project, held by the path rules.
	r = tentTools(t, dir, "", "--policy", "agent.json", "shell", "--cwd", "lib", "pwd")
	if r.exit != 0 || !strings.HasSuffix(strings.TrimSpace(strings.SplitN(r.stdout, "\n", 2)[0]), "/lib") {
		t.Errorf("shell --cwd lib pwd: exit %d, stdout %q, stderr %q", r.exit, r.stdout, r.stderr)
	}
	if r = tentTools(t, dir, "", "--policy", "agent.json", "shell", "--cwd", ".tent", "pwd"); r.exit != 1 || !strings.HasPrefix(r.stderr, "T9105: ") {
		t.Errorf("shell --cwd .tent: exit %d, stderr %q; want T9105", r.exit, r.stderr)
	}
	r = tentTools(t, dir, "", "--policy", "agent.json", "shell")
	if r.exit != 2 {
		t.Errorf("shell with nothing to run: exit %d, stderr %q; want 2", r.exit, r.stderr)
	}
}

// TestShellSandboxCommand runs the sandbox's promises through the binary:
// a child that leaves the session outlives nothing, engine.ts and the
// framework's and git's files stay as they were, the folder beside the
// project is not there.
func TestShellSandboxCommand(t *testing.T) {
	if _, err := exec.LookPath("bwrap"); err != nil {
		testneed.Missing(t, "bwrap (bubblewrap) is not installed: .ci/setup.d/25-bubblewrap.sh installs it")
	}
	dir := shop(t)
	policy := filepath.Join(t.TempDir(), "agent.json")
	os.WriteFile(policy, []byte(`{"also": ["shell"]}`), 0o644)
	os.WriteFile(filepath.Join(filepath.Dir(dir), "beside.txt"), []byte("BESIDE"), 0o644)
	engine, _ := os.ReadFile(filepath.Join(dir, "engine.ts"))
	r := tentTools(t, dir, "", "--policy", policy, "--json", "shell",
		"setsid sh -c 'sleep 1; echo // late >> engine.ts; echo late > late.txt' & { cat ../beside.txt; echo x > tent.d.ts; echo x > mcp.lock.json; mkdir -p .git/hooks; echo // x >> engine.ts; echo done; } 2>&1")
	var a struct {
		Output   string `json:"output"`
		Confined bool   `json:"confined"`
		Point    *int   `json:"point"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &a); err != nil || r.exit != 0 || !a.Confined || a.Point != nil || strings.Contains(a.Output, "BESIDE") || !strings.HasSuffix(a.Output, "done\n") {
		t.Fatalf("shell: exit %d, stdout %q, stderr %q (%v); want confined, nothing changed, nothing beside seen", r.exit, r.stdout, r.stderr, err)
	}
	time.Sleep(2 * time.Second)
	for _, name := range []string{"late.txt", "tent.d.ts", "mcp.lock.json", ".git"} {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s is there after the call", name)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "engine.ts")); string(b) != string(engine) {
		t.Error("engine.ts changed")
	}
	// The next call finds no change made outside.
	r = tentTools(t, dir, "", "--json", "history", "--newest", "1")
	if strings.Contains(r.stdout, `"outside"`) {
		t.Errorf("history after the call: %s; want no outside point", r.stdout)
	}
}

// TestShellUnconfinedFlag: where no sandbox can be had (no bwrap on PATH)
// shell is refused with T9145, and runs with --unconfined-shell.
func TestShellUnconfinedFlag(t *testing.T) {
	bin := t.TempDir()
	for _, prog := range []string{"sh", "echo"} {
		path, err := exec.LookPath(prog)
		if err != nil {
			t.Fatal(err)
		}
		os.Symlink(path, filepath.Join(bin, prog))
	}
	t.Setenv("PATH", bin)
	dir := shop(t)
	policy := filepath.Join(t.TempDir(), "agent.json")
	os.WriteFile(policy, []byte(`{"also": ["shell"]}`), 0o644)
	r := tentTools(t, dir, "", "--policy", policy, "shell", "echo ran")
	if r.exit != 1 || !strings.HasPrefix(r.stderr, "T9145: ") || !strings.Contains(r.stderr, "--unconfined-shell") {
		t.Errorf("shell without a sandbox: exit %d, stderr %q; want T9145 naming --unconfined-shell", r.exit, r.stderr)
	}
	r = tentTools(t, dir, "", "--policy", policy, "--unconfined-shell", "shell", "echo ran")
	if r.exit != 0 || !strings.HasPrefix(r.stdout, "ran\n") || !strings.Contains(r.stdout, "unconfined") {
		t.Errorf("shell --unconfined-shell: exit %d, stdout %q, stderr %q", r.exit, r.stdout, r.stderr)
	}
}
