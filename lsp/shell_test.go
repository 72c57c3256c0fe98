package lsp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestShellUnconfinedFlag: where no sandbox can be had (no bwrap on the
// server's PATH) shell through tent/call is T9145, and runs where the
// server was started with --unconfined-shell.
func TestShellUnconfinedFlag(t *testing.T) {
	path := t.TempDir()
	for _, prog := range []string{"sh", "echo"} {
		p, err := exec.LookPath(prog)
		if err != nil {
			t.Fatal(err)
		}
		os.Symlink(p, filepath.Join(path, prog))
	}
	t.Setenv("PATH", path)
	shell := map[string]any{"policy": map[string]any{"also": []string{"shell"}}}
	call := map[string]any{"tool": "shell", "input": map[string]any{"command": "echo ran"}}

	c := start(t, copyShop(t))
	c.initialize(map[string]any{}, shell)
	if res, err := c.call("tent/call", call); err == nil || !strings.Contains(err.Message+string(err.Data), "T9145") {
		t.Errorf("shell without a sandbox: %s, %v; want T9145", res, err)
	}
	c = start(t, copyShop(t), "--unconfined-shell")
	c.initialize(map[string]any{}, shell)
	res := string(c.must("tent/call", call))
	if !strings.Contains(res, `"confined":false`) || !strings.Contains(res, `ran\n`) {
		t.Errorf("shell with --unconfined-shell: %s; want it run unconfined", res)
	}
}
