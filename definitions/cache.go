package definitions

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"maps"
	"math"
	"slices"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/tent-tools/tent-tools/diag"
)

// This file holds the index cache: what the index knows per file, written
// to bytes (`.tent/index`, by the tools) and read back, so that a new
// process re-parses only the files that changed since (docs/pages/
// performance.md). The format is a flat binary layout of its own, not
// gob: it loads the 1,000-table project about 4 times as fast (see
// BenchmarkCacheLoad), and its strings and texts point into the loaded
// bytes instead of being copied.
//
// Layout: the magic "tentidx\n", the version (uint32, little-endian), the
// body, and the CRC-32C of all before it (uint32). The body holds the
// .gitignore texts the index follows, the stamp of every file, the number
// of files, the files, and a table of where each begins (so that they are
// read in parallel; after them, so that a save writes each file as it is
// encoded): per TypeScript file its text, lines, definitions (kind, name, spans and
// field tree; the typed parts are read from the tree again), imports,
// exports, identifier references and code words (read when first asked
// for: cache_words.go; or a mark that they were not read at all, for them
// to be read from the text: cache_code.go), uses and findings; per test
// data file its text, lines and rows (cache_rows.go), or its text alone
// where reading it found something (it is read again at load). Numbers
// are varints; a string is its length and its bytes.

// cacheMagic opens every cache file.
const cacheMagic = "tentidx\n"

// CacheVersion is the version of the cache format. A cache of another
// version is not read (LoadCache fails, and the caller builds anew); it
// rises with every change of the layout or of what the index computes
// per file.
const CacheVersion = 9

// racyWindow is how close to the moment a file was stamped its last change
// may be before the stamp is no proof: a change within one tick of the
// file system's clock (a few milliseconds here, 2 s on FAT) can keep the
// size and both times. 2 s covers the coarsest clocks and a little
// difference between the file system's clock and the machine's.
const racyWindow = 2 * time.Second

// Stamp is what tells one version of a file from the next without reading
// it: its size, modification and change times, and inode (a rename over
// it, as every write of the tools does, makes a new inode), with the
// moment the stamp was taken.
type Stamp struct {
	Size  int64
	MTime int64 // Unix nanoseconds
	// CTime is the inode's change time (Unix nanoseconds, 0 where the
	// platform gives none): setting a file's modification time back, as
	// an unpacked archive or a careful tool does, sets it to now.
	CTime int64
	Inode uint64
	// Seen is when the stamp was taken (Unix nanoseconds), at or before
	// the file's text was read.
	Seen int64
}

// Same reports whether two stamps describe the same version of a file.
func (s Stamp) Same(t Stamp) bool {
	return s.Size == t.Size && s.MTime == t.MTime && s.CTime == t.CTime && s.Inode == t.Inode
}

// Racy reports whether the file changed too shortly before it was stamped
// for the stamp to prove that a file with the same stamp holds the same
// text: a second change within the same tick of the clock keeps the times
// (git's "racy clean" rule). A racy file is read again and compared, never
// trusted by its stamp.
func (s Stamp) Racy() bool {
	limit := s.Seen - int64(racyWindow)
	return s.MTime >= limit || s.CTime >= limit
}

// SaveCache writes ix to w in the cache format, each file with its stamp
// in stamps (a file without one is left out: the next process reads it),
// together with the stamps of the .gitignore files (by path) whose rules
// the index follows. A file loaded from a cache or read with its record
// (Options.CacheRecords) is written from its record, the others encoded
// anew, one at a time; the records go to w through a small buffer, not
// gathered in one of the cache's size (whose fresh pages cost more than
// the copy).
func SaveCache(w io.Writer, ix *Index, stamps map[string]Stamp) error {
	size := 1 << 16
	for p := range stamps {
		size += len(p) + 5*binary.MaxVarintLen64 + 4 // the stamp, and the file's place in the table
	}
	e := &encoder{buf: make([]byte, 0, size)}
	e.buf = append(e.buf, cacheMagic...)
	e.buf = binary.LittleEndian.AppendUint32(e.buf, CacheVersion)
	var rules map[string][]byte
	if ix.ignore != nil {
		rules = ix.ignore.src
	}
	e.uint(len(rules))
	for _, dir := range slices.Sorted(maps.Keys(rules)) {
		e.str(dir)
		e.bytes(rules[dir])
	}
	e.uint(len(stamps))
	for _, p := range slices.Sorted(maps.Keys(stamps)) {
		e.str(p)
		e.stamp(stamps[p])
	}
	// The records of the files kept, each as it is or encoded anew into
	// one buffer used again for the next, go to w as they come, with the
	// table of where each begins after them (4 bytes each), so that
	// LoadCache reads them in parallel: no record is kept for the save,
	// nor gathered in memory of the cache's size, whose fresh pages cost
	// more than encoding each file here.
	var kept []*File
	for _, f := range ix.sorted.all() {
		if _, ok := stamps[f.Path]; ok {
			kept = append(kept, f)
		}
	}
	e.uint(len(kept))
	out := bufio.NewWriterSize(w, 256<<10)
	sum := crc32.Update(0, castagnoli, e.buf)
	out.Write(e.buf)
	table := e.buf[:0]
	var fresh encoder
	at := 0
	for _, f := range kept {
		var parts recordParts
		if f.record != nil && !f.completes() {
			parts = f.recordParts()
		} else {
			fresh.buf = fresh.buf[:0]
			fresh.file(f)
			parts = recordParts{fresh.buf}
		}
		table = binary.LittleEndian.AppendUint32(table, uint32(at))
		for _, part := range parts {
			sum = crc32.Update(sum, castagnoli, part)
			out.Write(part)
			at += len(part)
		}
	}
	sum = crc32.Update(sum, castagnoli, table)
	out.Write(table)
	out.Write(binary.LittleEndian.AppendUint32(nil, sum))
	if err := out.Flush(); err != nil {
		return fmt.Errorf("write the index cache: %w", err)
	}
	return nil
}

// recordParts is a file's record as it is written: the record, or, where
// it is kept without its text (File.recordAt), the part before the text,
// the text and the part after it.
type recordParts [3][]byte

// recordParts returns f's record in the parts it is written in.
func (f *File) recordParts() recordParts {
	if f.recordAt == 0 {
		return recordParts{f.record}
	}
	return recordParts{f.record[:f.recordAt], f.Src, f.record[f.recordAt:]}
}

// castagnoli is the CRC-32C table (computed in hardware where it can be).
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// errCache is the error of bytes that are no cache of this version.
var errCache = errors.New("not an index cache of this version")

// LoadCache reads an index and its stamps from what SaveCache wrote. Any
// other version, a cut or damaged cache gives an error, never a wrong
// index: the caller then builds anew. The index keeps data (its texts and
// names point into it): the caller must not change it afterwards. The
// index holds no syntax trees (see File.Tree).
func LoadCache(ctx context.Context, data []byte) (ix *Index, stamps map[string]Stamp, err error) {
	head := len(cacheMagic) + 4
	if len(data) < head+4 || string(data[:len(cacheMagic)]) != cacheMagic {
		return nil, nil, errCache
	}
	if v := binary.LittleEndian.Uint32(data[len(cacheMagic):]); v != CacheVersion {
		return nil, nil, fmt.Errorf("%w: version %d", errCache, v)
	}
	body := data[:len(data)-4]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(data[len(data)-4:]) {
		return nil, nil, fmt.Errorf("%w: it is damaged or cut short", errCache)
	}
	// The checksum makes a damaged cache all but impossible here; a
	// reader that runs off the end (a bug, or the rare collision) panics
	// and is an error like any other.
	defer func() {
		if r := recover(); r != nil {
			ix, stamps, err = nil, nil, fmt.Errorf("%w: %v", errCache, r)
		}
	}()
	d := &decoder{data: body, off: head}
	ign := &ignoreSet{}
	for range d.uint() {
		dir := d.str()
		ign.add(dir, d.bytes())
	}
	n := d.uint()
	stamps = make(map[string]Stamp, n)
	for range n {
		p := d.str()
		stamps[p] = d.stamp()
	}
	files, err := d.files(ctx)
	if err != nil {
		return nil, nil, err
	}
	return newIndex(files, ign), stamps, nil
}

// files reads the files of the cache, in parallel, each from where the
// table of offsets after them says it begins to where the next one begins.
func (d *decoder) files(ctx context.Context) ([]*File, error) {
	n := d.uint()
	start := d.off
	if n < 0 || n > (len(d.data)-start)/4 {
		return nil, fmt.Errorf("%w: a table of files out of place", errCache)
	}
	end := len(d.data) - 4*n
	table := d.data[end:]
	bounds := make([]int, n+1)
	for i := range n {
		bounds[i] = start + int(binary.LittleEndian.Uint32(table[4*i:]))
		if bounds[i] < start || bounds[i] > end || (i > 0 && bounds[i] < bounds[i-1]) {
			return nil, fmt.Errorf("%w: a file out of place", errCache)
		}
	}
	bounds[n] = end
	var failed atomic.Pointer[error]
	var next atomic.Int64
	files := runWorkers(ctx, Options{DropTrees: true}, func(w *worker) (out []*File) {
		defer func() {
			if r := recover(); r != nil {
				err := fmt.Errorf("%w: %v", errCache, r)
				failed.CompareAndSwap(nil, &err)
			}
		}()
		fd := &decoder{} // one per goroutine, for its slabs
		for i := int(next.Add(1) - 1); i < n && failed.Load() == nil; i = int(next.Add(1) - 1) {
			fd.data, fd.off = d.data[:bounds[i+1]], bounds[i]
			f, text := fd.file()
			if fd.off != bounds[i+1] {
				panic(fmt.Sprintf("%s: %d bytes left over", f.Path, bounds[i+1]-fd.off))
			}
			if text {
				f = w.indexFile(ctx, f.Path, f.Src, nil)
			}
			f.record = d.data[bounds[i]:bounds[i+1]:bounds[i+1]]
			out = append(out, f)
		}
		return out
	})
	if err := failed.Load(); err != nil {
		return nil, *err
	}
	return files, nil
}

// The records of a file: how its contents are kept.
const (
	recordParsed = iota // everything the index computed
	recordText          // the text alone, read again at load (test data with findings, a file kept so for odd contents)
	recordRows          // test data: its text, lines and rows
)

// encoder appends the cache format to buf. odd is set where a test data
// value has a type the scanner never gives, or a code word is grouped
// under another: its file is then kept as its text. part is where a
// part whose length goes first is written (words). Where splitText is
// set, a file's text is left out of buf, its length written alone, and
// textAt says where the text goes (File.recordAt; 0 for none).
type encoder struct {
	buf       []byte
	odd       bool
	part      []byte
	splitText bool
	textAt    int
}

func (e *encoder) uint(n int)        { e.buf = binary.AppendUvarint(e.buf, uint64(n)) }
func (e *encoder) uint64(n uint64)   { e.buf = binary.AppendUvarint(e.buf, n) }
func (e *encoder) int(n int64)       { e.buf = binary.AppendVarint(e.buf, n) }
func (e *encoder) bool(b bool)       { e.buf = append(e.buf, boolByte(b)) }
func (e *encoder) str(s string)      { e.uint(len(s)); e.buf = append(e.buf, s...) }
func (e *encoder) span(s Span)       { e.int(int64(s.Start)); e.int(int64(s.End)) }
func (e *encoder) nameRef(r NameRef) { e.str(r.Name); e.span(r.Span); e.span(r.Lit) }

// bytes writes b, telling nil (no text: an unreadable file) from empty.
func (e *encoder) bytes(b []byte) {
	if b == nil {
		e.uint(0)
		return
	}
	e.uint(len(b) + 1)
	e.buf = append(e.buf, b...)
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

func (e *encoder) strs(ss []string) {
	e.uint(len(ss))
	for _, s := range ss {
		e.str(s)
	}
}

// text writes a file's text as bytes does; where splitText is set, its
// length alone, noting where the text goes (textAt).
func (e *encoder) text(src []byte) {
	if !e.splitText || src == nil {
		e.bytes(src)
		return
	}
	e.uint(len(src) + 1)
	e.textAt = len(e.buf)
}

func (e *encoder) file(f *File) {
	e.textAt = 0
	if f.record != nil && !f.completes() { // loaded from a cache of this version, and unchanged since
		for _, part := range f.recordParts() {
			e.buf = append(e.buf, part...)
		}
		return
	}
	mark := len(e.buf)
	e.str(f.Path)
	if f.Lang == LangJSON && f.Src != nil {
		if rowsKept(f) {
			e.uint(recordRows)
			e.text(f.Src)
			e.linesOf(f)
			e.rows(f.Src, f.TestData.Rows)
			if !e.odd {
				return
			}
			e.buf, e.odd = e.buf[:mark], false
			e.str(f.Path)
		}
		e.uint(recordText)
		e.text(f.Src)
		return
	}
	e.uint(recordParsed)
	e.str(string(f.Lang))
	e.text(f.Src)
	e.linesOf(f)
	e.uint(len(f.Definitions))
	for _, d := range f.Definitions {
		e.str(d.Name)
		e.str(string(d.Kind))
		e.str(d.Builder)
		e.span(d.Stmt)
		e.span(d.NameSpan)
		e.value(d.Arg)
	}
	e.uint(len(f.Imports))
	for _, im := range f.Imports {
		e.str(im.Module)
		e.span(im.ModuleSpan)
		e.str(im.Imported)
		e.span(im.ImportedSpan)
		e.str(im.Local)
		e.span(im.LocalSpan)
	}
	e.uint(len(f.Exports))
	for _, ex := range f.Exports {
		e.str(ex.Local)
		e.span(ex.LocalSpan)
		e.str(ex.Exported)
		e.span(ex.ExportedSpan)
		e.str(ex.Module)
	}
	if f.lazy != nil && !f.lazy.done.Load() {
		e.uint(0) // the IdentRefs and words not read (cache_code.go)
	} else {
		refs := f.IdentRefs()
		e.uint(len(refs) + 1)
		for _, r := range refs {
			e.str(r.Name)
			e.span(r.Span)
			e.bool(r.Shorthand)
		}
		e.words(f)
	}
	e.uses(&f.Uses)
	e.uint(len(f.Findings))
	for _, fd := range f.Findings {
		e.finding(fd)
	}
	if e.odd {
		e.buf, e.odd = e.buf[:mark], false
		e.str(f.Path)
		e.uint(recordText)
		e.text(f.Src)
	}
}

// value writes a field tree; nil is kind 0, a value its kind + 1.
func (e *encoder) value(v *Value) {
	if v == nil {
		e.uint(0)
		return
	}
	e.uint(int(v.Kind) + 1)
	e.span(v.Span)
	e.str(v.Str)
	e.uint64(math.Float64bits(v.Num))
	e.bool(v.Bool)
	e.uint(len(v.Items))
	for _, item := range v.Items {
		e.value(item)
	}
	e.uint(len(v.Props))
	for _, p := range v.Props {
		e.str(p.Key)
		e.span(p.KeySpan)
		e.span(p.Span)
		e.bool(p.Shorthand)
		e.value(p.Value)
	}
}

func (e *encoder) uses(u *Uses) {
	e.uint(len(u.DB))
	for _, db := range u.DB {
		e.str(db.Def)
		e.str(db.Table)
		e.span(db.TableSpan)
		e.str(db.Method)
		e.uint(len(db.Keys))
		for _, k := range db.Keys {
			e.nameRef(k)
		}
	}
	e.uint(len(u.Calls))
	for _, c := range u.Calls {
		e.str(c.Def)
		e.nameRef(c.Name)
	}
	e.uint(len(u.Sends))
	for _, s := range u.Sends {
		e.str(s.Def)
		e.str(s.Kind)
		e.span(s.Span)
	}
	e.strMap(u.LibCalls)
	e.strMap(u.SendsOf)
	e.rowFlow(&u.Rows)
}

// strMap writes a map of string lists; nil and empty are told apart.
func (e *encoder) strMap(m map[string][]string) {
	if m == nil {
		e.uint(0)
		return
	}
	e.uint(len(m) + 1)
	for _, k := range slices.Sorted(maps.Keys(m)) {
		e.str(k)
		e.strs(m[k])
	}
}

func (e *encoder) stamp(s Stamp) {
	e.int(s.Size)
	e.int(s.MTime)
	e.int(s.CTime)
	e.uint64(s.Inode)
	e.int(s.Seen)
}

func (e *encoder) finding(f diag.Finding) {
	e.str(f.Code)
	e.str(string(f.Severity))
	e.str(f.Path)
	e.int(int64(f.Line))
	e.int(int64(f.Col))
	e.int(int64(f.EndLine))
	e.int(int64(f.EndCol))
	e.str(f.Message)
	e.str(f.Definition)
	e.int(int64(f.Start))
	e.int(int64(f.End))
	e.bool(f.Fix != nil)
	if f.Fix != nil {
		e.str(f.Fix.Title)
		e.str(f.Fix.Path)
		e.int(int64(f.Fix.Start))
		e.int(int64(f.Fix.End))
		e.str(f.Fix.Text)
	}
}

// decoder reads the cache format from data. Strings and texts point into
// data, which must never change. A read past the end panics (LoadCache
// recovers). The nodes of field trees are taken from slabs, a few
// allocations for thousands of nodes.
type decoder struct {
	data  []byte
	off   int
	vals  []Value
	props []Prop
	// The lists of a field tree's items and props, taken from slabs as
	// the nodes are.
	items    []*Value
	propList []*Prop
}

// slabBytes is how much a decoder allocates at once for the nodes of one
// type: a size class of the heap's own (32 KB), so that a slab is filled
// to its last bytes. A slab of a count of nodes is not: 256 Values of 88
// bytes take a 24 KB object with 2 KB unused, about 4 MB of the index at
// 5,000 tables.
const slabBytes = 32 << 10

// slabLen is how many nodes of type T a slab holds.
func slabLen[T any]() int {
	var zero T
	return max(1, slabBytes/int(unsafe.Sizeof(zero)))
}

func (d *decoder) newValue() *Value { return fromSlab(&d.vals) }
func (d *decoder) newProp() *Prop   { return fromSlab(&d.props) }

// newItems returns a list for n items, capped (an append copies it).
func (d *decoder) newItems(n int) []*Value { return listFromSlab(&d.items, n) }

// newPropList returns a list for n props, capped (an append copies it).
func (d *decoder) newPropList(n int) []*Prop { return listFromSlab(&d.propList, n) }

// fromSlab returns the next element of the slab s, which it fills anew
// (a slab's worth of elements) where it is used up.
func fromSlab[T any](s *[]T) *T {
	if len(*s) == 0 {
		*s = make([]T, slabLen[T]())
	}
	e := &(*s)[0]
	*s = (*s)[1:]
	return e
}

// listFromSlab returns the next n elements of the slab s as a list capped
// at n, so that an append copies it; a list of over a quarter of a slab
// is allocated by itself.
func listFromSlab[T any](s *[]T, n int) []T {
	size := slabLen[T]()
	if n > size/4 {
		return make([]T, n)
	}
	if len(*s) < n {
		*s = make([]T, size)
	}
	list := (*s)[:n:n]
	*s = (*s)[n:]
	return list
}

func (d *decoder) uint64() uint64 {
	n, size := binary.Uvarint(d.data[d.off:])
	if size <= 0 {
		panic("bad number")
	}
	d.off += size
	return n
}

func (d *decoder) uint() int {
	n := d.uint64()
	if n > uint64(len(d.data)) {
		panic("count larger than the cache")
	}
	return int(n)
}

func (d *decoder) int() int64 {
	n, size := binary.Varint(d.data[d.off:])
	if size <= 0 {
		panic("bad number")
	}
	d.off += size
	return n
}

func (d *decoder) bool() bool {
	b := d.data[d.off]
	d.off++
	return b != 0
}

// take returns the next n bytes, capped so that an append never writes
// into the bytes after them.
func (d *decoder) take(n int) []byte {
	b := d.data[d.off : d.off+n : d.off+n]
	d.off += n
	return b
}

func (d *decoder) str() string {
	n := d.uint()
	if n == 0 {
		return ""
	}
	b := d.take(n)
	return unsafe.String(&b[0], n)
}

func (d *decoder) bytes() []byte {
	n := d.uint()
	if n == 0 {
		return nil
	}
	return d.take(n - 1)
}

func (d *decoder) span() Span       { return Span{int(d.int()), int(d.int())} }
func (d *decoder) nameRef() NameRef { return NameRef{Name: d.str(), Span: d.span(), Lit: d.span()} }

func (d *decoder) strs() []string {
	n := d.uint()
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}

// file reads one file's record; text says that it holds the text alone,
// to be read again.
func (d *decoder) file() (f *File, text bool) {
	f = &File{Path: d.str()}
	switch d.uint() {
	case recordText:
		f.Lang, _ = langOf(f.Path)
		f.Src = d.bytes()
		return f, true
	case recordRows:
		f.Lang, f.Src = LangJSON, d.bytes()
		f.lines = d.lines()
		f.TestData = &TestData{Table: testDataTable(f.Path), Rows: d.rows(f.Src)}
		return f, false
	}
	f.Lang = Lang(d.str())
	f.Src = d.bytes()
	f.lines = d.lines()
	if n := d.uint(); n > 0 {
		f.Definitions = make([]*Definition, n)
		for i := range f.Definitions {
			def := &Definition{Name: d.str(), Kind: Kind(d.str()), Builder: d.str(), Path: f.Path, Stmt: d.span(), NameSpan: d.span(), Arg: d.value()}
			readTyped(def)
			f.Definitions[i] = def
		}
	}
	if n := d.uint(); n > 0 {
		f.Imports = make([]Import, n)
		for i := range f.Imports {
			f.Imports[i] = Import{Module: d.str(), ModuleSpan: d.span(), Imported: d.str(), ImportedSpan: d.span(), Local: d.str(), LocalSpan: d.span()}
		}
	}
	if n := d.uint(); n > 0 {
		f.Exports = make([]Export, n)
		for i := range f.Exports {
			f.Exports[i] = Export{Local: d.str(), LocalSpan: d.span(), Exported: d.str(), ExportedSpan: d.span(), Module: d.str()}
		}
	}
	switch n := d.uint(); {
	case n == 0: // not read (cache_code.go)
		f.lazy = &lazyCode{}
	default:
		if n > 1 {
			f.refs = make([]IdentRef, n-1)
			for i := range f.refs {
				f.refs[i] = IdentRef{Name: d.str(), Span: d.span(), Shorthand: d.bool()}
			}
		}
		f.stored = d.storedWords()
	}
	d.uses(&f.Uses)
	if n := d.uint(); n > 0 {
		f.Findings = make([]diag.Finding, n)
		for i := range f.Findings {
			f.Findings[i] = d.finding()
		}
	}
	return f, false
}

func (d *decoder) value() *Value {
	k := d.uint()
	if k == 0 {
		return nil
	}
	v := d.newValue()
	*v = Value{Kind: ValueKind(k - 1), Span: d.span(), Str: d.str(), Num: math.Float64frombits(d.uint64()), Bool: d.bool()}
	if n := d.uint(); n > 0 {
		v.Items = d.newItems(n)
		for i := range v.Items {
			v.Items[i] = d.value()
		}
	}
	if n := d.uint(); n > 0 {
		v.Props = d.newPropList(n)
		for i := range v.Props {
			p := d.newProp()
			*p = Prop{Key: d.str(), KeySpan: d.span(), Span: d.span(), Shorthand: d.bool()}
			p.Value = d.value()
			v.Props[i] = p
		}
	}
	return v
}

func (d *decoder) uses(u *Uses) {
	if n := d.uint(); n > 0 {
		u.DB = make([]DBUse, n)
		for i := range u.DB {
			db := DBUse{Def: d.str(), Table: d.str(), TableSpan: d.span(), Method: d.str()}
			if k := d.uint(); k > 0 {
				db.Keys = make([]NameRef, k)
				for j := range db.Keys {
					db.Keys[j] = d.nameRef()
				}
			}
			u.DB[i] = db
		}
	}
	if n := d.uint(); n > 0 {
		u.Calls = make([]CallUse, n)
		for i := range u.Calls {
			u.Calls[i] = CallUse{Def: d.str(), Name: d.nameRef()}
		}
	}
	if n := d.uint(); n > 0 {
		u.Sends = make([]SendUse, n)
		for i := range u.Sends {
			u.Sends[i] = SendUse{Def: d.str(), Kind: d.str(), Span: d.span()}
		}
	}
	u.LibCalls = d.strMap()
	u.SendsOf = d.strMap()
	d.rowFlow(&u.Rows)
}

func (d *decoder) strMap() map[string][]string {
	n := d.uint()
	if n == 0 {
		return nil
	}
	m := make(map[string][]string, n-1)
	for range n - 1 {
		k := d.str()
		m[k] = d.strs()
	}
	return m
}

func (d *decoder) stamp() Stamp {
	return Stamp{Size: d.int(), MTime: d.int(), CTime: d.int(), Inode: d.uint64(), Seen: d.int()}
}

func (d *decoder) finding() diag.Finding {
	f := diag.Finding{
		Code: d.str(), Severity: diag.Severity(d.str()), Path: d.str(),
		Line: int(d.int()), Col: int(d.int()), EndLine: int(d.int()), EndCol: int(d.int()),
		Message: d.str(), Definition: d.str(), Start: int(d.int()), End: int(d.int()),
	}
	switch d.data[d.off] {
	case 0:
		d.off++
	case 1:
		d.off++
		f.Fix = &diag.Fix{Title: d.str(), Path: d.str(), Start: int(d.int()), End: int(d.int()), Text: d.str()}
	default:
		panic("bad fix flag")
	}
	return f
}

// AppendFinding appends f to buf in the encoding the index cache keeps
// findings in; ReadFinding reads it back. check's kept findings
// (.tent/findings) hold theirs in it too.
func AppendFinding(buf []byte, f diag.Finding) []byte {
	e := encoder{buf: buf}
	e.finding(f)
	return e.buf
}

// ReadFinding reads the finding AppendFinding wrote at the start of data
// and answers how many bytes it took. Its strings point into data, which
// must never change. A cut or damaged encoding is an error.
func ReadFinding(data []byte) (f diag.Finding, n int, err error) {
	return readOneOf(data, "a finding", (*decoder).finding)
}

// AppendStamp appends s to buf in the encoding the index cache keeps
// stamps in; ReadStamp reads it back. check's kept findings hold the
// stamps of their files in it too, so that a stamp is written one way.
func AppendStamp(buf []byte, s Stamp) []byte {
	e := encoder{buf: buf}
	e.stamp(s)
	return e.buf
}

// ReadStamp reads the stamp AppendStamp wrote at the start of data and
// answers how many bytes it took. A cut or damaged encoding is an error.
func ReadStamp(data []byte) (s Stamp, n int, err error) {
	return readOneOf(data, "a stamp", (*decoder).stamp)
}

// readOneOf reads one value at the start of data with the decoder's read,
// for another package's format: the decoder's panic at a cut or damaged
// encoding (LoadCache's rule) is that caller's error instead.
func readOneOf[T any](data []byte, what string, read func(*decoder) T) (v T, n int, err error) {
	defer func() {
		if r := recover(); r != nil {
			var zero T
			v, n, err = zero, 0, fmt.Errorf("definitions: %s cut or damaged: %v", what, r)
		}
	}()
	d := decoder{data: data}
	v = read(&d)
	return v, d.off, nil
}
