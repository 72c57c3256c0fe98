package gitexcludes

import (
	"os"
	"path/filepath"
	"testing"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLoad reads info/exclude and the global file as git does: the
// default global file, one core.excludesFile names (the repository's
// config over the user's), patterns from the repository's root for a
// project in a subfolder, and nothing outside a repository.
func TestLoad(t *testing.T) {
	home := t.TempDir()
	repo := t.TempDir()
	write(t, filepath.Join(repo, ".git/info/exclude"), "# local\nscratch/\n/app/top.txt\n")
	write(t, filepath.Join(home, ".config/git/ignore"), "*.bak\n")
	env := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	app := filepath.Join(repo, "app")
	os.MkdirAll(app, 0o755)
	r := Load(app, env)
	for _, tt := range []struct {
		rel   string
		isDir bool
		want  bool
	}{
		{"scratch", true, true},
		{"scratch/x.ts", false, true},
		{"lib/scratch/x.ts", false, true},
		{"top.txt", false, true}, // /app/top.txt from the repository's root
		{"lib/top.txt", false, false},
		{"notes.bak", false, true},
		{"tables/orders.ts", false, false},
	} {
		if got := r.Excluded(tt.rel, tt.isDir); got != tt.want {
			t.Errorf("Excluded(%s) = %v, want %v", tt.rel, got, tt.want)
		}
	}

	// core.excludesFile in ~/.gitconfig, then the repository's config.
	write(t, filepath.Join(home, ".gitconfig"), "[user]\n\tname = x\n[core]\n\texcludesFile = ~/my-ignore\n")
	write(t, filepath.Join(home, "my-ignore"), "*.tmp\n")
	r = Load(app, env)
	if !r.Excluded("a.tmp", false) || r.Excluded("a.bak", false) {
		t.Errorf("~/.gitconfig's core.excludesFile not read: a.tmp %v, a.bak %v", r.Excluded("a.tmp", false), r.Excluded("a.bak", false))
	}
	write(t, filepath.Join(repo, ".git/config"), "[Core]\n\tExcludesFile = \""+filepath.Join(home, "repo-ignore")+"\"\n")
	write(t, filepath.Join(home, "repo-ignore"), "*.out\n")
	r = Load(app, env)
	if !r.Excluded("a.out", false) || r.Excluded("a.tmp", false) {
		t.Errorf("the repository's core.excludesFile does not win")
	}

	// A linked worktree: .git is a file; info/ is in the common folder.
	wt := t.TempDir()
	write(t, filepath.Join(repo, ".git/worktrees/w/commondir"), "../..\n")
	write(t, filepath.Join(wt, ".git"), "gitdir: "+filepath.Join(repo, ".git/worktrees/w")+"\n")
	if r := Load(wt, env); !r.Excluded("scratch/x.ts", false) {
		t.Errorf("a linked worktree does not read the common info/exclude")
	}

	// Outside a repository nothing applies.
	if r := Load(t.TempDir(), env); r.Excluded("notes.bak", false) {
		t.Errorf("the global file applied outside a repository")
	}
}
