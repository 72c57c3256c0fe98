package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/tent-tools/tent-tools/diag"
)

// A path that Resolve accepted holds no link: every link on the way was
// followed to its target. Between Resolve and the write, though, another
// process may swap a folder of that path for a link (lib -> . would turn
// lib/engine.ts into the root's engine.ts). So the files a tool writes,
// and the journal's own folder, are reached one folder at a time from the
// project's root, each opened without following a link (openat with
// O_NOFOLLOW): what is opened is the very place the path names, or the
// open fails and nothing is written. The checks Resolve made on the path
// string (not .tent/, not a framework file) then hold on what was opened.

// dirHandle is an open folder of the project, reached without following a
// link; files are opened, renamed and removed relative to it.
type dirHandle struct {
	f   *os.File
	rel string // its path from the root, "." for the root
}

func (d *dirHandle) fd() int      { return int(d.f.Fd()) }
func (d *dirHandle) Close() error { return d.f.Close() }

// openDir opens the folder at the resolved path rel, one name at a time
// from the root, following no link. Where mkdir is set, missing folders
// are made. A name on the way that is a link is T9105 (it changed since
// Resolve judged the path); one that is a file is T9102.
func (w *Workspace) openDir(rel string, mkdir bool) (*dirHandle, error) {
	root, err := w.fsys.Open(".")
	if err != nil {
		return nil, fmt.Errorf("open the project folder: %w", err)
	}
	d := &dirHandle{f: root, rel: "."}
	for _, name := range splitPath(rel) {
		next, err := d.sub(name, mkdir)
		d.Close()
		if err != nil {
			return nil, err
		}
		d = next
	}
	return d, nil
}

// sub opens the folder name inside d, following no link.
func (d *dirHandle) sub(name string, mkdir bool) (*dirHandle, error) {
	rel := path.Join(d.rel, name)
	if name == ".." || strings.ContainsRune(name, '/') {
		return nil, refuse(rel, "%s is no plain folder name", name)
	}
	if mkdir {
		if err := unix.Mkdirat(d.fd(), name, 0o755); err != nil && !errors.Is(err, unix.EEXIST) {
			return nil, pathError(rel, "make folder", err)
		}
	}
	fd, err := openat(d.fd(), name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, d.openError(name, err)
	}
	return &dirHandle{f: os.NewFile(uintptr(fd), rel), rel: rel}, nil
}

// openError says why name could not be opened in d: a link (T9105), a file
// where a folder was wanted (T9102), missing (T9103), or another cause.
func (d *dirHandle) openError(name string, err error) error {
	rel := path.Join(d.rel, name)
	var st unix.Stat_t
	if serr := unix.Fstatat(d.fd(), name, &st, unix.AT_SYMLINK_NOFOLLOW); serr == nil {
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFLNK:
			return refuse(rel, "%s is a link (it changed while the tool ran, or it stands where the framework allows no link); nothing was written", rel)
		case unix.S_IFDIR:
		default:
			if errors.Is(err, unix.ENOTDIR) {
				return diag.Errorf(diag.T9102, "%s is a file, not a folder", rel).With("path", rel)
			}
		}
	}
	return pathError(rel, "open", err)
}

// pathError turns the error of a system call on rel into the tool error it
// means, or wraps it.
func pathError(rel, op string, err error) error {
	switch {
	case errors.Is(err, unix.ENOENT):
		return diag.Errorf(diag.T9103, "no file %s", rel).With("path", rel)
	case errors.Is(err, unix.ENOTDIR):
		return diag.Errorf(diag.T9102, "a folder on the way to %s is a file", rel).With("path", rel)
	case errors.Is(err, unix.EACCES), errors.Is(err, unix.EPERM), errors.Is(err, unix.EROFS):
		return diag.Errorf(diag.T9110, "%s %s: the folder may not be written (%v); nothing was changed", op, rel, err).With("path", rel)
	}
	return fmt.Errorf("%s %s: %w", op, rel, err)
}

// openat is unix.Openat, again where a signal cut it short.
func openat(dirfd int, name string, flags int, mode uint32) (int, error) {
	for {
		fd, err := unix.Openat(dirfd, name, flags, mode)
		if !errors.Is(err, unix.EINTR) {
			return fd, err
		}
	}
}

// openFile opens the file name in d, following no link.
func (d *dirHandle) openFile(name string, flags int, mode fs.FileMode) (*os.File, error) {
	fd, err := openat(d.fd(), name, flags|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(mode.Perm()))
	if err != nil {
		return nil, d.openError(name, err)
	}
	return os.NewFile(uintptr(fd), path.Join(d.rel, name)), nil
}

// rename renames the entry from in d to the entry to in dst; a link at to
// is replaced, never followed.
func (d *dirHandle) rename(from string, dst *dirHandle, to string) error {
	if err := unix.Renameat(d.fd(), from, dst.fd(), to); err != nil {
		return pathError(path.Join(dst.rel, to), "write", err)
	}
	return nil
}

// remove removes the file name in d (a link is removed, not followed). A
// missing file is no error.
func (d *dirHandle) remove(name string) error {
	err := unix.Unlinkat(d.fd(), name, 0)
	if err == nil || errors.Is(err, unix.ENOENT) {
		return nil
	}
	return pathError(path.Join(d.rel, name), "remove", err)
}

// sync makes the renames in d durable; best effort, as syncFolder.
func (d *dirHandle) sync() { d.f.Sync() }

// splitRel splits a resolved path into its folder and its name.
func splitRel(rel string) (dir, name string) {
	return path.Dir(rel), path.Base(rel)
}

// openState opens the framework's folder .tent/ (made where missing), and
// within it the folders of sub, each a real folder of the project: a link
// there could lead the framework's state and its journal out of the
// project, or onto project files (.tent/tmp -> ../lib would have the
// journal's cleaning remove lib/), so it is refused with T9105 and a
// message saying how to fix it.
func (w *Workspace) openState(sub ...string) (*dirHandle, error) {
	d, err := w.openDir(".", false)
	if err != nil {
		return nil, err
	}
	for _, name := range append([]string{stateFolder}, sub...) {
		next, err := d.sub(name, true)
		if err != nil {
			rel := path.Join(d.rel, name)
			if te, ok := err.(*diag.ToolError); ok && te.Code == diag.T9105 || isLink(d, name) {
				err = refuse(rel, "%s/ is a link; the framework keeps its state in a real folder of the project: remove the link (rm %s) and run the tool again", rel, rel)
			}
			d.Close()
			return nil, err
		}
		d.Close()
		d = next
	}
	return d, nil
}

// isLink reports whether the entry name of d is a link.
func isLink(d *dirHandle, name string) bool {
	var st unix.Stat_t
	return unix.Fstatat(d.fd(), name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK
}
