package workspace

import (
	"context"
	"testing"

	"github.com/tent-tools/tent-tools/internal/sample"
)

// shopDir is the sample project; tests act on copies of it, never on it.
const shopDir = "../../testdata/projects/shop"

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
	w, err := New(dir, Options{})
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
	sample.Write(t, dir, files)
	w, err := New(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w, dir
}
