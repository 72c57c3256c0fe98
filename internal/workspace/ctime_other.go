//go:build !linux && !darwin

package workspace

import "syscall"

// ctimeOf is a stat's inode change time: 0 where the platform's stat has
// it under another name (the index's stamps then go by size, modification
// time and inode, and its racy rule).
func ctimeOf(*syscall.Stat_t) int64 { return 0 }
