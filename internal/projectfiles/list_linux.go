package projectfiles

import (
	"errors"
	"unsafe"

	"golang.org/x/sys/unix"
)

// lister lists folders for one walk, reusing its buffer for the kernel's
// records.
type lister struct {
	buf []byte
}

// list lists the names of the folder open as fd (but . and ..), without
// closing it, each with its kind where the record tells it (d_type; not
// DT_UNKNOWN), so that the walk stats no name the listing already typed.
func (l *lister) list(fd int) ([]dirEntry, error) {
	if l.buf == nil {
		l.buf = make([]byte, 32<<10)
	}
	var entries []dirEntry
	for {
		n, err := unix.Getdents(fd, l.buf)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n <= 0 {
			return entries, nil
		}
		entries = appendDirents(entries, l.buf[:n])
	}
}

// direntHeader is the fixed start of a linux_dirent64 record: inode,
// offset, the record's length and the name's type; the name follows,
// ended by a NUL.
const direntHeader = int(unsafe.Offsetof(unix.Dirent{}.Name))

// appendDirents appends the names in the records of buf.
func appendDirents(entries []dirEntry, buf []byte) []dirEntry {
	for len(buf) >= direntHeader {
		reclen := int(*(*uint16)(unsafe.Pointer(&buf[unsafe.Offsetof(unix.Dirent{}.Reclen)])))
		if reclen < direntHeader || reclen > len(buf) {
			return entries // a record the kernel would not write
		}
		kind := buf[unsafe.Offsetof(unix.Dirent{}.Type)]
		name := buf[direntHeader:reclen]
		for i, c := range name {
			if c == 0 {
				name = name[:i]
				break
			}
		}
		buf = buf[reclen:]
		if string(name) == "." || string(name) == ".." || len(name) == 0 {
			continue
		}
		entries = append(entries, dirEntry{name: string(name), mode: direntMode(kind)})
	}
	return entries
}

// direntMode is the S_IFMT kind of a record's d_type; 0 for DT_UNKNOWN.
func direntMode(kind byte) uint32 {
	switch kind {
	case unix.DT_REG:
		return unix.S_IFREG
	case unix.DT_DIR:
		return unix.S_IFDIR
	case unix.DT_LNK:
		return unix.S_IFLNK
	case unix.DT_FIFO:
		return unix.S_IFIFO
	case unix.DT_SOCK:
		return unix.S_IFSOCK
	case unix.DT_CHR:
		return unix.S_IFCHR
	case unix.DT_BLK:
		return unix.S_IFBLK
	}
	return 0
}

// readEnds reports whether the file system of the folder open as fd is
// one whose read of a regular file answers fewer bytes than asked only at
// the file's end (the page cache's reads of local file systems: they fill
// the buffer unless the file ends, a fatal signal aside). Elsewhere (a
// network or FUSE file system, which may answer short) a read goes on to
// the read that answers 0.
func readEnds(fd int) bool {
	var st unix.Statfs_t
	if unix.Fstatfs(fd, &st) != nil {
		return false
	}
	switch uint32(st.Type) {
	case unix.EXT4_SUPER_MAGIC, unix.XFS_SUPER_MAGIC, unix.BTRFS_SUPER_MAGIC,
		unix.TMPFS_MAGIC, unix.OVERLAYFS_SUPER_MAGIC, unix.F2FS_SUPER_MAGIC:
		return true
	}
	return false
}
