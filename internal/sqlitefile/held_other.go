//go:build !linux

package sqlitefile

import "os"

// dupDir returns a handle of its own of the folder at dirPath (opened
// again by its path: the platform has no /proc/self/fd to open through).
func dupDir(_ *os.File, dirPath string) (*os.File, error) { return os.Open(dirPath) }

// heldPath is the checked path itself, unchecked.
func heldPath(_ *os.File, path string) (string, bool) { return path, false }

// heldCheck checks nothing where the platform cannot tell which file
// SQLite opened.
func heldCheck(*os.File, string, string) error { return nil }
