package definitions

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/words"
)

// MaxIndexed is the most of a project file the index reads: 1 MB, the
// most a tool writes. A larger file (written outside the tools) is
// indexed without its contents, with a T1004 finding that names its
// size, and is never read whole: a 50 MB file costs the index what a
// file of no text does (docs/pages/codes-t1.md).
const MaxIndexed = 1 << 20

// TooLargeError is why a file was not read: it holds more than MaxIndexed
// bytes (Size, as far as it was seen).
type TooLargeError struct{ Size int64 }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("the file is %s, over the %s the index reads", words.Bytes(e.Size), words.Bytes(MaxIndexed))
}

// oversizeFile is the File of a path over MaxIndexed: no text, no
// definitions, one T1004 finding at its start.
func oversizeFile(p string, size int64) *File {
	lang, _ := langOf(p)
	f := &File{Path: p, Lang: lang, lines: []int{0}}
	f.Findings = append(f.Findings, f.Finding(diag.T1004, diag.Error,
		fmt.Sprintf("the file is %s, larger than the %s a tool writes; it is indexed without its contents (no definitions are read from it)",
			words.Bytes(size), words.Bytes(MaxIndexed)), Span{}))
	return f
}

// errNotRegular is the error of a path that is no regular file any more.
var errNotRegular = errors.New("not a regular file")

// tooLarge answers the TooLargeError in err, if any.
func tooLarge(err error) (*TooLargeError, bool) {
	var tl *TooLargeError
	ok := errors.As(err, &tl)
	return tl, ok
}

// ReadIndexed reads a project file for the index: its bytes where it
// holds at most MaxIndexed, else a *TooLargeError (wrapped in an
// *fs.PathError), having read no more than MaxIndexed+1 bytes of it.
// A FileChange whose Err is that error is indexed as Build indexes the
// file (T1004).
func ReadIndexed(fsys fs.FS, p string) ([]byte, error) {
	f, err := fsys.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLimited(f, p)
}

// readLimited reads an open file of the project up to MaxIndexed.
func readLimited(f fs.File, p string) ([]byte, error) {
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: p, Err: errNotRegular}
	}
	if info.Size() > MaxIndexed {
		return nil, &fs.PathError{Op: "read", Path: p, Err: &TooLargeError{Size: info.Size()}}
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxIndexed+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxIndexed { // it grew since its stat
		return nil, &fs.PathError{Op: "read", Path: p, Err: &TooLargeError{Size: int64(len(data))}}
	}
	return data, nil
}

// rootReadIndexed is ReadIndexed through an os.Root, which follows a link
// only inside the project.
func rootReadIndexed(r *os.Root, p string) ([]byte, error) {
	f, err := r.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLimited(f, p)
}
