package projectfiles

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestReadFile checks that ReadFile reads a file whole whatever its size
// against the buffer it is given (none, smaller, larger), with a short read
// taken as the end or not, refuses one larger than its limit (ErrTooLarge)
// and reads one of exactly the limit, and reads into the buffer it is
// given where the file fits.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	sizes := []int{0, 1, 100, 4095, 4096, 4097, 70000}
	for _, n := range sizes {
		text := strings.Repeat("abcdefghij", n/10+1)[:n]
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprint(n)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, shortReadEnds := range []bool{true, false} {
		d := &Dir{fd: fd, shortReadEnds: shortReadEnds}
		d.Hold()
		for _, n := range sizes {
			want := strings.Repeat("abcdefghij", n/10+1)[:n]
			for _, c := range []struct {
				name  string
				buf   []byte
				limit int64
				err   error
			}{
				{"no buffer", nil, 1 << 20, nil},
				{"small buffer", make([]byte, 3, 16), 1 << 20, nil},
				{"large buffer", make([]byte, 0, 80000), 1 << 20, nil},
				{"at the limit", nil, int64(n), nil},
				{"at the limit, large buffer", make([]byte, 0, 80000), int64(n), nil},
				{"over the limit", nil, int64(n) - 1, ErrTooLarge},
				{"over the limit, large buffer", make([]byte, 0, 80000), int64(n) - 1, ErrTooLarge},
			} {
				if c.limit < 0 {
					continue // no file is over a limit of -1 bytes
				}
				t.Run(fmt.Sprintf("%d bytes, %s, short read ends %v", n, c.name, shortReadEnds), func(t *testing.T) {
					src, err := d.ReadFile(fmt.Sprint(n), c.limit, c.buf)
					if c.err != nil {
						if !errors.Is(err, c.err) {
							t.Fatalf("read %d bytes (%v), want %v", len(src), err, c.err)
						}
						return
					}
					if err != nil || string(src) != want {
						t.Fatalf("read %d bytes (%v), want %d", len(src), err, n)
					}
					if cap(c.buf) > n && len(src) > 0 && &src[0] != &c.buf[:1][0] {
						t.Error("a file that fits was not read into the buffer given")
					}
				})
			}
		}
		d.Release()
		if shortReadEnds {
			if fd, err = unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0); err != nil {
				t.Fatal(err)
			}
		}
	}
}
