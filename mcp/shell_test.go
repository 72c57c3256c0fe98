package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/internal/testneed"
	"github.com/tent-tools/tent-tools/tools"
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

// TestShellHostConfined: in host mode a tenant whose policy lets shell
// runs its commands confined to its own workspace: the host's tokens file
// (beside the workspaces and in their folder), another tenant's files and
// history are not there to read or write.
func TestShellHostConfined(t *testing.T) {
	if _, err := exec.LookPath("bwrap"); err != nil {
		testneed.Missing(t, "bwrap (bubblewrap) is not installed: .ci/setup.d/25-bubblewrap.sh installs it")
	}
	shell := &tools.Policy{Also: []string{"shell"}}
	var idB, tokA string
	f := newHost(t, map[string]*tools.Policy{"builder": shell}, func(f *hostFixture) {
		_, tokA = f.create(t, "ann", "builder")
		idB, _ = f.create(t, "bob", "builder")
	})
	const secret = "SECRET-OF-B"
	bOrders := filepath.Join(f.dir, idB, "tables", "orders.ts")
	b, _ := os.ReadFile(bOrders)
	if err := os.WriteFile(bOrders, append(b, []byte("// "+secret+"\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	tokens, _ := json.Marshal(f.grants)
	beside := filepath.Join(filepath.Dir(f.dir), "tokens.json")
	for _, p := range []string{beside, filepath.Join(f.dir, "tokens.json")} {
		if err := os.WriteFile(p, tokens, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	before := listing(t, filepath.Join(f.dir, idB))
	cs := connectHTTP(t, f.url, tokA, nil, nil)
	command := fmt.Sprintf("cat ../tokens.json %s; ls -A ..; cat ../%s/tables/orders.ts; echo '// x' >> ../%s/tables/orders.ts; rm -rf ../%s/.tent; echo done",
		beside, idB, idB, idB)
	res := call(t, cs, "shell", fmt.Sprintf(`{"command": %q}`, command))
	all, _ := json.Marshal(res)
	if res.IsError || !strings.Contains(text(res), "done") {
		t.Fatalf("shell: %s", all)
	}
	for _, leak := range []string{secret, "token-", "\n" + idB + "\n"} {
		if strings.Contains(text(res), leak) {
			t.Errorf("the command of A saw %q: %s", leak, all)
		}
	}
	if after := listing(t, filepath.Join(f.dir, idB)); after != before {
		t.Errorf("B's folder changed:\n%s\nwas\n%s", after, before)
	}
	if n := points(t, f, idB, "bob"); n != 0 {
		t.Errorf("B has %d points, want none", n)
	}
}

// listing is every file under dir with its size and content's start, one
// a line.
func listing(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, "%s %d %x\n", p, len(data), data[:min(len(data), 64)])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestShellUnconfinedFlag: where no sandbox can be had (no bwrap on the
// server's PATH) shell over MCP is T9145, and runs where the operator
// started the server with --unconfined-shell.
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
	dir := copyProject(t, "shop")
	policy := filepath.Join(t.TempDir(), "agent.json")
	os.WriteFile(policy, []byte(`{"also": ["shell"]}`), 0o644)
	cs := connect(t, dir, nil, nil, "--policy", policy)
	if got := errorCode(t, call(t, cs, "shell", `{"command": "echo ran"}`)); got != "T9145" {
		t.Errorf("shell without a sandbox: code %q, want T9145", got)
	}
	cs = connect(t, dir, nil, nil, "--policy", policy, "--unconfined-shell")
	res := call(t, cs, "shell", `{"command": "echo ran"}`)
	if a := structured(t, res); res.IsError || a["output"] != "ran\n" || a["confined"] != false {
		t.Errorf("shell --unconfined-shell: %s", text(res))
	}
}
