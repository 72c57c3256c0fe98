package gitdiff

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/testneed"
)

// repo makes a repository in a new folder with files committed, and
// answers the folder.
func repo(t *testing.T, files map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		testneed.Missing(t, "git is not installed")
	}
	dir := t.TempDir()
	write(t, dir, files)
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "base"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, text := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSince: a changed line and a file git does not track are changed,
// a line left alone is not; each failure is T9135, naming the host where
// one is given.
func TestSince(t *testing.T) {
	dir := repo(t, map[string]string{"a.ts": "one\ntwo\nthree\n"})
	write(t, dir, map[string]string{"a.ts": "one\nTWO\nthree\n", "lib/new.ts": "x\n"})
	c, err := Since(context.Background(), dir, "HEAD", "")
	if err != nil {
		t.Fatal(err)
	}
	lines, err := c.Lines()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		path string
		line int
		want bool
	}{{"a.ts", 2, true}, {"a.ts", 1, false}, {"a.ts", 3, false}, {"lib/new.ts", 1, true}} {
		if got := lines.Touches(diag.Finding{Path: tt.path, Line: tt.line}); got != tt.want {
			t.Errorf("%s:%d changed %v; want %v", tt.path, tt.line, got, tt.want)
		}
	}

	noRepo := t.TempDir()
	for _, tt := range []struct {
		name, dir, ref, host, want string
	}{
		{"unknown ref", dir, "mian", "", "--changed-since mian: git knows no such commit"},
		{"unknown ref there", dir, "mian", "box", "--changed-since mian: git on box knows no such commit"},
		{"a ref like a flag", dir, "--output=x", "", `--changed-since "--output=x": a ref does not start with -`},
		{"no repository", noRepo, "HEAD", "", "--changed-since: the project is not in a git repository"},
		{"no repository there", noRepo, "HEAD", "box", "--changed-since: the project on box is not in a git repository"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Since(context.Background(), tt.dir, tt.ref, tt.host)
			var te *diag.ToolError
			if !errors.As(err, &te) || te.Code != diag.T9135 || !strings.HasPrefix(te.Message, tt.want) {
				t.Fatalf("error %v; want T9135 %q", err, tt.want)
			}
			if host, _ := te.Data["host"].(string); host != tt.host {
				t.Errorf("data host %q; want %q", host, tt.host)
			}
		})
	}
	t.Run("no git", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		_, err := Since(context.Background(), dir, "HEAD", "box")
		var te *diag.ToolError
		if !errors.As(err, &te) || te.Code != diag.T9135 || te.Message != "--changed-since needs git on box, which is not on the PATH there" {
			t.Errorf("error %v; want T9135, no git on box", err)
		}
	})
}
