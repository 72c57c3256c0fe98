package sqlitefile

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// dupDir returns a handle of its own of the open folder dir (at dirPath).
func dupDir(dir *os.File, dirPath string) (*os.File, error) {
	fd, err := unix.FcntlInt(dir.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), dirPath), nil
}

// heldPath is the path of the database at path through the held folder's
// handle, and true: the kernel resolves /proc/self/fd/N to the folder the
// handle holds, wherever it is now. Where /proc is not mounted, it is the
// checked path itself, and false.
func heldPath(held *os.File, path string) (string, bool) {
	through := "/proc/self/fd/" + strconv.Itoa(int(held.Fd()))
	var st, want unix.Stat_t
	if unix.Stat(through, &st) != nil || unix.Fstat(int(held.Fd()), &want) != nil || st.Dev != want.Dev || st.Ino != want.Ino {
		return path, false
	}
	return through + "/" + filepath.Base(path), true
}

// heldCheck checks that every file this process holds open by the paths
// opened, opened-wal and opened-shm (opened: the database file SQLite
// opened, as it named it) is name, name-wal or name-shm in the held
// folder, by device and inode (the kernel's own lookup of each open file
// and of the names in the folder, no path string), and that the database
// file is among them. Otherwise ErrRedirected.
func heldCheck(held *os.File, name, opened string) error {
	want := map[string]string{opened: name, opened + "-wal": name + "-wal", opened + "-shm": name + "-shm"}
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return fmt.Errorf("check the files opened: %w", err)
	}
	found := false
	for _, e := range entries {
		link, err := os.Readlink("/proc/self/fd/" + e.Name())
		if err != nil {
			continue // closed meanwhile
		}
		inFolder, ok := want[link]
		if !ok {
			continue
		}
		var got, expected unix.Stat_t
		if err := unix.Stat("/proc/self/fd/"+e.Name(), &got); err != nil {
			continue // closed meanwhile
		}
		if err := unix.Fstatat(int(held.Fd()), inFolder, &expected, unix.AT_SYMLINK_NOFOLLOW); err != nil ||
			got.Dev != expected.Dev || got.Ino != expected.Ino {
			return fmt.Errorf("%s: %w", link, ErrRedirected)
		}
		found = found || inFolder == name
	}
	if !found {
		return fmt.Errorf("%s is not open: %w", opened, ErrRedirected)
	}
	return nil
}
