package runner

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"maps"
	"math"
	"slices"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/runner/testdb"
	"github.com/tent-tools/tent-tools/schema"
)

// The app snapshot's layout (appcache.go): a flat binary file, read in one
// pass with no reflection (gob took 28 ms of a run's 60 on 1,000 tables).
// The magic, then strings and counts as uvarints, in the order encodeApp
// writes them; the test data last, as one block decoded only when a table
// is made; then a CRC-32C of all before it. A file that is cut, damaged or
// of another layout fails to decode, and the run reads the index instead.
const appMagic = "tentapp\n"

// errAppSnapshot is the error of bytes that are no app snapshot of this layout.
var errAppSnapshot = errors.New("not an app snapshot of this layout")

// stampsDigest is a hash of every path with its stamp (but the time it was
// taken), so that a snapshot is matched to a walk without keeping 3,000
// stamps to compare one by one.
func stampsDigest(stamps map[string]definitions.Stamp) []byte {
	return definitions.StampsDigest(stamps)
}

// anyRacy reports whether a stamp was taken too soon after its file's
// change to prove anything (definitions.Stamp.Racy).
func anyRacy(stamps map[string]definitions.Stamp) bool {
	for _, s := range stamps {
		if s.Racy() {
			return true
		}
	}
	return false
}

// encodeApp writes the snapshot of a, read by the files whose stamps
// digest, under key; nil where a holds a value it cannot keep.
func encodeApp(key string, digest []byte, a *app) []byte {
	e := &appEncoder{buf: []byte(appMagic)}
	e.str(key)
	e.bytes(digest)
	e.str(a.fingerprint)
	e.str(a.users)
	e.str(a.mailFrom)
	e.strs(a.httpAllow)
	e.strs(a.model.Removed)
	e.uint(len(a.model.Tables))
	for _, t := range a.model.Tables {
		e.table(t)
		def := a.tables[t.Name]
		e.str(def.Path)
		e.set(def.Rules)
	}
	names := slices.Sorted(maps.Keys(a.callables))
	e.uint(len(names))
	for _, n := range names {
		c := a.callables[n]
		e.str(c.Name)
		e.str(c.Kind)
		e.str(c.Path)
		e.columns(c.Input)
		e.strs(c.Steps)
		e.strs(c.Sends)
	}
	names = slices.Sorted(maps.Keys(a.kinds))
	e.uint(len(names))
	for _, n := range names {
		e.str(n)
		e.str(a.kinds[n])
	}
	e.set(a.private)
	data := &appEncoder{}
	names = slices.Sorted(maps.Keys(a.model.TestData))
	data.uint(len(names))
	for _, n := range names {
		data.str(n)
		rows := a.model.TestData[n]
		data.uint(len(rows))
		for _, r := range rows {
			data.value(r)
		}
	}
	e.bytes(data.buf)
	if e.bad || data.bad {
		return nil
	}
	return binary.LittleEndian.AppendUint32(e.buf, crc32.Checksum(e.buf, castagnoli))
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// decodeApp reads a snapshot: its key, its digest and its app, whose
// test data is read when first needed.
func decodeApp(b []byte) (key string, digest []byte, a *app, err error) {
	if len(b) < len(appMagic)+4 || string(b[:len(appMagic)]) != appMagic {
		return "", nil, nil, errAppSnapshot
	}
	body := b[:len(b)-4]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(b[len(body):]) {
		return "", nil, nil, errAppSnapshot
	}
	d := newAppDecoder(body[len(appMagic):])
	key = d.str()
	digest = d.bytes()
	a = &app{callables: map[string]*callable{}, tables: map[string]*tableDef{}, kinds: map[string]string{}, model: &testdb.Model{}}
	a.fingerprint = d.str()
	a.users = d.str()
	a.mailFrom = d.str()
	a.httpAllow = d.strs()
	a.model.Removed = d.strs()
	for range d.count() {
		t := d.table()
		a.model.Tables = append(a.model.Tables, t)
		a.tables[t.Name] = &tableDef{Schema: t, Path: d.str(), Rules: d.set()}
	}
	for range d.count() {
		c := &callable{Name: d.str(), Kind: d.str(), Path: d.str(), Input: d.columns(), Steps: d.strs(), Sends: d.strs()}
		a.callables[c.Name] = c
	}
	for range d.count() {
		name := d.str()
		a.kinds[name] = d.str()
	}
	a.private = d.set()
	if a.private == nil {
		a.private = map[string]bool{}
	}
	data := d.bytes()
	if d.err != nil || len(d.buf) != 0 {
		return "", nil, nil, errAppSnapshot
	}
	a.model.Fingerprint = a.fingerprint
	a.encoded, a.snapKey, a.snapDigest = b, key, digest
	a.model.LoadTestData = func() (map[string][]map[string]any, error) {
		d := newAppDecoder(data)
		out := map[string][]map[string]any{}
		for range d.count() {
			name := d.str()
			n := d.count()
			rows := make([]map[string]any, 0, n)
			for range n {
				row, _ := d.value().(map[string]any)
				rows = append(rows, row)
			}
			out[name] = rows
		}
		if d.err != nil || len(d.buf) != 0 {
			return nil, errAppSnapshot
		}
		return out, nil
	}
	return key, digest, a, nil
}

// appEncoder appends a snapshot's parts to buf. bad is set by a value
// that is none JSON decodes to: such a snapshot would not be the app, so
// it is not kept.
type appEncoder struct {
	buf []byte
	bad bool
}

func (e *appEncoder) uint(n int) { e.buf = binary.AppendUvarint(e.buf, uint64(n)) }

func (e *appEncoder) bytes(b []byte) {
	e.uint(len(b))
	e.buf = append(e.buf, b...)
}

func (e *appEncoder) str(s string) {
	e.uint(len(s))
	e.buf = append(e.buf, s...)
}

func (e *appEncoder) bool(v bool) {
	if v {
		e.buf = append(e.buf, 1)
	} else {
		e.buf = append(e.buf, 0)
	}
}

// strs writes a list of strings; nil and empty read back as nil.
func (e *appEncoder) strs(list []string) {
	e.uint(len(list))
	for _, s := range list {
		e.str(s)
	}
}

// set writes the keys of a set whose values are all true.
func (e *appEncoder) set(m map[string]bool) {
	e.bool(m != nil)
	e.strs(slices.Sorted(maps.Keys(m)))
}

func (e *appEncoder) table(t *schema.Table) {
	e.str(t.Name)
	e.columns(t.Columns)
	e.uint(len(t.Indexes))
	for _, ix := range t.Indexes {
		e.strs(ix)
	}
	e.strs(t.Was)
	e.strs(t.Removed)
}

func (e *appEncoder) columns(cols []*schema.Column) {
	e.uint(len(cols))
	for _, c := range cols {
		e.str(c.Name)
		e.str(string(c.Type))
		e.str(c.Ref)
		e.strs(c.Choices)
		e.bool(c.Optional)
		e.bool(c.Private)
		e.bool(c.Unique)
		e.value(c.Default)
		e.strs(c.Was)
	}
}

// The kinds of a JSON value, as encoding/json decodes it.
const (
	valNull = iota
	valFalse
	valTrue
	valNumber
	valString
	valArray
	valObject
)

// value writes a value as encoding/json decodes one (nil, bool, float64,
// string, []any, map[string]any), keeping every byte of its strings.
func (e *appEncoder) value(v any) {
	switch x := v.(type) {
	case nil:
		e.buf = append(e.buf, valNull)
	case bool:
		if x {
			e.buf = append(e.buf, valTrue)
		} else {
			e.buf = append(e.buf, valFalse)
		}
	case float64:
		e.buf = append(e.buf, valNumber)
		e.buf = binary.LittleEndian.AppendUint64(e.buf, math.Float64bits(x))
	case string:
		e.buf = append(e.buf, valString)
		e.str(x)
	case []any:
		e.buf = append(e.buf, valArray)
		e.uint(len(x))
		for _, y := range x {
			e.value(y)
		}
	case map[string]any:
		e.buf = append(e.buf, valObject)
		keys := slices.Sorted(maps.Keys(x))
		e.uint(len(keys))
		for _, k := range keys {
			e.str(k)
			e.value(x[k])
		}
	default:
		e.bad = true
	}
}

// appDecoder reads a snapshot's parts from buf; the first fault sets err,
// after which every read answers a zero value.
type appDecoder struct {
	buf   []byte
	err   error
	depth int // of the value being read
	// text is buf as it was given, as one string, so that every string
	// read is a part of it, not an allocation of its own (30,000 column
	// names and types on 1,000 tables).
	text string
	size int
}

// newAppDecoder reads b.
func newAppDecoder(b []byte) *appDecoder {
	return &appDecoder{buf: b, text: string(b), size: len(b)}
}

// maxValueDepth bounds the nesting of a value read, as encoding/json
// bounds what it decodes, so that a damaged file cannot exhaust the stack.
const maxValueDepth = 10000

func (d *appDecoder) fail() { d.err, d.buf = errAppSnapshot, nil }

func (d *appDecoder) uint() uint64 {
	n, size := binary.Uvarint(d.buf)
	if size <= 0 {
		d.fail()
		return 0
	}
	d.buf = d.buf[size:]
	return n
}

// count reads a count of things that each take at least one byte, so a
// damaged count cannot make a huge allocation.
func (d *appDecoder) count() int {
	n := d.uint()
	if n > uint64(len(d.buf)) {
		d.fail()
		return 0
	}
	return int(n)
}

func (d *appDecoder) bytes() []byte {
	n := d.count()
	b := d.buf[:n:n]
	d.buf = d.buf[n:]
	return b
}

func (d *appDecoder) str() string {
	n := d.count()
	at := d.size - len(d.buf)
	d.buf = d.buf[n:]
	return d.text[at : at+n]
}

func (d *appDecoder) bool() bool {
	if len(d.buf) == 0 || d.buf[0] > 1 {
		d.fail()
		return false
	}
	v := d.buf[0] == 1
	d.buf = d.buf[1:]
	return v
}

func (d *appDecoder) strs() []string {
	n := d.count()
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}

func (d *appDecoder) set() map[string]bool {
	some := d.bool()
	keys := d.strs()
	if !some {
		return nil
	}
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		m[k] = true
	}
	return m
}

func (d *appDecoder) table() *schema.Table {
	t := &schema.Table{Name: d.str(), Columns: d.columns()}
	if n := d.count(); n > 0 {
		t.Indexes = make([][]string, n)
		for i := range t.Indexes {
			t.Indexes[i] = d.strs()
		}
	}
	t.Was = d.strs()
	t.Removed = d.strs()
	return t
}

func (d *appDecoder) columns() []*schema.Column {
	n := d.count()
	out := make([]*schema.Column, n)
	for i := range out {
		out[i] = &schema.Column{
			Name: d.str(), Type: schema.Type(d.str()), Ref: d.str(), Choices: d.strs(),
			Optional: d.bool(), Private: d.bool(), Unique: d.bool(), Default: d.value(), Was: d.strs(),
		}
	}
	return out
}

func (d *appDecoder) value() any {
	if len(d.buf) == 0 || d.depth >= maxValueDepth {
		d.fail()
		return nil
	}
	d.depth++
	defer func() { d.depth-- }()
	kind := d.buf[0]
	d.buf = d.buf[1:]
	switch kind {
	case valNull:
		return nil
	case valFalse:
		return false
	case valTrue:
		return true
	case valNumber:
		if len(d.buf) < 8 {
			d.fail()
			return nil
		}
		v := math.Float64frombits(binary.LittleEndian.Uint64(d.buf))
		d.buf = d.buf[8:]
		return v
	case valString:
		return d.str()
	case valArray:
		n := d.count()
		out := make([]any, n)
		for i := range out {
			out[i] = d.value()
		}
		return out
	case valObject:
		n := d.count()
		out := make(map[string]any, n)
		for range n {
			k := d.str()
			out[k] = d.value()
		}
		return out
	}
	d.fail()
	return nil
}
