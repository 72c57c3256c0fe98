package check

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
)

// A one-shot check of a project that did not change since the last one
// answers the findings that one found, without reading the index cache
// nor checking: the findings are kept (in .tent/findings, by the tools)
// with what they were made from, each file the index is read from with
// its stamp and the hash of its text, and the key of what else makes them
// (the program). A check whose walk finds every file with the same stamp,
// or with another stamp but the same text (read and hashed again: a file
// touched, or written back as it was), answers the kept findings; any
// other difference, and it checks as before and keeps anew.
//
// A stamp proves nothing about a file changed within the clock's
// granularity of the moment it was taken (definitions.Stamp.Racy): a
// second change in the same tick keeps it. Such a file is read and hashed
// again whatever its stamp. A file whose text the findings do not depend
// on (one the index leaves out) and a state file (the test database, under
// ".tent/") are trusted by their stamp alone, never by a racy one.
//
// A text's hash is its 64-bit xxHash, not a cryptographic one: it tells a
// file written back as it was from one changed (two texts that differ
// share one by chance once in 2^64), and it costs a twentieth of SHA-256's
// time, which hashing every text of the project for the next check took
// (half a percent of a cold check's CPU). Whoever can write the project's
// files can change what the check answers anyway.

// Kept is the findings of one check with what they were made from.
type Kept struct {
	// Key names what the findings depend on beside the files: the
	// program that made them and its inputs (the caller's words;
	// findings kept under another key are never answered).
	Key string
	// Files are the files the findings were made from, by path.
	Files []KeptFile
	// Findings are the check's findings, as it answered them.
	Findings []diag.Finding
}

// KeptFile is one file the kept findings were made from.
type KeptFile struct {
	Path  string
	Stamp definitions.Stamp
	// Text is the hash of the file's text as the findings read it
	// (textHash), where HasText: a file kept without it is trusted by its
	// stamp alone.
	Text    uint64
	HasText bool
}

// keptMagic opens every kept findings file; keptVersion rises with every
// change of its layout.
const (
	keptMagic   = "tentfnd\n"
	keptVersion = 3
)

// keptSumSize is the size of the checksum that ends a kept findings file.
const keptSumSize = 8

// textHash is the hash a kept file holds of a text.
func textHash(text []byte) uint64 { return xxhash.Sum64(text) }

// errKept is the error of a kept findings file that is cut or damaged.
var errKept = errors.New("kept findings: damaged or cut")

// KeepFindings makes the Kept of findings fs made by a check of ix, whose
// files had stamps (each file the index may hold and the .gitignore files,
// as the walk that read ix took them, and any other file the findings
// depend on under a path of its own beginning ".tent/", such as the test
// database). ok is false where they cannot be kept soundly: a file of ix
// without a stamp (read through a link), a racy stamp of a file whose text
// ix does not hold, or a racy state file.
func KeepFindings(key string, ix *definitions.Index, stamps map[string]definitions.Stamp, fs []diag.Finding) (k Kept, ok bool) {
	ignores := ix.IgnoreFiles()
	// Every file the findings were made from is stamped, or nothing is
	// kept: a file read through a link has no stamp of its own (the
	// walk stamps regular files), and the link could be pointed
	// elsewhere with no stamp changing. The index's files are met in
	// the order of the stamps' paths (both by path), one after the
	// other: one the stamps pass over has none.
	for p := range ignores {
		if _, ok := stamps[p]; !ok {
			return Kept{}, false
		}
	}
	files, next := ix.SortedFiles(), 0
	k = Kept{Key: key, Files: make([]KeptFile, 0, len(stamps)), Findings: fs}
	for _, p := range slices.Sorted(maps.Keys(stamps)) {
		if next < len(files) && files[next].Path < p {
			return Kept{}, false
		}
		var file *definitions.File
		if next < len(files) && files[next].Path == p {
			file = files[next]
			next++
		}
		kf := KeptFile{Path: p, Stamp: stamps[p]}
		var text []byte
		switch src, isRules := ignores[p]; {
		case isRules:
			text, kf.HasText = src, true
		case !isProjectPath(p):
			if kf.Stamp.Racy() {
				return Kept{}, false // a state file changed just now (the test database)
			}
		case file != nil:
			text, kf.HasText = file.Src, true
		case ix.Indexes(p) && kf.Stamp.Racy():
			return Kept{}, false // a file the index would hold, not held
		}
		if kf.HasText {
			kf.Text = textHash(text)
		}
		k.Files = append(k.Files, kf)
	}
	if next < len(files) {
		return Kept{}, false // files past the last stamp's path have none
	}
	return k, true
}

// isProjectPath reports whether p can name a project file: the state
// folder's files (.tent/...) are stamped under their own paths.
func isProjectPath(p string) bool { return !strings.HasPrefix(p, ".tent/") }

// Fits reports whether the kept findings answer a check made now under
// key, of files with stamps (as KeepFindings took them): the same key and
// the same files, each with the same stamp, not racy when kept, or else
// its text read (read) to the same hash. A file that cannot be read does
// not fit.
func (k Kept) Fits(key string, stamps map[string]definitions.Stamp, read func(p string) ([]byte, error)) bool {
	if k.Key != key || len(k.Files) != len(stamps) {
		return false
	}
	var again []KeptFile
	for _, f := range k.Files {
		now, ok := stamps[f.Path]
		if !ok {
			return false
		}
		if f.Stamp.Same(now) && !f.Stamp.Racy() {
			continue
		}
		if !f.HasText {
			return false
		}
		again = append(again, f)
	}
	for _, f := range again {
		text, err := read(f.Path)
		if err != nil || textHash(text) != f.Text {
			return false
		}
	}
	return true
}

// Encode writes the kept findings in their file's format: the magic, the
// version, the key, the files (path, stamp, text's hash), the findings
// (every field; nil told from none), and the SHA-256 of all before it.
func (k Kept) Encode() []byte {
	e := keptEncoder{buf: []byte(keptMagic)}
	e.buf = binary.LittleEndian.AppendUint32(e.buf, keptVersion)
	e.str(k.Key)
	e.uint(len(k.Files))
	for _, f := range k.Files {
		e.str(f.Path)
		e.buf = definitions.AppendStamp(e.buf, f.Stamp)
		if !f.HasText {
			e.uint(0)
			continue
		}
		e.uint(1)
		e.buf = binary.LittleEndian.AppendUint64(e.buf, f.Text)
	}
	if k.Findings == nil {
		e.uint(0) // nil, told from none
	} else {
		e.uint(len(k.Findings) + 1)
	}
	for _, f := range k.Findings {
		e.finding(f)
	}
	return binary.LittleEndian.AppendUint64(e.buf, xxhash.Sum64(e.buf))
}

// DecodeKept reads kept findings written by Encode. A file that is cut,
// damaged or of another version is an error, never findings.
func DecodeKept(data []byte) (k Kept, err error) {
	if len(data) < len(keptMagic)+4+keptSumSize || string(data[:len(keptMagic)]) != keptMagic {
		return Kept{}, errKept
	}
	body, sum := data[:len(data)-keptSumSize], data[len(data)-keptSumSize:]
	if xxhash.Sum64(body) != binary.LittleEndian.Uint64(sum) {
		return Kept{}, errKept
	}
	if v := binary.LittleEndian.Uint32(body[len(keptMagic):]); v != keptVersion {
		return Kept{}, fmt.Errorf("kept findings: version %d, not %d", v, keptVersion)
	}
	// The findings' strings point into the bytes they are read from: a
	// copy of its own, so that data may change after.
	d := keptDecoder{data: bytes.Clone(body), off: len(keptMagic) + 4}
	k.Key = d.str()
	if n := d.count(); n > 0 {
		k.Files = make([]KeptFile, 0, n)
		for range n {
			f := KeptFile{Path: d.str(), Stamp: keptRead(&d, definitions.ReadStamp)}
			switch d.uint() {
			case 0:
			case 1:
				if b := d.take(8); b != nil {
					f.Text, f.HasText = binary.LittleEndian.Uint64(b), true
				}
			default:
				d.fail()
			}
			if len(k.Files) > 0 && k.Files[len(k.Files)-1].Path >= f.Path {
				d.fail() // each path once, in order
			}
			k.Files = append(k.Files, f)
		}
	}
	if n := d.uint(); n > uint64(len(d.data)-d.off)+1 {
		d.fail()
	} else if n > 0 {
		k.Findings = make([]diag.Finding, 0, n-1)
		for range n - 1 {
			k.Findings = append(k.Findings, keptRead(&d, definitions.ReadFinding))
		}
	}
	if d.err != nil {
		return Kept{}, d.err
	}
	if d.off != len(body) {
		return Kept{}, errKept
	}
	return k, nil
}

// keptEncoder appends the kept format to buf. Stamps and findings are
// written as the index cache writes them (definitions.AppendStamp,
// AppendFinding): one encoding of each, read back by keptRead.
type keptEncoder struct{ buf []byte }

func (e *keptEncoder) uint(n int)   { e.buf = binary.AppendUvarint(e.buf, uint64(n)) }
func (e *keptEncoder) str(s string) { e.uint(len(s)); e.buf = append(e.buf, s...) }

func (e *keptEncoder) finding(f diag.Finding) { e.buf = definitions.AppendFinding(e.buf, f) }

// keptDecoder reads the kept format. Its error rule is its own: the first
// read past the end or of a bad number sets err (errKept), and every read
// after it answers zero, where the index cache's decoder panics (its
// LoadCache recovers); the values whose encoding the two share are read
// by definitions' readers (keptRead), their errors made errKept.
type keptDecoder struct {
	data []byte
	off  int
	err  error
}

func (d *keptDecoder) fail() {
	if d.err == nil {
		d.err = errKept
	}
	d.off = len(d.data)
}

func (d *keptDecoder) uint() uint64 {
	n, size := binary.Uvarint(d.data[d.off:])
	if size <= 0 {
		d.fail()
		return 0
	}
	d.off += size
	return n
}

// count reads a count, which can be no larger than the bytes left.
func (d *keptDecoder) count() int {
	n := d.uint()
	if n > uint64(len(d.data)-d.off) {
		d.fail()
		return 0
	}
	return int(n)
}

func (d *keptDecoder) take(n int) []byte {
	if n > len(d.data)-d.off {
		d.fail()
		return nil
	}
	b := d.data[d.off : d.off+n]
	d.off += n
	return b
}

func (d *keptDecoder) str() string { return string(d.take(d.count())) }

// keptRead reads one value with read, one of definitions' readers of the
// encoding the kept format shares with the index cache (ReadStamp,
// ReadFinding), under d's error rule.
func keptRead[T any](d *keptDecoder, read func([]byte) (T, int, error)) T {
	var zero T
	if d.err != nil {
		return zero
	}
	v, n, err := read(d.data[d.off:])
	if err != nil {
		d.fail()
		return zero
	}
	d.off += n
	return v
}
