package definitions

import "os"

// Reader reads files of a project by path as Build does: on Linux each
// folder is opened once through the os.Root and each file with openat on
// its descriptor, following no link (read_linux.go); elsewhere through the
// os.Root. It is for reading many files of a walk at once, and is safe
// for concurrent use.
type Reader struct{ fr *folderReader }

// NewReader reads the files under root.
func NewReader(root *os.Root) *Reader { return &Reader{fr: newFolderReader(root)} }

// Read returns the bytes of the regular file at p, a slash-separated path
// in the project.
func (r *Reader) Read(p string) ([]byte, error) { return r.fr.read(p) }

// Close closes the folders the reader opened; no Read may be running.
func (r *Reader) Close() { r.fr.close() }
