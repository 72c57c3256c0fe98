package changetest

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// TestLoadWhileStateSaves loads a project folder while its state folder
// changes underneath, as a workspace's background save of the index cache
// does (.tent/index.new written, then renamed over .tent/index): Load
// reads the project's files, never the framework's state, so it neither
// fails on a file renamed away between listing and reading nor answers
// one (the flake of TestApplyStale under -race).
func TestLoadWhileStateSaves(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, ".tent")
	if err := os.MkdirAll(filepath.Join(dir, "tables"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(state, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tables", "a.ts"), []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var saver sync.WaitGroup
	saver.Add(1)
	go func() {
		defer saver.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			os.WriteFile(filepath.Join(state, "index.new"), []byte("cache"), 0o644)
			os.Rename(filepath.Join(state, "index.new"), filepath.Join(state, "index"))
		}
	}()
	defer func() { close(stop); saver.Wait() }()
	for range 2000 {
		files := Load(t, dir)
		if len(files) != 1 || string(files["tables/a.ts"]) != "a" {
			t.Fatalf("Load answered %d files: %v", len(files), keys(files))
		}
	}
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
