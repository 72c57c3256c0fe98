package projectfiles

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// Dir is a folder open during a Walk, by its descriptor. Its files are
// opened relative to it, one name each without following a link, so that
// no path is resolved twice and nothing leads out of the project. It is
// closed when the walk has left it and every Hold is released, so that a
// reader on another goroutine may read its files after the walk moved on.
type Dir struct {
	fd   int
	refs atomic.Int32
}

// Hold keeps d open until a matching Release.
func (d *Dir) Hold() { d.refs.Add(1) }

// Release gives up a Hold (or the walk's own): the last one closes d.
func (d *Dir) Release() {
	if d.refs.Add(-1) == 0 {
		unix.Close(d.fd)
	}
}

// ReadFile reads the regular file name of d, which Walk found size bytes
// long, without following a link: an open, a read or two and a close,
// where os.Root pays a descriptor per folder on the way, a poller and
// several fcntl calls per file.
func (d *Dir) ReadFile(name string, size int64) ([]byte, error) {
	fd, err := unix.Openat(d.fd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: name, Err: err}
	}
	defer unix.Close(fd)
	// One byte more than the walk saw, so that a file that grew since is
	// read to its end by the loop below, not cut.
	buf := make([]byte, 0, max(size, 0)+1)
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, cap(buf))
		}
		n, err := unix.Read(fd, buf[len(buf):cap(buf)])
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "read", Path: name, Err: err}
		}
		if n == 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}

// Entry is a name Walk found: a folder, a regular file or anything else
// (a link, a device), told by Mode (the unix S_IFMT bits).
type Entry struct {
	Dir  *Dir   // the folder that holds it, open
	Name string // its name in Dir
	Path string // its project path (slash-separated, relative to the root)
	Mode uint32 // unix.S_IFDIR, unix.S_IFREG, ...
	Size int64
}

// IsDir reports whether e is a folder.
func (e Entry) IsDir() bool { return e.Mode == unix.S_IFDIR }

// IsRegular reports whether e is a regular file (not a link).
func (e Entry) IsRegular() bool { return e.Mode == unix.S_IFREG }

// Walk calls fn for every name below the folder open as f (its project
// path rel: "." for the root), in lexical order as io/fs.WalkDir gives
// them, entering a folder where fn answers enter. It opens every folder
// relative to its parent without following a link, and closes f. It leaves
// out nothing by itself: fn decides (skipped folders, bounds, ignore
// rules). An unreadable folder below f is left out; one that is f is an
// error. The walk stops when ctx is done, or at fn's first error.
func Walk(ctx context.Context, f *os.File, rel string, fn func(e Entry) (enter bool, err error)) error {
	fd, err := unix.Dup(int(f.Fd()))
	f.Close()
	if err != nil {
		return fmt.Errorf("walk %s: %w", rel, err)
	}
	return walkDir(ctx, fd, rel, true, fn)
}

// walkDir walks the folder open as fd (which it gives up).
func walkDir(ctx context.Context, fd int, rel string, top bool, fn func(Entry) (bool, error)) error {
	d := &Dir{fd: fd}
	d.Hold()
	defer d.Release()
	names, err := readNames(fd)
	if err != nil {
		if top {
			return fmt.Errorf("walk %s: %w", rel, err)
		}
		return nil // an unreadable folder below is left out
	}
	slices.Sort(names)
	for _, n := range names {
		if err := ctx.Err(); err != nil {
			return err
		}
		var st unix.Stat_t
		if unix.Fstatat(fd, n, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
			continue // gone meanwhile
		}
		p := n
		if rel != "." {
			p = rel + "/" + n
		}
		e := Entry{Dir: d, Name: n, Path: p, Mode: uint32(st.Mode & unix.S_IFMT), Size: st.Size}
		enter, err := fn(e)
		if err != nil {
			return err
		}
		if !enter || !e.IsDir() {
			continue
		}
		sub, err := unix.Openat(fd, n, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			continue
		}
		if err := walkDir(ctx, sub, p, false, fn); err != nil {
			return err
		}
	}
	return nil
}

// readNames lists the names of the folder open as fd, without closing it.
func readNames(fd int) ([]string, error) {
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
	return names, nil
}
