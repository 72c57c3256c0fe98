package definitions

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestFolderReader reads what may stand at a path the walk listed by the
// time it is read: a file, a large file, a link inside or out of the
// project, a pipe, a folder.
func TestFolderReader(t *testing.T) {
	root := t.TempDir()
	outside := filepath.Join(t.TempDir(), "secret.ts")
	big := strings.Repeat("export const a = 1\n", 100000)
	for p, text := range map[string]string{"a/file.ts": "hello", "a/big.ts": big, "b/target.ts": "target", outside: "secret"} {
		full := p
		if !filepath.IsAbs(p) {
			full = filepath.Join(root, p)
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../b/target.ts", filepath.Join(root, "a", "in.ts")); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "a", "out.ts")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "a", "pipe.ts"), 0o644); err != nil {
		t.Skipf("no pipes here: %v", err)
	}
	if err := os.Mkdir(filepath.Join(root, "a", "dir.ts"), 0o755); err != nil {
		t.Fatal(err)
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tests := []struct {
		path, want string
		fails      bool
	}{
		{"a/file.ts", "hello", false},
		{"a/big.ts", big, false},
		{"a/in.ts", "target", false},
		{"a/out.ts", "", true},
		{"a/pipe.ts", "", true},
		{"a/dir.ts", "", true},
		{"a/gone.ts", "", true},
		{"c/gone.ts", "", true},
	}
	fr := newFolderReader(r)
	defer fr.close()
	for _, tt := range tests {
		got, err := fr.read(tt.path)
		if (err != nil) != tt.fails || string(got) != tt.want {
			t.Errorf("%s: %d bytes, error %v; want %d bytes, failing %v", tt.path, len(got), err, len(tt.want), tt.fails)
		}
	}
	if _, err := fr.read("a/pipe.ts"); !errors.Is(err, errNotRegular) {
		t.Errorf("pipe: error %v, want %v", err, errNotRegular)
	}
}
