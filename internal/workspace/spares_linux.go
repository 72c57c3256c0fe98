package workspace

import (
	"errors"

	"golang.org/x/sys/unix"
)

// exchangeAt swaps the entries from in d and to in dst, each keeping the
// other's name (renameat2 with RENAME_EXCHANGE): neither is followed
// where it is a link, both must exist. Its error is the system call's.
func exchangeAt(d *dirHandle, from string, dst *dirHandle, to string) error {
	for {
		err := unix.Renameat2(d.fd(), from, dst.fd(), to, unix.RENAME_EXCHANGE)
		if !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}

// renameNoReplace renames from to to within d, where to is not taken
// (renameat2 with RENAME_NOREPLACE; a plain rename where the filesystem
// has no such flag).
func renameNoReplace(d *dirHandle, from, to string) error {
	err := unix.Renameat2(d.fd(), from, d.fd(), to, unix.RENAME_NOREPLACE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) {
		err = unix.Renameat(d.fd(), from, d.fd(), to)
	}
	return err
}

// hasAttrs reports whether the open file fd has extended attributes (an
// access list, a user's attributes) other than its security label: a new
// file would have none, and a spare must not hand them on.
func hasAttrs(fd int) bool {
	var buf [1024]byte
	n, err := unix.Flistxattr(fd, buf[:])
	switch {
	case errors.Is(err, unix.ENOTSUP), errors.Is(err, unix.EOPNOTSUPP):
		return false
	case err != nil:
		return true
	}
	for _, attr := range splitAttrs(buf[:n]) {
		if attr != "security.selinux" {
			return true
		}
	}
	return false
}
