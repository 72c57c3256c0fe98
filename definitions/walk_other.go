//go:build !linux

package definitions

import (
	"io/fs"
	"os"
)

// walkFS is the file system walkProject lists the project with: r's
// (walk_linux.go lists folders without an lstat of each entry).
func walkFS(r *os.Root) fs.FS { return r.FS() }
