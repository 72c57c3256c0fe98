package workspace

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/tent-tools/tent-tools/diag"
)

// This file holds the only code that opens project files. Every path it is
// given has been accepted by Resolve, and every open goes through w.fsys.

// ReadFile reads the file at the resolved path rel, refusing a folder
// (T9102), a missing file (T9103) and a file larger than limit (T9104). The
// answer's too-large message is the caller's, through tooLarge. The file
// is reached without following a link (openDir): what is read is what the
// path names.
func (w *Workspace) ReadFile(rel string, limit int64, tooLarge func(n int64) error) ([]byte, fs.FileInfo, error) {
	dir, name := splitRel(rel)
	d, err := w.openDir(dir, false)
	if err != nil {
		return nil, nil, err
	}
	defer d.Close()
	f, err := d.openFile(name, os.O_RDONLY, 0)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", rel, err)
	}
	if info.IsDir() {
		return nil, nil, diag.Errorf(diag.T9102, "%s is a folder, not a file; list shows a folder", rel).With("path", rel)
	}
	if !info.Mode().IsRegular() {
		return nil, nil, diag.Errorf(diag.T9102, "%s is not a regular file", rel).With("path", rel)
	}
	if info.Size() > limit {
		return nil, nil, tooLarge(info.Size())
	}
	src, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", rel, err)
	}
	if int64(len(src)) > limit { // it grew while we read it
		return nil, nil, tooLarge(int64(len(src)))
	}
	return src, info, nil
}

// OpenError turns the error of opening rel into the tool error it means.
func OpenError(rel string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		return diag.Errorf(diag.T9103, "no file %s", rel).With("path", rel)
	case errors.Is(err, fs.ErrPermission):
		return diag.Errorf(diag.T9105, "path refused: %s may not be opened (%v)", rel, err).With("path", rel)
	}
	// os.Root refuses a path that escapes it: a link changed between
	// Resolve and the open. Nothing was opened.
	var pe *os.PathError
	if errors.As(err, &pe) && pe.Err.Error() == "path escapes from parent" {
		return diag.Errorf(diag.T9105, "path refused: %s leads out of the project", rel).With("path", rel)
	}
	return fmt.Errorf("open %s: %w", rel, err)
}

// writeFile writes data to the resolved path rel atomically: into a new
// file in the same folder, synced, then renamed over rel, so that a reader
// (or a crash) sees the old file or the new one, never a part. It makes the
// folders on the way (following no link, openDir) and keeps the mode of a
// file it replaces. It reports whether the file is new.
func (w *Workspace) writeFile(rel string, data []byte) (created bool, err error) {
	dirRel, name := splitRel(rel)
	dir, err := w.openDir(dirRel, true)
	if err != nil {
		return false, err
	}
	defer dir.Close()
	mode := fs.FileMode(0o644)
	var st unix.Stat_t
	switch err := unix.Fstatat(dir.fd(), name, &st, unix.AT_SYMLINK_NOFOLLOW); {
	case err == nil && st.Mode&unix.S_IFMT == unix.S_IFDIR:
		return false, diag.Errorf(diag.T9102, "%s is a folder, not a file", rel).With("path", rel)
	case err == nil && st.Mode&unix.S_IFMT != unix.S_IFREG:
		return false, diag.Errorf(diag.T9102, "%s is not a regular file", rel).With("path", rel)
	case err == nil:
		mode = fs.FileMode(st.Mode).Perm()
	case errors.Is(err, unix.ENOENT):
		created = true
	default:
		return false, pathError(rel, "write", err)
	}
	tmp, err := tempName(name)
	if err != nil {
		return false, err
	}
	f, err := dir.openFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return false, err
	}
	committed := false
	defer func() {
		if !committed {
			f.Close()
			dir.remove(tmp)
		}
	}()
	if _, err := f.Write(data); err != nil {
		return false, fmt.Errorf("write %s: %w", rel, err)
	}
	if err := f.Chmod(mode); err != nil { // the umask may have cut the mode
		return false, fmt.Errorf("write %s: %w", rel, err)
	}
	if err := f.Sync(); err != nil {
		return false, fmt.Errorf("write %s: %w", rel, err)
	}
	if err := f.Close(); err != nil {
		return false, fmt.Errorf("write %s: %w", rel, err)
	}
	if err := dir.rename(tmp, dir, name); err != nil {
		return false, err
	}
	committed = true
	dir.sync()
	return created, nil
}

// tempName names a new file beside rel for an atomic write.
func tempName(rel string) (string, error) {
	var r [6]byte
	if _, err := rand.Read(r[:]); err != nil {
		return "", fmt.Errorf("write %s: %w", rel, err)
	}
	return path.Join(path.Dir(rel), "."+path.Base(rel)+"."+hex.EncodeToString(r[:])+".tmp"), nil
}

// syncFolder makes a rename in dir durable. It is best effort: some file
// systems cannot sync a folder, and the rename itself has already happened.
func syncFolder(fsys *os.Root, dir string) {
	d, err := fsys.Open(dir)
	if err != nil {
		return
	}
	d.Sync()
	d.Close()
}
