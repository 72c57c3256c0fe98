//go:build !linux

package workspace

import "golang.org/x/sys/unix"

// exchangeAt is errNoExchange: this platform's swap of two names is not
// used (macOS has one, renamex_np with RENAME_SWAP, untested here); the
// commit renames.
func exchangeAt(d *dirHandle, from string, dst *dirHandle, to string) error {
	return errNoExchange
}

// renameNoReplace renames from to to within d (a spare's name is random:
// it is not taken).
func renameNoReplace(d *dirHandle, from, to string) error {
	return unix.Renameat(d.fd(), from, d.fd(), to)
}

// hasAttrs reports true: where no spare is ever kept, a file found as one
// is never written into.
func hasAttrs(fd int) bool { return true }
