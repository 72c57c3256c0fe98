package sample

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// TestEveryCopyGoesThroughSample holds the repository's tests to this
// package: a test file that names the sample projects copies them with
// Copy or CopyTo, never os.CopyFS, which would carry .tent/ and ignored
// files left by a person trying the tools on a sample.
func TestEveryCopyGoesThroughSample(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	copyFS := "os." + "CopyFS(" // not written whole, so this file does not match itself
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules" || (d.Name() == "testdata" && p != root)) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.Contains(string(src), "testdata/projects") || strings.Contains(string(src), `"testdata", "projects"`) {
			if strings.Contains(string(src), copyFS) {
				t.Errorf("%s copies a sample with os.CopyFS; use sample.Copy or sample.CopyTo (internal/sample)", p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
