package definitions

import (
	"errors"
	"os"
	"path"
	"sync"
	"syscall"
)

// folderReader reads the project's files for Build. os.Root.ReadFile
// opens every folder on a file's path again, and makes an *os.File (a
// poller registration, flag calls, a finalizer) for each file, which cost
// Build more than reading the bytes. Here each folder is opened once,
// through the os.Root, and each file is read with openat on the folder's
// descriptor, without following a link: a link, or anything else the raw
// read cannot take, is read through the os.Root as before, so no link is
// followed out of the project either way.
type folderReader struct {
	root    *os.Root
	mu      sync.Mutex
	folders map[string]folder // by slash-separated folder ("." for the root), opened on first use
}

// folder is one open folder and its descriptor; a nil file where the
// folder did not open.
type folder struct {
	file *os.File
	fd   int
}

// newFolderReader reads the files under r. It is safe for concurrent use.
func newFolderReader(r *os.Root) *folderReader {
	return &folderReader{root: r, folders: map[string]folder{}}
}

// folder returns the open folder dir, opening it through the root on
// first use.
func (fr *folderReader) folder(dir string) folder {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	f, ok := fr.folders[dir]
	if !ok {
		// A folder that does not open has its files read through the
		// root, which says why they cannot be.
		if d, err := fr.root.Open(dir); err == nil {
			f = folder{file: d, fd: int(d.Fd())}
		}
		fr.folders[dir] = f
	}
	return f
}

// read returns the bytes of the regular file at p, a project path that the
// walk found.
func (fr *folderReader) read(p string) ([]byte, error) {
	d := fr.folder(path.Dir(p))
	if d.file == nil {
		return fr.root.ReadFile(p)
	}
	src, err := readAt(d.fd, path.Base(p), 0)
	if errors.Is(err, syscall.ELOOP) {
		// The file became a link since the walk: the os.Root follows
		// it, and only inside the project.
		return fr.root.ReadFile(p)
	}
	return src, err
}

// readIndexed is read for the index: a file over MaxIndexed is a
// *TooLargeError, told by its size before any of it is read.
func (fr *folderReader) readIndexed(p string) ([]byte, error) {
	d := fr.folder(path.Dir(p))
	if d.file == nil {
		return rootReadIndexed(fr.root, p)
	}
	src, err := readAt(d.fd, path.Base(p), MaxIndexed)
	if errors.Is(err, syscall.ELOOP) {
		return rootReadIndexed(fr.root, p)
	}
	return src, err
}

// close closes the folders; no read may be running.
func (fr *folderReader) close() {
	for _, d := range fr.folders {
		if d.file != nil {
			d.file.Close()
		}
	}
}

// readAt reads the regular file name in the folder open as dirfd. It
// never follows a link (ELOOP) and never blocks on a pipe that took the
// file's place: such a file is opened non-blocking and refused. Where
// limit is above 0, a file over limit bytes is a *TooLargeError, and no
// more than limit+1 bytes of it are read.
func readAt(dirfd int, name string, limit int64) ([]byte, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Openat(dirfd, name, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, err
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, errNotRegular
	}
	if limit > 0 && st.Size > limit {
		return nil, &TooLargeError{Size: st.Size}
	}
	// One byte more than the size, so that one read usually meets the
	// end; a file that grows meanwhile is read to its end (or its limit).
	buf := make([]byte, 0, st.Size+1)
	for {
		if limit > 0 && int64(len(buf)) > limit {
			return nil, &TooLargeError{Size: int64(len(buf))}
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err == syscall.EINTR || err == syscall.EAGAIN {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}
