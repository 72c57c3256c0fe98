package projectfiles

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// TestListLinux checks that a folder's listing by getdents gives the names
// os.ReadDir gives, with their kinds, also where it takes several reads of
// the kernel's records (a folder of long names), and never . or ..
func TestListLinux(t *testing.T) {
	dir := t.TempDir()
	want := map[string]uint32{}
	for i := range 1500 {
		name := fmt.Sprintf("%04d-%s.ts", i, strings.Repeat("n", 40))
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		want[name] = unix.S_IFREG
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	want["sub"] = unix.S_IFDIR
	if err := os.Symlink("sub", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	want["link"] = unix.S_IFLNK
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	var l lister
	entries, err := l.list(fd)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]uint32{}
	for _, e := range entries {
		got[e.name] = e.mode
	}
	if len(got) != len(entries) || len(got) != len(want) {
		t.Fatalf("listed %d entries (%d names), want %d", len(entries), len(got), len(want))
	}
	for name, mode := range want {
		if got[name] != mode {
			t.Errorf("%s: mode %o, want %o", name, got[name], mode)
		}
	}
}

// TestAppendDirents checks the reading of the kernel's records: a name's
// kind where its record tells it, 0 (the walk stats it) for DT_UNKNOWN,
// . and .. left out, and a torn record ends the reading, not the process.
func TestAppendDirents(t *testing.T) {
	record := func(name string, kind byte) []byte {
		n := (direntHeader + len(name) + 1 + 7) &^ 7
		rec := make([]byte, n)
		binary.NativeEndian.PutUint16(rec[unsafe.Offsetof(unix.Dirent{}.Reclen):], uint16(n))
		rec[unsafe.Offsetof(unix.Dirent{}.Type)] = kind
		copy(rec[direntHeader:], name)
		return rec
	}
	buf := slices.Concat(record(".", unix.DT_DIR), record("..", unix.DT_DIR), record("a.ts", unix.DT_REG),
		record("b", unix.DT_DIR), record("c", unix.DT_UNKNOWN), record("d", unix.DT_LNK), record("longer-name.tsx", unix.DT_REG))
	want := []dirEntry{{"a.ts", unix.S_IFREG}, {"b", unix.S_IFDIR}, {"c", 0}, {"d", unix.S_IFLNK}, {"longer-name.tsx", unix.S_IFREG}}
	if got := appendDirents(nil, buf); !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	torn := slices.Concat(record("a.ts", unix.DT_REG), record("b", unix.DT_DIR)[:direntHeader+1])
	if got := appendDirents(nil, torn); !slices.Equal(got, want[:1]) {
		t.Errorf("a torn record: got %v, want %v", got, want[:1])
	}
}
