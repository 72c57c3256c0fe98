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

// TestNeovimSnippet runs the Neovim snippet of docs/pages/lsp.md (the
// README's is held to be the same) as Neovim's init.lua, with Neovim
// started in the folder above the project (snippet.lua): the root is
// found upward, one server serves the project's three files, the keymaps
// are set and hover answers; nothing is made in the folder above.
func TestNeovimSnippet(t *testing.T) {
	nvim := needClient(t, "nvim")
	snippet := luaBlock(t, "../docs/pages/lsp.md", "Neovim (0.7 and later")
	if readme := luaBlock(t, "../README.md", "In Neovim (0.7 or later"); readme != snippet {
		t.Errorf("the README's Neovim snippet differs from docs/pages/lsp.md's:\n%s", readme)
	}
	const cmd = "cmd = { 'tent-tools', 'lsp' }"
	if !strings.Contains(snippet, cmd) {
		t.Fatalf("the snippet has no %s:\n%s", cmd, snippet)
	}
	init := filepath.Join(t.TempDir(), "init.lua")
	if err := os.WriteFile(init, []byte(strings.Replace(snippet, cmd, "cmd = { '"+binary+"', 'lsp' }", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	parent := t.TempDir()
	project := filepath.Join(parent, "shop")
	if err := os.Rename(copyShop(t), project); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(parent, "outside.ts"), []byte("export const x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	scripts, err := filepath.Abs("testdata/nvim")
	if err != nil {
		t.Fatal(err)
	}
	c := exec.Command(nvim, "--headless", "-u", init, "-i", "NONE", "-n", "-c", "luafile "+filepath.Join(scripts, "snippet.lua"))
	c.Dir = parent
	c.Env = append(os.Environ(), "TENT_ROOT="+project, "TENT_REL=shop",
		"XDG_CONFIG_HOME="+t.TempDir(), "XDG_DATA_HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir(), "XDG_CACHE_HOME="+t.TempDir())
	done := make(chan struct{})
	var out []byte
	go func() {
		out, err = c.CombinedOutput()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		c.Process.Kill()
		<-done
		t.Fatalf("nvim did not finish: %s", out)
	}
	if err != nil || !strings.Contains(string(out), "OK") {
		t.Fatalf("nvim with the snippet: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(parent, ".tent")); !os.IsNotExist(err) {
		t.Errorf("the folder above the project got a .tent/ (%v)", err)
	}
}

// luaBlock is the first ```lua block after the line that starts with
// after in the file at path.
func luaBlock(t *testing.T, path, after string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	at := strings.Index(text, after)
	if at < 0 {
		t.Fatalf("%s has no %q", path, after)
	}
	text = text[at:]
	start := strings.Index(text, "```lua\n")
	if start < 0 {
		t.Fatalf("%s has no ```lua block after %q", path, after)
	}
	text = text[start+len("```lua\n"):]
	end := strings.Index(text, "\n```")
	if end < 0 {
		t.Fatalf("the ```lua block of %s does not end", path)
	}
	return text[:end+1]
}
