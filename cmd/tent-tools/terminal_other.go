//go:build !linux && !darwin && !freebsd && !netbsd && !openbsd && !dragonfly

package main

import "os"

// isTerminal reports whether f may be a terminal where the system offers
// no terminal request to ask: a character device. /dev/null is one too, so
// on these systems a prompt may reach a stderr that nobody reads.
func isTerminal(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
