package workspace

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/internal/sample"
)

// shopDir is the sample project; tests act on copies of it, never on it.
const shopDir = "../testdata/projects/shop"

// copyProject copies the sample project folder src, as git tracks it,
// into a new temporary folder and returns the copy's path.
func copyProject(t testing.TB, src string) string {
	t.Helper()
	return sample.Copy(t, src)
}

// openCopy opens a workspace over a copy of the sample project.
func openCopy(t testing.TB) (*Workspace, string) {
	t.Helper()
	dir := copyProject(t, shopDir)
	w, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w, dir
}

// writeThrough writes the whole text of the file rel through the change
// pipeline, as the write tool does: resolved, staged, judged, committed.
func writeThrough(w *Workspace, rel, text string) error {
	ctx := context.Background()
	view, release, err := w.Enter(ctx, "write", true)
	if err != nil {
		return err
	}
	defer release()
	p, err := view.Resolve(rel, true)
	if err != nil {
		return err
	}
	old, mode, err := view.Current(p)
	if err != nil {
		return err
	}
	st := &Stage{Summary: "write " + p}
	st.Put(p, old, true, mode, []byte(text))
	_, err = view.CommitStage(ctx, nil, st)
	return err
}

// openFiles opens a workspace over a new folder holding files (path ->
// text).
func openFiles(t testing.TB, files map[string]string) (*Workspace, string) {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w, dir
}

// noTemps fails t where a temporary file or a journal text is left in
// the project folder dir.
func noTemps(t *testing.T, dir string) {
	t.Helper()
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(p, ".tmp") {
			t.Errorf("temporary file left: %s", p)
		}
		return nil
	})
	entries, _ := os.ReadDir(filepath.Join(dir, ".tent", "tmp"))
	for _, e := range entries {
		t.Errorf("journal text left: .tent/tmp/%s", e.Name())
	}
}
