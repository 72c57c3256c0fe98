package definitions

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWalkFS checks that walkFS lists a folder as the os.Root's own FS
// does: the same names, in the same order, with the same types.
func TestWalkFS(t *testing.T) {
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "sub", "deeper"), 0o755))
	for _, name := range []string{"b.ts", "a.ts", "sub/c.tsx", "sub/deeper/d.json"} {
		must(os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644))
	}
	must(os.Symlink("a.ts", filepath.Join(dir, "link.ts")))
	must(os.Symlink("sub", filepath.Join(dir, "linkdir")))
	must(syscall.Mkfifo(filepath.Join(dir, "pipe.ts"), 0o644))
	for i := range 300 { // more than one read of the folder
		must(os.WriteFile(filepath.Join(dir, "sub", fmt.Sprintf("f%03d.ts", i)), nil, 0o644))
	}
	r, err := os.OpenRoot(dir)
	must(err)
	defer r.Close()
	for _, folder := range []string{".", "sub", "sub/deeper"} {
		want, err := fs.ReadDir(r.FS(), folder)
		must(err)
		got, err := fs.ReadDir(walkFS(r), folder)
		must(err)
		if len(got) != len(want) {
			t.Fatalf("%s: %d entries, want %d", folder, len(got), len(want))
		}
		for i := range want {
			if got[i].Name() != want[i].Name() || got[i].Type() != want[i].Type() || got[i].IsDir() != want[i].IsDir() {
				t.Errorf("%s: entry %d is %s %v, want %s %v", folder, i, got[i].Name(), got[i].Type(), want[i].Name(), want[i].Type())
			}
			gi, err1 := got[i].Info()
			wi, err2 := want[i].Info()
			if err1 != nil || err2 != nil || gi.Mode() != wi.Mode() || gi.Size() != wi.Size() {
				t.Errorf("%s: entry %s: info %v %v, want %v %v", folder, got[i].Name(), gi, err1, wi, err2)
			}
		}
	}
	if _, err := fs.ReadDir(walkFS(r), "missing"); err == nil {
		t.Error("a missing folder lists")
	}
}
