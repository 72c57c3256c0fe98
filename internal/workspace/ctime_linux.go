package workspace

import "syscall"

// ctimeOf is a stat's inode change time, in Unix nanoseconds.
func ctimeOf(st *syscall.Stat_t) int64 { return st.Ctim.Nano() }
