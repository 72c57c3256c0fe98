package projectfiles

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/tent-tools/tent-tools/internal/sample"
)

// TestWalk checks that Walk gives the names io/fs.WalkDir gives, in its
// order, with their kinds; enters only the folders fn says; enters no
// link; and that a held folder's files are read after the walk left it,
// whole where a file grew since it was seen, and never through a link.
func TestWalk(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.ts":          "a",
		"b/c.ts":        "cc",
		"b/d/e.ts":      "eee",
		"b-x.ts":        "x", // sorts after b/ in WalkDir: "b" < "b-x.ts"
		"skip/f.ts":     "f",
		"z/empty.ts":    "",
		"z/y/long.json": strings.Repeat("j", 70000),
	}
	sample.Write(t, dir, files)
	if err := os.Symlink("b", filepath.Join(dir, "link-dir")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.ts", filepath.Join(dir, "link.ts")); err != nil {
		t.Fatal(err)
	}
	var want []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		want = append(want, filepath.ToSlash(rel))
		if d.IsDir() && d.Name() == "skip" {
			return fs.SkipDir
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	root, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	var held []Entry
	err = Walk(context.Background(), root, ".", func(e Entry) (bool, error) {
		got = append(got, e.Path)
		switch {
		case e.Name == "link-dir" || e.Name == "link.ts":
			if e.IsDir() || e.IsRegular() {
				t.Errorf("%s: a link seen as a folder or file (mode %o)", e.Path, e.Mode)
			}
		case e.IsRegular():
			e.Dir.Hold()
			held = append(held, e)
		}
		return e.Name != "skip", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Errorf("Walk gives\n%v\nWalkDir gives\n%v", got, want)
	}
	// The walk is over: each held folder is still open for its files.
	if err := os.WriteFile(filepath.Join(dir, "a.ts"), []byte("grown since"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, e := range held {
		src, err := e.Dir.ReadFile(e.Name, 1<<20, nil)
		want := files[e.Path]
		if e.Path == "a.ts" {
			want = "grown since"
		}
		if err != nil || string(src) != want {
			t.Errorf("%s: read %d bytes (%v), want %d", e.Path, len(src), err, len(want))
		}
		if e.Path == "a.ts" {
			if _, err := e.Dir.ReadFile("link.ts", 1<<20, nil); err == nil {
				t.Error("a link was read")
			}
		}
		e.Dir.Release()
	}
	// A start that cannot be walked is an error; a done ctx stops it.
	f, err := os.Open(filepath.Join(dir, "a.ts"))
	if err != nil {
		t.Fatal(err)
	}
	if err := Walk(context.Background(), f, "a.ts", func(Entry) (bool, error) { return true, nil }); err == nil {
		t.Error("walking a file gave no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	root, _ = os.Open(dir)
	if err := Walk(ctx, root, ".", func(Entry) (bool, error) { return true, nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("a done ctx: %v", err)
	}
}

// TestStatUnknown checks that an entry whose kind the listing did not tell
// (every entry where the system's listing tells none) gets it from a stat
// of its name, without following a link, that a told kind is kept as told,
// and that a name gone since the listing is left out.
func TestStatUnknown(t *testing.T) {
	dir := t.TempDir()
	sample.Write(t, dir, map[string]string{"a.ts": "a", "sub/b.ts": "b"})
	if err := os.Symlink("sub", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	got := statUnknown(fd, []dirEntry{{"a.ts", 0}, {"gone.ts", 0}, {"link", 0}, {"sub", 0}, {"told.ts", unix.S_IFREG}})
	want := []dirEntry{{"a.ts", unix.S_IFREG}, {"link", unix.S_IFLNK}, {"sub", unix.S_IFDIR}, {"told.ts", unix.S_IFREG}}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
