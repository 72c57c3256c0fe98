package sample

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestFilesOutsideGit lists a folder outside any repository by walking it:
// .tent/, .git/ and what its .gitignore names are left out.
func TestFilesOutsideGit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, text := range map[string]string{
		".gitignore":       "*.log\ndist/\n",
		"project.ts":       "export default {}\n",
		"tables/orders.ts": "x\n",
		"run.log":          "left by a run\n",
		"dist/app.js":      "built\n",
		".tent/history.db": "state\n",
		".git/HEAD":        "ref\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Files(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".gitignore", "project.ts", "tables/orders.ts"}
	if !slices.Equal(got, want) {
		t.Errorf("Files = %q; want %q", got, want)
	}
	copied, err := Files(Copy(t, dir))
	if err != nil || !slices.Equal(copied, want) {
		t.Errorf("the copy holds %q (%v); want %q", copied, err, want)
	}
}
