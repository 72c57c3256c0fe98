package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSearchAndListAsGit: search and list through the binary leave out
// hidden files unless --hidden or a glob names one, list every file for an
// empty TEXT with --files-only, and leave out what .git/info/exclude and
// the global excludes file (core.excludesFile, default
// $XDG_CONFIG_HOME/git/ignore) name, as git does.
func TestSearchAndListAsGit(t *testing.T) {
	dir := shop(t)
	config := t.TempDir()
	files := map[string]string{
		".env":                              "SECRET=placedAt\n",
		".github/workflows/ci.yml":          "on: push # placedAt\n",
		".git/info/exclude":                 "# mine\nscratch/\n",
		"scratch/notes.ts":                  "// placedAt\n",
		"lib/old.bak":                       "placedAt\n",
		filepath.Join(config, "git/ignore"): "*.bak\n",
	}
	for name, text := range files {
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, name)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(args ...string) (string, string, int) {
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+config)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		code := 0
		if e, ok := err.(*exec.ExitError); ok {
			code = e.ExitCode()
		}
		return out.String(), errOut.String(), code
	}
	tests := []struct {
		args     []string
		has, not []string
	}{
		{[]string{"search", "placedAt", "--files-only"}, []string{"tables/orders.ts"}, []string{".env", ".github", "scratch/", "old.bak"}},
		{[]string{"search", "placedAt", "--files-only", "--hidden"}, []string{".env", ".github/workflows/ci.yml"}, []string{"scratch/", "old.bak"}},
		{[]string{"search", "placedAt", "--files-only", "--include", "**/.env"}, []string{".env"}, []string{"tables/orders.ts"}},
		{[]string{"search", "placedAt", "--in", "scratch"}, []string{"scratch/notes.ts:1"}, nil},
		{[]string{"search", "", "--files-only"}, []string{"project.ts", "tables/orders.ts", "testdata/users.json"}, []string{".gitignore", ".env", "scratch/"}},
		{[]string{"list", "--depth", "1"}, []string{"tables/"}, []string{".gitignore", ".github", ".env", "scratch"}},
		{[]string{"list", "--depth", "1", "--hidden"}, []string{".gitignore", ".github/", ".env"}, []string{"scratch"}},
		{[]string{"list", "--glob", ".github/**"}, []string{".github/workflows/ci.yml"}, nil},
		{[]string{"list", "lib"}, []string{"money.ts"}, []string{"old.bak"}},
	}
	for _, tt := range tests {
		out, errOut, code := run(tt.args...)
		if code != 0 {
			t.Errorf("%v: exit %d: %s", tt.args, code, errOut)
			continue
		}
		for _, h := range tt.has {
			if !strings.Contains(out, h) {
				t.Errorf("%v: no %q in\n%s", tt.args, h, out)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(out, n) {
				t.Errorf("%v: %q in\n%s", tt.args, n, out)
			}
		}
	}
	if _, errOut, code := run("search", ""); code != 1 || !strings.Contains(errOut, "give filesOnly: true (or count) to list every file") {
		t.Errorf("search '': exit %d, %s", code, errOut)
	}
}
