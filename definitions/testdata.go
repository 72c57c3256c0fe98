package definitions

// This file reads test data files, testdata/<table>.json (docs/pages/format.md §5),
// with the byte position of every row and of each row's top-level keys
// and values, so that rename can change a key in place and the check can
// point at a value. encoding/json knows no positions, so a small scanner
// reads the JSON; the values it gives are those encoding/json would.

import (
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tent-tools/tent-tools/schema"

	"github.com/tent-tools/tent-tools/diag"
)

// maxJSONDepth bounds the nesting of a test data value, as encoding/json
// does.
const maxJSONDepth = 10000

// readTestData reads f as a test data file into f.TestData, and adds T1002
// findings for JSON that is not valid or not an array of objects. A file
// that is not valid JSON keeps its table name but no rows: the rows of a
// file cut short are not what the file will hold once it is fixed. sc is
// the scratch of the worker that reads it (nil for one of its own).
func readTestData(f *File, sc *rowScratch) {
	td := &TestData{Table: testDataTable(f.Path)}
	f.TestData = td
	if sc == nil {
		sc = &rowScratch{}
	}
	s := &jsonScanner{src: f.Src, rowScratch: sc}
	if len(s.src) >= 3 && string(s.src[:3]) == "\ufeff" {
		s.pos = 3
	}
	rows, err := s.rows(f)
	if err != nil {
		end := min(err.at+1, len(f.Src))
		if err.at >= len(f.Src) {
			end = err.at
		}
		f.Findings = append(f.Findings, f.Finding(diag.T1002, diag.Error, err.msg, Span{err.at, end}))
		return
	}
	td.Rows = rows
}

// testDataTable is the table a test data file at path p holds rows of:
// its base name.
func testDataTable(p string) string {
	return strings.TrimSuffix(path.Base(p), path.Ext(p))
}

// rowID is a row's id: the value of its last "id" key (the one that
// counts, as where the row is decoded) where that is a string, else "".
func rowID(keys []RowKey) string {
	for i := len(keys) - 1; i >= 0; i-- {
		if keys[i].Name.Name == "id" {
			id, _ := keys[i].Value.(string)
			return id
		}
	}
	return ""
}

// jsonError is a syntax error at a byte offset.
type jsonError struct {
	at  int
	msg string
}

// jsonScanner reads JSON from src, keeping byte positions.
type jsonScanner struct {
	src []byte
	pos int
	*rowScratch
}

// rowScratch is what the test data scanner keeps from file to file, in
// the worker that reads them, so that a build allocates what it keeps of
// each file's rows and little else: on 10,000 tables the lists grown
// afresh for each file were 40 MB of the 100 MB the rows took, memory
// fresh from the system where a one-shot check collects nothing.
type rowScratch struct {
	// keys are the keys read so far, each made a string once: the rows
	// of a project's test data mostly have the same keys. They are the
	// worker's, so that a key is one string however many files hold it.
	keys map[string]string
	// rowKeys is where the keys of a file's rows are read, and fileRows its
	// rows (each Keys the number of its keys in rowKeys), then copied
	// out at their number: one list of every key of the file, each row's
	// Keys a part of it, neither grown nor holding room it does not use.
	rowKeys  []RowKey
	fileRows []Row
}

func (s *jsonScanner) fail(format string, args ...any) *jsonError {
	return &jsonError{at: s.pos, msg: fmt.Sprintf(format, args...)}
}

// found describes the byte at the scanner's position for a message.
func (s *jsonScanner) found() string {
	if s.pos >= len(s.src) {
		return "the end of the file"
	}
	r, _ := utf8.DecodeRune(s.src[s.pos:])
	return "`" + string(r) + "`"
}

func (s *jsonScanner) space() {
	for s.pos < len(s.src) {
		switch s.src[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// rows reads the whole file: one array of row objects. An item that is
// no object is a T1002 finding of its own; the other rows are kept.
func (s *jsonScanner) rows(f *File) ([]Row, *jsonError) {
	s.space()
	if s.pos >= len(s.src) {
		return nil, s.fail("the file is empty: test data is a JSON array of rows, `[{\"id\": \"...\", ...}]`")
	}
	if s.src[s.pos] != '[' {
		start := s.pos
		v, _, err := s.value(0, nil)
		if err != nil {
			return nil, err
		}
		return nil, &jsonError{at: start, msg: fmt.Sprintf("test data is a JSON array of rows, `[{...}, ...]`; this file holds %s", schema.JSONKind(v))}
	}
	s.pos++
	s.rowKeys, s.fileRows = s.rowKeys[:0], s.fileRows[:0]
	for n := 1; ; n++ {
		s.space()
		if n == 1 && s.pos < len(s.src) && s.src[s.pos] == ']' {
			s.pos++
			break
		}
		start := s.pos
		from := len(s.rowKeys)
		v, span, err := s.value(0, &s.rowKeys)
		if err != nil {
			return nil, err
		}
		if _, ok := v.(rowObject); ok {
			keys := s.rowKeys[from:]
			// Keys holds the row's number of keys till they are copied out.
			s.fileRows = append(s.fileRows, Row{Span: span, ID: rowID(keys), Keys: keys[:0:len(keys)]})
		} else {
			f.Findings = append(f.Findings, f.Finding(diag.T1002, diag.Error,
				fmt.Sprintf("row %d is %s, not an object `{...}`", n, schema.JSONKind(v)), Span{start, span.End}))
		}
		s.space()
		if s.pos < len(s.src) && s.src[s.pos] == ',' {
			s.pos++
			continue
		}
		if s.pos < len(s.src) && s.src[s.pos] == ']' {
			s.pos++
			break
		}
		return nil, s.fail("expected `,` or `]` after row %d, found %s", n, s.found())
	}
	s.space()
	if s.pos < len(s.src) {
		return nil, s.fail("unexpected %s after the array of rows", s.found())
	}
	if len(s.fileRows) == 0 {
		return nil, nil
	}
	rows := slices.Clone(s.fileRows)
	all := make([]RowKey, len(s.rowKeys))
	copy(all, s.rowKeys)
	for i := range rows {
		n := cap(rows[i].Keys)
		rows[i].Keys, all = all[:n:n], all[n:]
	}
	return rows, nil
}

// rowObject is the value of an object read as a row: its keys are all the
// row needs, so no map is made for it.
type rowObject struct{}

// value reads one JSON value and returns it as encoding/json decodes it,
// with its span. Where keys is not nil and the value is an object, its
// keys are recorded there (for the rows of the file), and the value is
// rowObject{}.
func (s *jsonScanner) value(depth int, keys *[]RowKey) (any, Span, *jsonError) {
	if depth > maxJSONDepth {
		return nil, Span{}, s.fail("values nested more than %d deep", maxJSONDepth)
	}
	s.space()
	start := s.pos
	if s.pos >= len(s.src) {
		return nil, Span{}, s.fail("unexpected end of the file: a value is missing")
	}
	var v any
	var err *jsonError
	switch c := s.src[s.pos]; {
	case c == '{':
		v, err = s.object(depth, keys)
	case c == '[':
		v, err = s.array(depth)
	case c == '"':
		v, err = s.str()
	case c == '-' || (c >= '0' && c <= '9'):
		v, err = s.number()
	case c == 't':
		v, err = s.word("true", true)
	case c == 'f':
		v, err = s.word("false", false)
	case c == 'n':
		v, err = s.word("null", nil)
	default:
		return nil, Span{}, s.fail("unexpected %s: expected a value", s.found())
	}
	if err != nil {
		return nil, Span{}, err
	}
	return v, Span{start, s.pos}, nil
}

func (s *jsonScanner) object(depth int, keys *[]RowKey) (any, *jsonError) {
	s.pos++ // {
	var obj map[string]any
	var out any = rowObject{}
	if keys == nil {
		obj = map[string]any{}
		out = obj
	}
	s.space()
	if s.pos < len(s.src) && s.src[s.pos] == '}' {
		s.pos++
		return out, nil
	}
	for {
		s.space()
		if s.pos >= len(s.src) || s.src[s.pos] != '"' {
			return nil, s.fail("expected a key in double quotes, found %s", s.found())
		}
		keyStart := s.pos
		k, err := s.text(true)
		if err != nil {
			return nil, err
		}
		keyEnd := s.pos
		s.space()
		if s.pos >= len(s.src) || s.src[s.pos] != ':' {
			return nil, s.fail("expected `:` after the key %q, found %s", k, s.found())
		}
		s.pos++
		v, span, err := s.value(depth+1, nil)
		if err != nil {
			return nil, err
		}
		if obj != nil {
			obj[k] = v
		} else {
			*keys = append(*keys, RowKey{
				Name:      NameRef{Name: k, Span: Span{keyStart + 1, keyEnd - 1}, Lit: Span{keyStart, keyEnd}},
				Value:     v,
				ValueSpan: span,
			})
		}
		s.space()
		if s.pos < len(s.src) && s.src[s.pos] == ',' {
			s.pos++
			continue
		}
		if s.pos < len(s.src) && s.src[s.pos] == '}' {
			s.pos++
			return out, nil
		}
		return nil, s.fail("expected `,` or `}` after the value of %q, found %s", k, s.found())
	}
}

func (s *jsonScanner) array(depth int) (any, *jsonError) {
	s.pos++ // [
	arr := []any{}
	s.space()
	if s.pos < len(s.src) && s.src[s.pos] == ']' {
		s.pos++
		return arr, nil
	}
	for {
		v, _, err := s.value(depth+1, nil)
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
		s.space()
		if s.pos < len(s.src) && s.src[s.pos] == ',' {
			s.pos++
			continue
		}
		if s.pos < len(s.src) && s.src[s.pos] == ']' {
			s.pos++
			return arr, nil
		}
		return nil, s.fail("expected `,` or `]` after an item, found %s", s.found())
	}
}

// str reads a string literal. Strings with escapes are decoded by
// encoding/json, which knows every JSON escape and surrogate pair.
func (s *jsonScanner) str() (any, *jsonError) {
	text, err := s.text(false)
	if err != nil {
		return nil, err
	}
	return text, nil
}

// text reads a string. Where intern is set (an object's key), a text read
// before by the worker is given again rather than copied: the rows of a
// project's test data mostly have the same keys. Any other string with no
// escape points into the file's text, which the File keeps (as a file
// loaded from the index cache keeps its strings: decoder.rows), instead
// of a copy of it.
func (s *jsonScanner) text(intern bool) (string, *jsonError) {
	start := s.pos
	src := s.src
	i := s.pos + 1 // after the "
	escaped, ascii := false, true
	for i < len(src) {
		c := src[i]
		if !jsonStringStop[c] { // most bytes of a string: one look each
			i++
			continue
		}
		switch {
		case c == '"':
			i++
			s.pos = i
			lit := src[start:i]
			if !escaped && (ascii || utf8.Valid(lit)) {
				body := lit[1 : len(lit)-1]
				if !intern {
					return inside(src, Span{start, i}), nil
				}
				if k, ok := s.keys[string(body)]; ok {
					return k, nil
				}
				k := string(body)
				if s.keys == nil {
					s.keys = map[string]string{}
				}
				s.keys[k] = k
				return k, nil
			}
			// encoding/json reads escapes, and an invalid UTF-8 byte as U+FFFD.
			var out string
			if err := json.Unmarshal(lit, &out); err != nil {
				return "", &jsonError{at: start, msg: "a string with a bad escape sequence"}
			}
			return out, nil
		case c == '\\':
			escaped = true
			if i+1 < len(src) && strings.IndexByte(`"\/bfnrtu`, src[i+1]) < 0 {
				s.pos = i + 1
				return "", s.fail("bad escape sequence `\\%s` in a string", string(src[s.pos]))
			}
			i += 2
		case c < 0x20:
			s.pos = i
			return "", s.fail("a control character (0x%02x) in a string: write it as an escape such as \\n", c)
		default: // a byte of a character beyond ASCII
			ascii = false
			i++
		}
	}
	s.pos = i
	return "", &jsonError{at: start, msg: "a string that is never closed"}
}

// jsonStringStop marks the bytes at which jsonScanner.text stops in a
// string: its end, an escape, a control character, and bytes beyond
// ASCII (whose UTF-8 is then checked); it never changes.
var jsonStringStop = func() (stop [256]bool) {
	for c := range 256 {
		stop[c] = c == '"' || c == '\\' || c < 0x20 || c >= 0x80
	}
	return stop
}()

func (s *jsonScanner) number() (any, *jsonError) {
	start := s.pos
	digits := func() int {
		n := 0
		for s.pos < len(s.src) && s.src[s.pos] >= '0' && s.src[s.pos] <= '9' {
			s.pos++
			n++
		}
		return n
	}
	if s.src[s.pos] == '-' {
		s.pos++
	}
	intStart := s.pos
	if digits() == 0 {
		return nil, s.fail("a number needs a digit, found %s", s.found())
	}
	if s.src[intStart] == '0' && s.pos-intStart > 1 {
		return nil, &jsonError{at: intStart, msg: "a number may not start with 0"}
	}
	if s.pos < len(s.src) && s.src[s.pos] == '.' {
		s.pos++
		if digits() == 0 {
			return nil, s.fail("a digit must follow the decimal point, found %s", s.found())
		}
	}
	if s.pos < len(s.src) && (s.src[s.pos] == 'e' || s.src[s.pos] == 'E') {
		s.pos++
		if s.pos < len(s.src) && (s.src[s.pos] == '+' || s.src[s.pos] == '-') {
			s.pos++
		}
		if digits() == 0 {
			return nil, s.fail("a digit must follow the exponent, found %s", s.found())
		}
	}
	f, err := strconv.ParseFloat(string(s.src[start:s.pos]), 64)
	if err != nil {
		return nil, &jsonError{at: start, msg: "a number out of range"}
	}
	return f, nil
}

func (s *jsonScanner) word(w string, v any) (any, *jsonError) {
	if !strings.HasPrefix(string(s.src[s.pos:min(len(s.src), s.pos+len(w))]), w) {
		return nil, s.fail("unexpected %s: expected a value", s.found())
	}
	s.pos += len(w)
	return v, nil
}
