package definitions

import (
	"encoding/binary"
	"maps"
	"math"
	"slices"
	"unsafe"
)

// This file keeps a file's lines and a test data file's rows in the index
// cache, so that a load reads them back instead of scanning the text again
// (a sixth of what loading the 1,000-table project cost: BenchmarkCacheLoad).
//
// Lines are the differences between the starts of lines. A test data file
// with no findings is kept with its rows: per row its span and keys, per
// key where its literal and value stand, its name (left out where it is
// the text between the literal's quotes) and its value. A value is a tag
// and what the tag needs: a top-level string with no escapes is the text
// between its quotes, read from the file's text, so that neither the
// cache nor the loaded index holds it twice.

// The tags of a test data value in the cache.
const (
	valueNull   = iota
	valueFalse  // false
	valueTrue   // true
	valueNumber // a float64, 8 bytes little-endian
	valueQuoted // a string: the text between its value span's quotes
	valueString // a string, written out
	valueArray  // the number of items, then each
	valueObject // the number of keys, then each key (sorted) and value
)

// How a key's name is kept.
const (
	nameQuoted = iota // the text between its literal's quotes
	nameString        // written out
)

// lines writes the starts of lines as differences.
func (e *encoder) lines(lines []int) {
	e.uint(len(lines))
	prev := 0
	for _, l := range lines {
		e.uint(l - prev)
		prev = l
	}
}

// linesOf writes f's lines as lines does, counting them from its text
// where f has not counted them (File.lateLines), without keeping them.
func (e *encoder) linesOf(f *File) {
	if f.lines != nil || f.lateLines == nil {
		e.lines(f.Lines())
		return
	}
	e.uint(lineCount(f.Src))
	e.uint(0)
	prev := 0
	eachLineAfterFirst(f.Src, func(start int) {
		e.uint(start - prev)
		prev = start
	})
}

func (d *decoder) lines() []int {
	n := d.uint()
	if n == 0 {
		return nil
	}
	out := make([]int, n)
	prev := 0
	for i := range out {
		prev += d.uint()
		out[i] = prev
	}
	return out
}

// rowsKept reports whether f's rows go into the cache: test data read
// without findings (a file with them is read again at load, which gives
// them again), whose keys stand where the scanner puts them.
func rowsKept(f *File) bool {
	if f.TestData == nil || len(f.Findings) > 0 || f.TestData.Table != testDataTable(f.Path) {
		return false
	}
	for _, r := range f.TestData.Rows {
		if r.ID != rowID(r.Keys) {
			return false
		}
		for _, k := range r.Keys {
			lit := k.Name.Lit
			if k.Name.Span != (Span{lit.Start + 1, lit.End - 1}) {
				return false
			}
		}
	}
	return true
}

// quoted reports whether s is the text between the quotes of src[sp].
func quoted(src []byte, sp Span, s string) bool {
	return sp.Start >= 0 && sp.End-sp.Start == len(s)+2 && sp.End <= len(src) &&
		src[sp.Start] == '"' && src[sp.End-1] == '"' && string(src[sp.Start+1:sp.End-1]) == s
}

// rows writes the rows of a test data file whose text is src.
func (e *encoder) rows(src []byte, rows []Row) {
	e.uint(len(rows))
	if len(rows) == 0 {
		return
	}
	all := 0
	for _, r := range rows {
		all += len(r.Keys)
	}
	e.uint(all)
	for _, r := range rows {
		e.span(r.Span)
		e.uint(len(r.Keys))
		for _, k := range r.Keys {
			e.span(k.Name.Lit)
			e.span(k.ValueSpan)
			if quoted(src, k.Name.Lit, k.Name.Name) {
				e.uint(nameQuoted)
			} else {
				e.uint(nameString)
				e.str(k.Name.Name)
			}
			if s, ok := k.Value.(string); ok && quoted(src, k.ValueSpan, s) {
				e.uint(valueQuoted)
				continue
			}
			e.jsonValue(k.Value)
		}
	}
}

// jsonValue writes a value as the test data scanner gives it.
func (e *encoder) jsonValue(v any) {
	switch v := v.(type) {
	case nil:
		e.uint(valueNull)
	case bool:
		if v {
			e.uint(valueTrue)
		} else {
			e.uint(valueFalse)
		}
	case float64:
		e.uint(valueNumber)
		e.buf = binary.LittleEndian.AppendUint64(e.buf, math.Float64bits(v))
	case string:
		e.uint(valueString)
		e.str(v)
	case []any:
		e.uint(valueArray)
		e.uint(len(v))
		for _, item := range v {
			e.jsonValue(item)
		}
	case map[string]any:
		e.uint(valueObject)
		e.uint(len(v))
		for _, k := range slices.Sorted(maps.Keys(v)) {
			e.str(k)
			e.jsonValue(v[k])
		}
	default:
		// The scanner gives no other type; the file is kept as its text
		// (see encoder.file).
		e.odd = true
	}
}

// rows reads the rows of a test data file whose text is src; its strings
// point into src and the cache's bytes.
func (d *decoder) rows(src []byte) []Row {
	n := d.uint()
	if n == 0 {
		return nil
	}
	rows := make([]Row, n)
	all := make([]RowKey, d.uint())
	for i := range rows {
		r := &rows[i]
		r.Span = d.span()
		k := d.uint()
		r.Keys, all = all[:k:k], all[k:]
		for j := range r.Keys {
			key := &r.Keys[j]
			lit, vs := d.span(), d.span()
			key.Name = NameRef{Span: Span{lit.Start + 1, lit.End - 1}, Lit: lit}
			key.ValueSpan = vs
			if d.uint() == nameQuoted {
				key.Name.Name = inside(src, lit)
			} else {
				key.Name.Name = d.str()
			}
			key.Value = d.jsonValue(src, vs)
		}
		r.ID = rowID(r.Keys)
	}
	return rows
}

// inside is the text between the quotes of src[sp], pointing into src.
func inside(src []byte, sp Span) string {
	b := src[sp.Start+1 : sp.End-1]
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// jsonValue reads a value; sp is its span in src where it is a row's key's
// value.
func (d *decoder) jsonValue(src []byte, sp Span) any {
	switch tag := d.uint(); tag {
	case valueNull:
		return nil
	case valueFalse:
		return false
	case valueTrue:
		return true
	case valueNumber:
		return math.Float64frombits(binary.LittleEndian.Uint64(d.take(8)))
	case valueQuoted:
		return inside(src, sp)
	case valueString:
		return d.str()
	case valueArray:
		arr := make([]any, d.uint())
		for i := range arr {
			arr[i] = d.jsonValue(nil, Span{})
		}
		return arr
	case valueObject:
		n := d.uint()
		obj := make(map[string]any, n)
		for range n {
			k := d.str()
			obj[k] = d.jsonValue(nil, Span{})
		}
		return obj
	default:
		panic("a test data value of an unknown kind")
	}
}
