//go:build !linux

package definitions

import "os"

// folderReader reads the project's files for Build through the os.Root
// (read_linux.go has the faster reader of Linux).
type folderReader struct{ root *os.Root }

func newFolderReader(r *os.Root) *folderReader { return &folderReader{root: r} }

func (fr *folderReader) read(p string) ([]byte, error) { return fr.root.ReadFile(p) }

func (fr *folderReader) readIndexed(p string) ([]byte, error) { return rootReadIndexed(fr.root, p) }

func (fr *folderReader) close() {}
