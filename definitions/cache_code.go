package definitions

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/tent-tools/tent-tools/parser"
)

// This file keeps what only rename, references and the map read of a
// file's code, its IdentRefs and code words, out of a build that will
// not ask for them (Options.Lazy: a one-shot check), and reads them from
// the file's text where they are asked for after all. Such a file's
// cache record marks them as not read (a refs count of 0, where a record
// with them holds the count plus one, and no words), so that a process
// that loads it reads them so too, and a save after they were read
// writes the file's record anew, with them (File.completes).
//
// They are read by parsing the file's text again and reading its tree as
// a build without Lazy does: the text is the one the file was read from,
// and the definitions and imports the words depend on are the file's own,
// so they are what a full build finds.

// lazyCode is a file's IdentRefs and code words, read on first use.
type lazyCode struct {
	once  sync.Once
	done  atomic.Bool // read
	refs  []IdentRef
	words map[string][]Word
}

// IdentRefs returns the file's IdentRefs in source order: each identifier
// that names a top-level binding of the file by the rules of lexical
// scope (scope.go). A file built without them (Options.Lazy) reads them
// from its text on the first call. The slice must not be changed.
func (f *File) IdentRefs() []IdentRef {
	if f.lazy != nil {
		return f.readCode().refs
	}
	return f.refs
}

// readCode reads the file's IdentRefs and words where it was built
// without them, once.
func (f *File) readCode() *lazyCode {
	l := f.lazy
	l.once.Do(func() {
		if tree, _ := parser.Parse(context.Background(), f.Path, f.Src); tree != nil {
			st := flattenInto(nil, tree.RootNode(), f.Src, f.Lang)
			l.refs = resolveScopes(st)
			l.words, _ = readWords(f, st, l.refs, false)
			tree.Close()
		}
		l.done.Store(true)
	})
	return l
}

// completes reports whether the file's IdentRefs and words were read
// since its record was made without them: a save encodes the file anew.
func (f *File) completes() bool {
	return f.lazy != nil && f.lazy.done.Load()
}

// readCodeOf reads the IdentRefs and words of the files built without
// them, in parallel: a lookup that asks for them of every file (the
// files of a word, a rename's places) reads them all at once rather than
// one by one.
func readCodeOf(files []*File) {
	var todo []*File
	for _, f := range files {
		if f.lazy != nil && !f.lazy.done.Load() {
			todo = append(todo, f)
		}
	}
	if len(todo) == 0 {
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(todo)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(todo); i = int(next.Add(1) - 1) {
				todo[i].readCode()
			}
		})
	}
	wg.Wait()
}

// Completes reports whether a file of the index had its IdentRefs and
// words read since its cache record was made without them (Options.Lazy):
// a save of the cache now would keep them for the next process, which
// would otherwise read them from the text again.
func (ix *Index) Completes() bool {
	for _, f := range ix.sorted {
		if f.completes() {
			return true
		}
	}
	return false
}

// readCode reads the IdentRefs and words of every file of the join that
// was built without them, once (see readCodeOf).
func (j *codeJoin) readCode() {
	j.codeOnce.Do(func() { readCodeOf(j.files) })
}

// readCode reads the IdentRefs and words of every file of the snapshot
// that was built without them, before a lookup that reads them of many.
func (ci *codeIndex) readCode() {
	ci.base.readCode()
	if ci.overlay != nil {
		ci.overlay.readCode()
	}
}
