//go:build !linux

package projectfiles

import (
	"errors"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// lister lists folders for one walk.
type lister struct{}

// list lists the names of the folder open as fd, without closing it; the
// kinds are left to the walk's stat of each name.
func (l *lister) list(fd int) ([]dirEntry, error) {
	dup, err := unix.Dup(fd)
	if err != nil {
		return nil, err
	}
	dir := os.NewFile(uintptr(dup), ".")
	defer dir.Close()
	names, err := dir.Readdirnames(-1)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	entries := make([]dirEntry, len(names))
	for i, n := range names {
		entries[i] = dirEntry{name: n}
	}
	return entries, nil
}

// readEnds reports whether a short read of a regular file of the folder
// open as fd is its end: here it is not relied on, and a read goes on to
// the read that answers 0.
func readEnds(int) bool { return false }
