package lsp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/internal/testneed"
)

// TestNodeClient runs the scenarios of lsp/testclient/client.js, a client
// on vscode-languageserver-protocol (VS Code's), against the binary. Its
// packages are pinned by package-lock.json; the CI's setup runs npm ci.
func TestNodeClient(t *testing.T) {
	node := needClient(t, "node")
	if _, err := os.Stat("testclient/node_modules/vscode-languageserver-protocol"); err != nil {
		testneed.Missing(t, "lsp/testclient/node_modules is missing; .ci/setup.d/40-lsp-clients.sh runs npm ci there")
	}
	for _, scenario := range []string{"diagnostics", "server", "noresources", "cancel", "call"} {
		t.Run(scenario, func(t *testing.T) {
			dir := copyShop(t)
			script, _ := filepath.Abs("testclient/client.js")
			cmd := exec.Command(node, script, binary, dir, scenario)
			var out []byte
			var err error
			done := make(chan struct{})
			go func() { out, err = cmd.CombinedOutput(); close(done) }()
			select {
			case <-done:
			case <-time.After(2 * time.Minute):
				cmd.Process.Kill()
				<-done
				t.Fatalf("the node client did not finish: %s", out)
			}
			if err != nil || !strings.Contains(string(out), "OK") {
				t.Fatalf("node client %s: %v\n%s", scenario, err, out)
			}
		})
	}
}
