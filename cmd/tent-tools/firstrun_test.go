package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/internal/sample"
	"github.com/tent-tools/tent-tools/internal/testneed"
)

// needGit skips t where git is missing, but fails it under CI, where every
// test must run.
func needGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		testneed.Missing(t, "git is needed: %v", err)
	}
}

// git runs git in dir and fails t when it fails.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=test", "-c", "user.email=test@example.com"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestFirstCommandLeavesSuiteAlone follows a newcomer: in a clone, the
// README's first command on the sample itself, then a write there too;
// the tests' copies of the sample are still what git tracks, so the suite
// answers as on a fresh clone (a copy carrying .tent/ once made an edit
// point 2 instead of 1).
func TestFirstCommandLeavesSuiteAlone(t *testing.T) {
	t.Parallel()
	needGit(t)
	clone := t.TempDir()
	shopDir := filepath.Join(clone, "testdata", "projects", "shop")
	if err := sample.CopyTo("../../testdata/projects/shop", shopDir); err != nil {
		t.Fatal(err)
	}
	gitignore, err := os.ReadFile("../../.gitignore")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(clone, ".gitignore"), gitignore, 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, clone, "init", "-q")
	git(t, clone, "add", "-A")
	git(t, clone, "commit", "-q", "-m", "the sample")
	tracked, err := sample.Files(shopDir)
	if err != nil {
		t.Fatal(err)
	}

	// The README's first command: a read, which leaves no history.
	r := tentTools(t, clone, "", "-C", "testdata/projects/shop", "map")
	if r.exit != 0 || !strings.Contains(r.stdout, "tables/orders.ts") {
		t.Fatalf("map: exit %d\n%s%s", r.exit, r.stdout, r.stderr)
	}
	historyDB := filepath.Join(shopDir, ".tent", "history.db")
	if _, err := os.Stat(historyDB); err == nil {
		t.Errorf("map, a read, made %s", historyDB)
	}

	// A write on the sample itself leaves state in its .tent/.
	r = tentTools(t, clone, "", "-C", "testdata/projects/shop", "edit", "project.ts", "--find", "'shop'", "--with", "'store'")
	if r.exit != 0 {
		t.Fatalf("edit: exit %d\n%s%s", r.exit, r.stdout, r.stderr)
	}
	if _, err := os.Stat(historyDB); err != nil {
		t.Fatalf("the edit recorded no history: %v", err)
	}

	// The suite's copies hold what git tracks: no .tent/, the same files.
	after, err := sample.Files(shopDir)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(after, tracked) {
		t.Errorf("the sample's files were\n%q\nand are now\n%q", tracked, after)
	}
	dir := sample.Copy(t, shopDir)
	if _, err := os.Stat(filepath.Join(dir, ".tent")); err == nil {
		t.Error("a copy of the sample carries .tent/")
	}
	if err := os.WriteFile(filepath.Join(dir, "agent.json"), []byte(`{"allow": ["**"], "also": ["engine"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	r = tentTools(t, dir, "", "--policy", "agent.json", "edit", "engine.ts", "--find", "shop@", "--with", "store@")
	if r.exit != 0 || !strings.Contains(r.stdout, "recorded as point 1 ") {
		t.Errorf("the first edit of a copy: exit %d\n%s%s", r.exit, r.stdout, r.stderr)
	}
}

// TestPlainUsage runs tent-tools with nothing: the usage, as help prints it.
func TestPlainUsage(t *testing.T) {
	t.Parallel()
	r := tentTools(t, t.TempDir(), "")
	help := tentTools(t, t.TempDir(), "", "help")
	if r.exit != 0 || !strings.HasPrefix(r.stdout, "usage: tent-tools ") || r.stdout != help.stdout || r.stderr != "" {
		t.Errorf("plain tent-tools: exit %d\nstdout:\n%s\nstderr:\n%s", r.exit, r.stdout, r.stderr)
	}
}
