package tools

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/diag"
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
func openCopy(t testing.TB, opts Options) (*Workspace, string) {
	t.Helper()
	dir := copyProject(t, shopDir)
	w, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w, dir
}

// openFiles opens a workspace over a new folder holding files (path ->
// text).
func openFiles(t testing.TB, files map[string]string) (*Workspace, string) {
	t.Helper()
	dir := t.TempDir()
	sample.Write(t, dir, files)
	w, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w, dir
}

// call runs a tool with its input as JSON text.
func call(w *Workspace, name, input string) (Answer, error) {
	return Call(context.Background(), w, name, json.RawMessage(input))
}

// wantCode fails t unless err is a tool error with the code, and returns it.
func wantCode(t testing.TB, err error, code string) *diag.ToolError {
	t.Helper()
	var te *diag.ToolError
	if !errors.As(err, &te) {
		t.Fatalf("got error %v; want %s", err, code)
	}
	if te.Code != code {
		t.Fatalf("got %s (%s); want %s", te.Code, te.Message, code)
	}
	return te
}

// readFile returns a file's content, failing t if it cannot.
func readFile(t testing.TB, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// snapshot returns every file under dir with its content and mode, to
// compare a tree before and after a tool ran.
func snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if frameworkState(rel) {
			// Before its stat: a background save of the index cache
			// renames index.new away between the folder's listing and it.
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if d.IsDir() && filepath.Base(rel) == ".tent" {
			return nil // made by the first call; what it holds is compared
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			files[rel] = "link -> " + target
		case d.IsDir():
			files[rel] = "folder " + info.Mode().String()
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			files[rel] = info.Mode().String() + " " + string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// frameworkState reports whether a path (relative to a snapshot's folder)
// is one of the files the framework keeps in a project's .tent/ for
// itself: its history, notes, index cache, locks and journal. Tools change them; a
// snapshot of the project leaves them out.
func frameworkState(rel string) bool {
	dir, name := filepath.Split(filepath.ToSlash(rel))
	if filepath.Base(strings.TrimSuffix(dir, "/")) != ".tent" {
		return false
	}
	for _, own := range []string{"history.db", "notes.db", "index", "index.new", "write.lock", "read.lock", "tmp"} {
		if name == own || strings.HasPrefix(name, own+"-") {
			return true
		}
	}
	return false
}
