package definitions

import (
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"syscall"
	"unsafe"
)

// walkFS is the file system walkProject lists the project with: r's, but
// its folders listed with the types their entries have in the folder
// (getdents's d_type). An os.Root's own ReadDir asks lstat of every entry
// (it cannot use the lazy lstat of a plain folder): at 10,000 tables that
// was some 33,000 system calls a cold check made that a walk needs not.
// An entry whose type the file system does not give is asked of lstat as
// before, through the root.
func walkFS(r *os.Root) fs.FS { return typedRootFS{r: r, FS: r.FS()} }

// typedRootFS is an os.Root's fs.FS whose ReadDir reads the entries'
// types from the folder (walkFS).
type typedRootFS struct {
	fs.FS
	r *os.Root
}

// ReadFile reads the file name through the root.
func (t typedRootFS) ReadFile(name string) ([]byte, error) {
	return fs.ReadFile(t.FS, name)
}

// ReadDir lists the folder name, sorted by name, as fs.ReadDir does.
func (t typedRootFS) ReadDir(name string) ([]fs.DirEntry, error) {
	f, err := t.r.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	var out []fs.DirEntry
	buf := make([]byte, 16<<10)
	var readErr error
	err = rc.Read(func(fd uintptr) bool {
		for {
			n, err := syscall.ReadDirent(int(fd), buf)
			if err == syscall.EINTR {
				continue
			}
			if err != nil {
				readErr = &fs.PathError{Op: "readdirent", Path: name, Err: err}
				return true
			}
			if n <= 0 {
				return true
			}
			out = t.parseDirents(out, name, buf[:n])
		}
	})
	if err == nil {
		err = readErr
	}
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out, nil
}

// parseDirents appends the entries of buf, linux_dirent64 records of the
// folder dir, to out, leaving out "." and "..".
func (t typedRootFS) parseDirents(out []fs.DirEntry, dir string, buf []byte) []fs.DirEntry {
	const nameAt = int(unsafe.Offsetof(syscall.Dirent{}.Name))
	for len(buf) >= nameAt {
		d := (*syscall.Dirent)(unsafe.Pointer(&buf[0]))
		rec := int(d.Reclen)
		if rec < nameAt || rec > len(buf) {
			break
		}
		name := buf[nameAt:rec]
		if i := slices.Index(name, 0); i >= 0 {
			name = name[:i]
		}
		buf = buf[rec:]
		if n := string(name); n != "." && n != ".." {
			e := &typedEntry{fsys: t, path: path.Join(dir, n), name: n}
			switch d.Type {
			case syscall.DT_REG:
				e.typ = 0
			case syscall.DT_DIR:
				e.typ = fs.ModeDir
			case syscall.DT_LNK:
				e.typ = fs.ModeSymlink
			case syscall.DT_FIFO:
				e.typ = fs.ModeNamedPipe
			case syscall.DT_SOCK:
				e.typ = fs.ModeSocket
			case syscall.DT_CHR:
				e.typ = fs.ModeDevice | fs.ModeCharDevice
			case syscall.DT_BLK:
				e.typ = fs.ModeDevice
			default:
				// The file system does not say: lstat, as the root's
				// own ReadDir does; an entry gone meanwhile is left out.
				info, err := t.r.Lstat(e.path)
				if err != nil {
					continue
				}
				e.typ, e.info = info.Mode().Type(), info
			}
			out = append(out, e)
		}
	}
	return out
}

// typedEntry is an entry of a folder with the type the folder gave; its
// Info is asked of lstat through the root on first use.
type typedEntry struct {
	fsys typedRootFS
	path string
	name string
	typ  fs.FileMode
	info fs.FileInfo
}

func (e *typedEntry) Name() string      { return e.name }
func (e *typedEntry) IsDir() bool       { return e.typ.IsDir() }
func (e *typedEntry) Type() fs.FileMode { return e.typ }

// Info is the entry's lstat, through the root.
func (e *typedEntry) Info() (fs.FileInfo, error) {
	if e.info != nil {
		return e.info, nil
	}
	info, err := e.fsys.r.Lstat(e.path)
	if err != nil {
		return nil, err
	}
	e.info = info
	return info, nil
}

var (
	_ fs.ReadDirFS  = typedRootFS{}
	_ fs.ReadFileFS = typedRootFS{}
)
