package definitions

import (
	"maps"
	"slices"
	"strings"
	"sync"
)

// fileList is a snapshot's files sorted by path: base, a list shared by
// snapshots and never changed, with the files of repl in place of base's
// at those places (the same paths: each a later version of the file). An
// Update that replaces a file copies repl, not the list of every file (a
// keystroke's snapshot at 5,000 tables copied 130 KB); past
// maxFileOverlay places it folds repl into a new base, as fileMap folds
// its overlay. A file that comes or goes makes a new base. A reader of
// every file has the list made whole once per snapshot (all); a reader of
// a few files asks by place (at) or path (search).
type fileList struct {
	base []*File
	repl map[int]*File

	once  sync.Once
	whole []*File
}

// newFileList is the list of files (sorted by path), kept as it is.
func newFileList(files []*File) *fileList { return &fileList{base: files} }

// len is how many files the list holds.
func (l *fileList) len() int { return len(l.base) }

// at is the file at place i.
func (l *fileList) at(i int) *File {
	if f, ok := l.repl[i]; ok {
		return f
	}
	return l.base[i]
}

// search is the place of the file at path p, or where it would go, and
// whether it is there.
func (l *fileList) search(p string) (int, bool) {
	return slices.BinarySearchFunc(l.base, p, func(f *File, p string) int { return strings.Compare(f.Path, p) })
}

// all is every file, sorted by path: the snapshot's own list, which the
// caller must not change.
func (l *fileList) all() []*File {
	if len(l.repl) == 0 {
		return l.base
	}
	l.once.Do(func() {
		w := slices.Clone(l.base)
		for i, f := range l.repl {
			w[i] = f
		}
		l.whole = w
	})
	return l.whole
}

// replaced is the list with f, a file of the same path, at place i.
func (l *fileList) replaced(i int, f *File) *fileList {
	if len(l.repl) >= maxFileOverlay {
		w := slices.Clone(l.all())
		w[i] = f
		return newFileList(w)
	}
	repl := make(map[int]*File, len(l.repl)+1)
	maps.Copy(repl, l.repl)
	repl[i] = f
	return &fileList{base: l.base, repl: repl}
}

// inserted is the list with f, a file of a path it lacks, at place i.
func (l *fileList) inserted(i int, f *File) *fileList {
	all := l.all()
	w := make([]*File, 0, len(all)+1)
	return newFileList(append(append(append(w, all[:i]...), f), all[i:]...))
}

// deleted is the list without the file at place i.
func (l *fileList) deleted(i int) *fileList {
	all := l.all()
	w := make([]*File, 0, len(all)-1)
	return newFileList(append(append(w, all[:i]...), all[i+1:]...))
}
