package definitions

import (
	"bytes"
	"context"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/tent-tools/tent-tools/internal/parallel"
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

// lazyCode is a file's IdentRefs and code words, read on first use. The
// words are kept as a loaded file keeps them, encoded as the cache does
// (stored), and decoded where asked for: the files of a word are found
// without them (eachWord), and a process that reads every file's (a
// server's first references) holds them in a fraction of the memory of
// their maps. Where they do not encode so (a word kept under another,
// which readWords never makes), they are kept as read (words).
type lazyCode struct {
	once   sync.Once
	done   atomic.Bool // read
	refs   []IdentRef
	words  map[string][]Word
	stored *storedWords
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
			words, _, _ := readWords(f, st, l.refs, false)
			tree.Close()
			var e encoder
			e.words(&File{words: words})
			d := &decoder{data: e.buf}
			switch n := d.uint(); {
			case e.odd:
				l.words = words
			case n > 0:
				l.stored = &storedWords{data: slices.Clone(d.take(n))}
			}
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
	parallel.For(len(todo), 1, func(i int) { todo[i].readCode() })
}

// Completes reports whether a file of the index had its IdentRefs and
// words read since its cache record was made without them (Options.Lazy):
// a save of the cache now would keep them for the next process, which
// would otherwise read them from the text again.
func (ix *Index) Completes() bool {
	for _, f := range ix.sorted.all() {
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

// maxLazyLookups is how many lookups of a word a join answers from the
// texts of its files not read yet before it reads them all: a rename or
// a language server's references asks for one name, a map for every
// definition's.
const maxLazyLookups = 16

// lazyWords is what a join knows of the words of its files where some
// were built without them (Options.Lazy) and not read yet: those files,
// and the files of each word among the others.
type lazyWords struct {
	once    sync.Once
	unread  []*File // by path
	read    map[string][]*File
	lookups atomic.Int32
}

// filesOfWord returns the files of j whose code holds word, by path, as
// j.filesWith(word) does. Where some files were built without their words
// and not read since, the first lookups (maxLazyLookups) read only those
// whose text holds word (every word of a file is a part of its text),
// in parallel; later ones read them all at once (words).
func (j *codeJoin) filesOfWord(word string) []*File {
	if j.wordsDone.Load() {
		return j.filesWith(word)
	}
	l := &j.lazyWords
	l.once.Do(func() {
		unread := 0
		for _, f := range j.files {
			if f.lazy != nil && !f.lazy.done.Load() {
				unread++
			}
		}
		if unread == 0 {
			return
		}
		l.read = map[string][]*File{}
		for _, f := range j.files {
			if f.lazy != nil && !f.lazy.done.Load() {
				l.unread = append(l.unread, f)
			} else {
				f.eachWord(func(w string) { l.read[w] = append(l.read[w], f) })
			}
		}
	})
	if len(l.unread) == 0 || l.lookups.Add(1) > maxLazyLookups {
		return j.filesWith(word)
	}
	b := []byte(word)
	var hits []*File
	for _, f := range l.unread {
		if bytes.Contains(f.Src, b) {
			hits = append(hits, f)
		}
	}
	readCodeOf(hits)
	found := hits[:0]
	for _, f := range hits {
		if len(f.wordsOf(word)) > 0 {
			found = append(found, f)
		}
	}
	return mergeFiles(l.read[word], found)
}

// mergeFiles merges two lists of files sorted by path, with no file in
// both.
func mergeFiles(a, b []*File) []*File {
	if len(b) == 0 {
		return a
	}
	if len(a) == 0 {
		return b
	}
	out := make([]*File, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if a[0].Path < b[0].Path {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
}
