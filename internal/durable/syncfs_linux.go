package durable

import (
	"errors"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// wholeFS: syncfs reports writeback errors from Linux 5.8 on.
var wholeFS = kernelAtLeast(5, 8)

// kernelAtLeast reports whether the running kernel's release is at least
// major.minor.
func kernelAtLeast(major, minor int) bool {
	var u unix.Utsname
	if err := unix.Uname(&u); err != nil {
		return false
	}
	return releaseAtLeast(unix.ByteSliceToString(u.Release[:]), major, minor)
}

// releaseAtLeast reads a kernel release ("6.1.0-18-amd64") as major.minor.
func releaseAtLeast(release string, major, minor int) bool {
	parts := strings.SplitN(release, ".", 3)
	if len(parts) < 2 {
		return false
	}
	maj, err := strconv.Atoi(parts[0])
	if err != nil {
		return false
	}
	minStr := parts[1]
	if i := strings.IndexFunc(minStr, func(r rune) bool { return r < '0' || r > '9' }); i >= 0 {
		minStr = minStr[:i]
	}
	mnr, err := strconv.Atoi(minStr)
	if err != nil {
		return false
	}
	return maj > major || maj == major && mnr >= minor
}

func syncFS(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) {
		for {
			serr = unix.Syncfs(int(fd))
			if !errors.Is(serr, unix.EINTR) {
				return
			}
		}
	}); err != nil {
		return err
	}
	if errors.Is(serr, unix.ENOSYS) {
		return ErrUnsupported
	}
	return serr
}
