package check

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
)

// A one-shot check of a project that did not change since the last one
// answers the findings that one found, without reading the index cache
// nor checking: the findings are kept (in .tent/findings, by the tools)
// with what they were computed from, the stamps of every file the index
// is read from and the key of what else makes them (the program, the test
// database). A check whose walk finds the same stamps and key answers the
// kept findings; any difference, and it checks as before and keeps anew.
//
// A stamp proves nothing about a file changed within the clock's
// granularity of the moment it was taken (definitions.Stamp.Racy): a
// second change in the same tick keeps it. Such a file is kept with the
// hash of the text the findings were made from, and read and hashed again
// before the kept findings are trusted.

// Kept is the findings of one check with what they were made from.
type Kept struct {
	// Key names what the findings depend on beside the project's files:
	// the program that made them and its inputs (the caller's words;
	// findings kept under another key are never answered).
	Key string
	// Stamps is the digest of the stamps of the files the index was read
	// from (definitions.StampsDigest).
	Stamps []byte
	// Texts holds, for each file whose stamp was racy when kept, the
	// SHA-256 of the text the findings were made from.
	Texts map[string][sha256.Size]byte
	// Findings are the check's findings, as it answered them.
	Findings []diag.Finding
}

// keptMagic opens every kept findings file; keptVersion rises with every
// change of its layout.
const (
	keptMagic   = "tentfnd\n"
	keptVersion = 1
)

// errKept is the error of a kept findings file that is cut or damaged.
var errKept = errors.New("kept findings: damaged or cut")

// KeepFindings makes the Kept of findings fs made by a check of ix, whose
// files had stamps (each file the index may hold and the .gitignore files,
// as the walk that read ix took them, and any other file the findings
// depend on under a path of its own, such as the test database). ok is
// false where they cannot be kept soundly: a file of ix without a stamp
// (read through a link), or a racy stamp of a file whose text ix does
// not hold (it could not be hashed again to the same).
func KeepFindings(key string, ix *definitions.Index, stamps map[string]definitions.Stamp, fs []diag.Finding) (k Kept, ok bool) {
	k = Kept{Key: key, Stamps: definitions.StampsDigest(stamps), Findings: fs}
	ignores := ix.IgnoreFiles()
	// Every file the findings were made from is stamped, or nothing is
	// kept: a file read through a link has no stamp of its own (the
	// walk stamps regular files), and the link could be pointed
	// elsewhere with no stamp changing.
	for _, f := range ix.Files() {
		if _, ok := stamps[f.Path]; !ok {
			return Kept{}, false
		}
	}
	for p := range ignores {
		if _, ok := stamps[p]; !ok {
			return Kept{}, false
		}
	}
	for p, st := range stamps {
		if !st.Racy() {
			continue
		}
		var text []byte
		switch src, isRules := ignores[p]; {
		case isRules:
			text = src
		case !isProjectPath(p):
			return Kept{}, false // a state file changed just now (the test database)
		case ix.File(p) != nil:
			text = ix.File(p).Src
		case ix.Indexes(p):
			return Kept{}, false // a file the index would hold, not held
		default:
			continue // a file the index leaves out: its text changes nothing
		}
		if k.Texts == nil {
			k.Texts = map[string][sha256.Size]byte{}
		}
		k.Texts[p] = sha256.Sum256(text)
	}
	return k, true
}

// isProjectPath reports whether p can name a project file: the state
// folder's files (.tent/...) are stamped under their own paths.
func isProjectPath(p string) bool { return !strings.HasPrefix(p, ".tent/") }

// Fits reports whether the kept findings answer a check made now under
// key, of files with stamps (as KeepFindings took them): the same key,
// the same stamps, and each file kept by its text read (read) to the same
// hash. A file that cannot be read does not fit.
func (k Kept) Fits(key string, stamps map[string]definitions.Stamp, read func(p string) ([]byte, error)) bool {
	if k.Key != key || !bytes.Equal(k.Stamps, definitions.StampsDigest(stamps)) {
		return false
	}
	for _, p := range slices.Sorted(maps.Keys(k.Texts)) {
		if _, ok := stamps[p]; !ok {
			return false
		}
		text, err := read(p)
		if err != nil || sha256.Sum256(text) != k.Texts[p] {
			return false
		}
	}
	return true
}

// Encode writes the kept findings in their file's format: the magic, the
// version, the key, the stamps' digest, the texts' hashes, the findings
// (every field; nil told from none), and the SHA-256 of all before it.
func (k Kept) Encode() []byte {
	e := keptEncoder{buf: []byte(keptMagic)}
	e.buf = binary.LittleEndian.AppendUint32(e.buf, keptVersion)
	e.str(k.Key)
	e.str(string(k.Stamps))
	e.uint(len(k.Texts))
	for _, p := range slices.Sorted(maps.Keys(k.Texts)) {
		h := k.Texts[p]
		e.str(p)
		e.buf = append(e.buf, h[:]...)
	}
	if k.Findings == nil {
		e.uint(0) // nil, told from none
	} else {
		e.uint(len(k.Findings) + 1)
	}
	for _, f := range k.Findings {
		e.finding(f)
	}
	sum := sha256.Sum256(e.buf)
	return append(e.buf, sum[:]...)
}

// DecodeKept reads kept findings written by Encode. A file that is cut,
// damaged or of another version is an error, never findings.
func DecodeKept(data []byte) (k Kept, err error) {
	if len(data) < len(keptMagic)+4+sha256.Size || string(data[:len(keptMagic)]) != keptMagic {
		return Kept{}, errKept
	}
	body, sum := data[:len(data)-sha256.Size], data[len(data)-sha256.Size:]
	if want := sha256.Sum256(body); !bytes.Equal(sum, want[:]) {
		return Kept{}, errKept
	}
	if v := binary.LittleEndian.Uint32(body[len(keptMagic):]); v != keptVersion {
		return Kept{}, fmt.Errorf("kept findings: version %d, not %d", v, keptVersion)
	}
	d := keptDecoder{data: body, off: len(keptMagic) + 4}
	k.Key = d.str()
	k.Stamps = []byte(d.str())
	if n := d.uint(); n > uint64(len(d.data)-d.off)+1 {
		d.fail()
	} else if n > 0 {
		k.Texts = make(map[string][sha256.Size]byte, n)
		for range n {
			p := d.str()
			var h [sha256.Size]byte
			copy(h[:], d.take(sha256.Size))
			k.Texts[p] = h
		}
	}
	if n := d.uint(); n > uint64(len(d.data)-d.off)+1 {
		d.fail()
	} else if n > 0 {
		k.Findings = make([]diag.Finding, 0, n-1)
		for range n - 1 {
			k.Findings = append(k.Findings, d.finding())
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

// keptEncoder appends the kept format to buf.
type keptEncoder struct{ buf []byte }

func (e *keptEncoder) uint(n int)   { e.buf = binary.AppendUvarint(e.buf, uint64(n)) }
func (e *keptEncoder) int(n int)    { e.buf = binary.AppendVarint(e.buf, int64(n)) }
func (e *keptEncoder) str(s string) { e.uint(len(s)); e.buf = append(e.buf, s...) }

func (e *keptEncoder) finding(f diag.Finding) {
	e.str(f.Code)
	e.str(string(f.Severity))
	e.str(f.Path)
	e.int(f.Line)
	e.int(f.Col)
	e.int(f.EndLine)
	e.int(f.EndCol)
	e.str(f.Message)
	e.str(f.Definition)
	e.int(f.Start)
	e.int(f.End)
	if f.Fix == nil {
		e.uint(0)
		return
	}
	e.uint(1)
	e.str(f.Fix.Title)
	e.str(f.Fix.Path)
	e.int(f.Fix.Start)
	e.int(f.Fix.End)
	e.str(f.Fix.Text)
}

// keptDecoder reads the kept format; the first read past the end or of a
// bad number sets err, and every read after it answers zero.
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

func (d *keptDecoder) int() int {
	n, size := binary.Varint(d.data[d.off:])
	if size <= 0 {
		d.fail()
		return 0
	}
	d.off += size
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

func (d *keptDecoder) finding() diag.Finding {
	f := diag.Finding{
		Code:     d.str(),
		Severity: diag.Severity(d.str()),
		Path:     d.str(),
	}
	f.Line, f.Col, f.EndLine, f.EndCol = d.int(), d.int(), d.int(), d.int()
	f.Message, f.Definition = d.str(), d.str()
	f.Start, f.End = d.int(), d.int()
	switch d.uint() {
	case 0:
	case 1:
		fx := &diag.Fix{Title: d.str(), Path: d.str()}
		fx.Start, fx.End, fx.Text = d.int(), d.int(), d.str()
		f.Fix = fx
	default:
		d.fail()
	}
	return f
}
