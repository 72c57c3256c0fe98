package lsp

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/internal/testneed"
)

// needClient finds a real editor or client on the PATH. Without it the
// test is skipped on a developer's machine and fails in CI (CI=true),
// whose setup (.ci/setup.d/40-lsp-clients.sh) installs it.
func needClient(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		testneed.Missing(t, "%s is not installed; .ci/setup.d/40-lsp-clients.sh installs it", name)
	}
	return p
}

// runNvim runs one Lua scenario in a headless Neovim on dir.
func runNvim(t *testing.T, nvim, dir, script, answer string) {
	t.Helper()
	scripts, err := filepath.Abs("testdata/nvim")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", "luafile "+filepath.Join(scripts, script))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TENT_ROOT="+dir, "TENT_BIN="+binary, "TENT_SCRIPTS="+scripts, "TENT_ANSWER="+answer,
		"XDG_CONFIG_HOME="+t.TempDir(), "XDG_DATA_HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir(), "XDG_CACHE_HOME="+t.TempDir())
	done := make(chan struct{})
	var out []byte
	go func() {
		out, err = cmd.CombinedOutput()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		<-done
		t.Fatalf("nvim %s did not finish: %s", script, out)
	}
	if err != nil || !strings.Contains(string(out), "OK") {
		t.Fatalf("nvim %s: %v\n%s", script, err, out)
	}
}

func TestNeovim(t *testing.T) {
	nvim := needClient(t, "nvim")
	for _, tc := range []struct {
		name, script, answer string
		target, to           string // the rename it makes, "" for none
	}{
		{"break and fix a ref, rename a column", "rename_column.lua", "", "orders.buyer", "customer"},
		{"rename a table, its test data file moved", "rename_table.lua", "", "orders", "purchases"},
		{"ask answered yes", "ask.lua", "Yes", "orders.buyer", "customer"},
		{"ask answered no", "ask.lua", "No", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyShop(t)
			before := snapshot(t, dir)
			runNvim(t, nvim, dir, tc.script, tc.answer)
			after := snapshot(t, dir)
			if tc.target == "" {
				if !reflect.DeepEqual(before, after) {
					t.Errorf("a refused rename changed files")
				}
				return
			}
			want := cliRename(t, tc.target, tc.to)
			for p := range want {
				if after[p] != want[p] {
					t.Errorf("%s differs from tent-tools rename's", p)
				}
			}
			for p := range after {
				if _, ok := want[p]; !ok {
					t.Errorf("%s is left; tent-tools rename leaves none", p)
				}
			}
			points := historyOf(t, dir)
			if len(points) != 1 || points[0].Kind != "command" || points[0].Who != "ann" || points[0].Agent != "nvim" || points[0].Tool != "rename" {
				t.Errorf("history: %+v; want exactly one point, a rename of kind command by ann through nvim", points)
			}
		})
	}
}
