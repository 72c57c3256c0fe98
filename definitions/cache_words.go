package definitions

import (
	"maps"
	"slices"
	"sync"
)

// This file keeps a file's code words in the index cache, and reads them
// back only when they are asked for. The words are most of what a file's
// record holds (127,000 of them on the 1,000-table project), and most
// commands ask for few of them or none: the check never does (codeJoin),
// and a rename asks for the files of one word. A file loaded from the
// cache keeps its words as stored; the join over every file reads the
// words alone, and a file's words with their places are read the first
// time one of them is asked for.
//
// Layout: the byte length of what follows (so that a load steps over it),
// the number of words, each word and how many times the file holds it
// (sorted by word), then each time in the same order: its span (start,
// and length), why it is listed (a tag, or 0 and the reason written out)
// and the table its context names.

// whyTags are the reasons a word is listed, by their tag in the cache less
// one; a reason not here is written out after tag 0.
var whyTags = [...]Why{WhyDBAccessor, WhyProperty, WhyObjectKey, WhyString, WhyComment, WhyCallName}

// storedWords are a file's words as the index cache holds them, read on
// first use.
type storedWords struct {
	data  []byte // the words' part of the file's record, after its length
	once  sync.Once
	words map[string][]Word
}

// Words returns the identifier-shaped words of the file's code that may
// name a definition or a column, by word; nil where there are none. A file
// loaded from the index cache reads them from its record on the first
// call. The map must not be changed.
func (f *File) Words() map[string][]Word {
	words, stored := f.wordParts()
	if stored != nil {
		stored.once.Do(stored.read)
		return stored.words
	}
	return words
}

// wordsOf returns the file's words that are word, as Words()[word] does,
// without reading the others: a file loaded from the cache finds them in
// its record, and keeps nothing. A query of one name over thousands of
// files (references, a rename, a hover's count) so leaves their words as
// stored, where Words' map would hold all of them, pointers each, for
// the index's life. The answer must not be changed.
func (f *File) wordsOf(word string) []Word {
	words, stored := f.wordParts()
	if stored == nil {
		return words[word]
	}
	return stored.of(word)
}

// of reads the words that are word from the stored words (see the layout
// above): the counts of the words before it say how many places to step
// over.
func (s *storedWords) of(word string) []Word {
	d := &decoder{data: s.data}
	before, count, key, found := 0, 0, "", false
	for range d.uint() {
		k, n := d.str(), d.uint()
		switch {
		case found:
		case k == word:
			key, count, found = k, n, true
		default:
			before += n
		}
	}
	if !found {
		return nil
	}
	for range before {
		d.int()
		d.int()
		d.why()
		d.skipStr()
	}
	out := make([]Word, count)
	for j := range out {
		start := int(d.int())
		out[j] = Word{Word: key, Span: Span{start, start + int(d.int())}, Why: d.why(), Table: d.str()}
	}
	return out
}

// skipStr steps over a string.
func (d *decoder) skipStr() {
	if n := d.uint(); n > 0 {
		d.take(n)
	}
}

// wordParts returns the file's words as read, or as stored (one of the
// two; both nil where there are none): the File's own, or, where its
// build left them out (Options.Lazy), those read from its text.
func (f *File) wordParts() (map[string][]Word, *storedWords) {
	if f.lazy != nil {
		l := f.readCode()
		return l.words, l.stored
	}
	return f.words, f.stored
}

// eachWord calls yield with each distinct word of the file's code, in no
// set order; a file loaded from the cache reads them from its record
// without the places.
func (f *File) eachWord(yield func(string)) {
	words, stored := f.wordParts()
	if stored == nil {
		for w := range words {
			yield(w)
		}
		return
	}
	d := &decoder{data: stored.data}
	for range d.uint() {
		yield(d.str())
		d.uint()
	}
}

// read decodes the words. The record was checked at load (its checksum,
// and its length stepped over): a decoding that fails here is a bug.
func (s *storedWords) read() {
	d := &decoder{data: s.data}
	s.words = d.words()
}

// words writes a file's words (see the layout above), which must be
// grouped by their word, as readWords groups them; a word kept under
// another sets e.odd (the file is then kept as its text).
func (e *encoder) words(f *File) {
	words, stored := f.wordParts() // a lazy file's are read (encoder.file)
	if stored != nil {             // loaded, and not read since: as stored
		e.uint(len(stored.data))
		e.buf = append(e.buf, stored.data...)
		return
	}
	keys := slices.Sorted(maps.Keys(words))
	if len(keys) == 0 {
		e.uint(0)
		return
	}
	// The part is written apart, for its length to go first.
	outer := e.buf
	e.buf = e.part[:0]
	e.uint(len(keys))
	for _, key := range keys {
		e.str(key)
		e.uint(len(words[key]))
	}
	for _, key := range keys {
		for _, w := range words[key] {
			if w.Word != key {
				e.odd = true
			}
			e.int(int64(w.Span.Start))
			e.int(int64(w.Span.End - w.Span.Start))
			e.why(w.Why)
			e.str(w.Table)
		}
	}
	part := e.buf
	e.buf, e.part = outer, part[:0]
	e.uint(len(part))
	e.buf = append(e.buf, part...)
}

// why writes a word's reason as its tag.
func (e *encoder) why(why Why) {
	for i, w := range whyTags {
		if w == why {
			e.uint(i + 1)
			return
		}
	}
	e.uint(0)
	e.str(string(why))
}

func (d *decoder) why() Why {
	tag := d.uint()
	if tag == 0 {
		return Why(d.str())
	}
	if tag > len(whyTags) {
		panic("a word's reason of an unknown tag")
	}
	return whyTags[tag-1]
}

// storedWords steps over a file's words, kept as stored; nil where there
// are none.
func (d *decoder) storedWords() *storedWords {
	n := d.uint()
	if n == 0 {
		return nil
	}
	return &storedWords{data: d.take(n)}
}

// words reads the words, all in one array.
func (d *decoder) words() map[string][]Word {
	n := d.uint()
	if n == 0 {
		return nil
	}
	keys := make([]string, n)
	counts := make([]int, n)
	all := 0
	for i := range keys {
		keys[i], counts[i] = d.str(), d.uint()
		all += counts[i]
	}
	words := make(map[string][]Word, n)
	list := make([]Word, all)
	for i, key := range keys {
		ws := list[:counts[i]:counts[i]]
		list = list[counts[i]:]
		for j := range ws {
			start := int(d.int())
			ws[j] = Word{Word: key, Span: Span{start, start + int(d.int())}, Why: d.why(), Table: d.str()}
		}
		words[key] = ws
	}
	return words
}
