package projectfiles

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
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
	// shortReadEnds says that a read of one of its regular files that
	// answers fewer bytes than asked has met the file's end (readEnds),
	// so that a small file costs one read, not a second one that answers 0.
	shortReadEnds bool
}

// Hold keeps d open until a matching Release.
func (d *Dir) Hold() { d.refs.Add(1) }

// Release gives up a Hold (or the walk's own): the last one closes d.
func (d *Dir) Release() {
	if d.refs.Add(-1) == 0 {
		unix.Close(d.fd)
	}
}

// ErrTooLarge is the error (in an *os.PathError) of a ReadFile whose file
// holds more than its limit.
var ErrTooLarge = errors.New("more bytes than the limit")

// ReadFile reads the regular file name of d whole, where it holds at most
// limit bytes (more is ErrTooLarge), without following a link: an open, a
// read and a close for a file that fits in buf, where os.Root pays a
// descriptor per folder on the way, a poller and several fcntl calls per
// file. buf, where not nil, is reused: the answer is in its array when it
// fits, so a caller that keeps the bytes passes nil or a new buffer. A
// file that fills buf is measured (fstat) once and read into a buffer
// one byte larger, so that a file that grew since is still read to its end.
func (d *Dir) ReadFile(name string, limit int64, buf []byte) ([]byte, error) {
	// O_NONBLOCK: the walk saw a regular file; where something else took
	// its name since (a named pipe), the open must not wait for a writer.
	fd, err := unix.Openat(d.fd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: name, Err: err}
	}
	defer unix.Close(fd)
	buf = buf[:0]
	if cap(buf) == 0 {
		buf = make([]byte, 0, 4096)
	}
	measured := false
	for {
		if len(buf) == cap(buf) {
			grow := cap(buf)
			if !measured {
				measured = true
				var st unix.Stat_t
				if err := unix.Fstat(fd, &st); err != nil {
					return nil, &os.PathError{Op: "stat", Path: name, Err: err}
				}
				if st.Size > limit {
					return nil, &os.PathError{Op: "read", Path: name, Err: ErrTooLarge}
				}
				grow = max(int(st.Size)-len(buf)+1, 512)
			}
			buf = slices.Grow(buf, grow)
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
		if int64(len(buf)) > limit {
			return nil, &os.PathError{Op: "read", Path: name, Err: ErrTooLarge}
		}
		if d.shortReadEnds && len(buf) < cap(buf) {
			return buf, nil
		}
	}
}

// Entry is a name Walk found: a folder, a regular file or anything else
// (a link, a device), told by Mode (the unix S_IFMT bits).
type Entry struct {
	Dir  *Dir   // the folder that holds it, open
	Name string // its name in Dir
	Path string // its project path (slash-separated, relative to the root)
	Mode uint32 // unix.S_IFDIR, unix.S_IFREG, ...
}

// IsDir reports whether e is a folder.
func (e Entry) IsDir() bool { return e.Mode == unix.S_IFDIR }

// IsRegular reports whether e is a regular file (not a link).
func (e Entry) IsRegular() bool { return e.Mode == unix.S_IFREG }

// IsLink reports whether e is a symbolic link.
func (e Entry) IsLink() bool { return e.Mode == unix.S_IFLNK }

// Walk calls fn for every name below the folder open as f (its project
// path rel: "." for the root), in lexical order as io/fs.WalkDir gives
// them, entering a folder where fn answers enter. It opens every folder
// relative to its parent without following a link, and closes f. Each
// name's kind comes from the folder's listing where the file system
// gives it there (on Linux most do), and from a stat of the name where
// not. It leaves out nothing by itself: fn decides (skipped folders,
// bounds, ignore rules). An unreadable folder below f is left out; one
// that is f is an error. The walk stops when ctx is done, or at fn's first
// error.
func Walk(ctx context.Context, f *os.File, rel string, fn func(e Entry) (enter bool, err error)) error {
	fd, err := unix.Dup(int(f.Fd()))
	f.Close()
	if err != nil {
		return fmt.Errorf("walk %s: %w", rel, err)
	}
	var l lister
	return l.walkDir(ctx, fd, rel, true, fn)
}

// dirEntry is a name of a folder's listing, with its kind (S_IFMT bits)
// where the listing tells it, or 0.
type dirEntry struct {
	name string
	mode uint32
}

// walkDir walks the folder open as fd (which it gives up).
func (l *lister) walkDir(ctx context.Context, fd int, rel string, top bool, fn func(Entry) (bool, error)) error {
	d := &Dir{fd: fd, shortReadEnds: readEnds(fd)}
	d.Hold()
	defer d.Release()
	entries, err := l.list(fd)
	if err != nil {
		if top {
			return fmt.Errorf("walk %s: %w", rel, err)
		}
		return nil // an unreadable folder below is left out
	}
	entries = statUnknown(fd, entries)
	slices.SortFunc(entries, func(a, b dirEntry) int { return strings.Compare(a.name, b.name) })
	for _, de := range entries {
		if err := ctx.Err(); err != nil {
			return err
		}
		p := de.name
		if rel != "." {
			p = rel + "/" + de.name
		}
		e := Entry{Dir: d, Name: de.name, Path: p, Mode: de.mode}
		enter, err := fn(e)
		if err != nil {
			return err
		}
		if !enter || !e.IsDir() {
			continue
		}
		sub, err := unix.Openat(fd, de.name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			continue
		}
		if err := l.walkDir(ctx, sub, p, false, fn); err != nil {
			return err
		}
	}
	return nil
}

// statUnknown fills in, by a stat of the name in the folder open as fd,
// the kind of each entry its listing did not tell (mode 0: every entry
// where the system's listing tells no kinds); a name gone meanwhile is
// left out.
func statUnknown(fd int, entries []dirEntry) []dirEntry {
	kept := entries[:0]
	for _, de := range entries {
		if de.mode == 0 {
			var st unix.Stat_t
			if unix.Fstatat(fd, de.name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
				continue // gone meanwhile
			}
			de.mode = uint32(st.Mode & unix.S_IFMT)
		}
		kept = append(kept, de)
	}
	return kept
}
