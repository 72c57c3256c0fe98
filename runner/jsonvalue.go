package runner

import (
	"encoding/json"
	"errors"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dop251/goja"

	"github.com/tent-tools/tent-tools/diag"
)

// checkEvery is how many values the host's JSON work handles between two
// looks at whether the run has passed a limit.
const checkEvery = 1024

// jsonWriter writes app values as JSON the way JSON.stringify does
// (toJSON, a replacer function or key list, a gap), on the host's side:
// app code cannot replace it, it looks at the run's limits as it goes, it
// bounds the text at maxChars and the nesting at maxJSONDepth. Getters,
// toJSON and Proxy traps it meets are app code and run as such.
type jsonWriter struct {
	s        *session
	buf      []byte
	stack    []*goja.Object
	replacer goja.Callable
	keys     []string // the replacer's key list, nil for none
	gap      string
	indent   string
	count    int
}

// stringify is JSON.stringify(value, replacer, space); ok is false where
// it answers undefined.
func (s *session) stringify(value, replacer, space goja.Value) (string, bool) {
	w := &jsonWriter{s: s}
	if r, ok := replacer.(*goja.Object); ok {
		if f, ok := goja.AssertFunction(r); ok {
			w.replacer = f
		} else if isArray(r) {
			w.keys = []string{}
			n := r.Get("length").ToInteger()
			if n > maxElements {
				s.stopRun(limitHit{code: diag.T4005, message: "the run was stopped before it passed its memory limit: JSON.stringify's key list is too long"})
			}
			for i := int64(0); i < n; i++ {
				v := r.Get(strconv.FormatInt(i, 10))
				var k string
				switch {
				case isKind(v, reflectString), isKind(v, reflectNumber):
					k = v.String()
				case isWrapper(v, "String"), isWrapper(v, "Number"):
					k = v.String()
				default:
					continue
				}
				if !slices.Contains(w.keys, k) {
					w.keys = append(w.keys, k)
				}
			}
		}
	}
	if o, ok := space.(*goja.Object); ok {
		switch o.ClassName() {
		case "Number":
			space = s.vm.ToValue(o.ToFloat())
		case "String":
			space = s.vm.ToValue(o.String())
		}
	}
	switch {
	case isKind(space, reflectNumber):
		n := min(10, int(math.Max(0, math.Min(10, space.ToFloat()))))
		w.gap = strings.Repeat(" ", n)
	case isKind(space, reflectString):
		g := space.String()
		if r := []rune(g); len(r) > 10 {
			g = string(r[:10])
		}
		w.gap = g
	}
	holder := s.vm.NewObject()
	holder.Set("", value)
	if !w.write(holder, "", value) {
		return "", false
	}
	return string(w.buf), true
}

// The kinds of primitive a JSON writer tells apart.
type primitive int

const (
	reflectString primitive = iota
	reflectNumber
	reflectBool
	reflectBigInt
)

// isKind reports whether v is a primitive of kind k.
func isKind(v goja.Value, k primitive) bool {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return false
	}
	if _, ok := v.(*goja.Object); ok {
		return false
	}
	if _, ok := v.(*goja.Symbol); ok {
		return false
	}
	t := v.ExportType()
	if t == nil {
		return false
	}
	switch k {
	case reflectString:
		return t.Kind() == reflect.String
	case reflectNumber:
		return t.Kind() == reflect.Int64 || t.Kind() == reflect.Float64
	case reflectBool:
		return t.Kind() == reflect.Bool
	case reflectBigInt:
		return t.String() == "*big.Int"
	}
	return false
}

// isWrapper reports whether v is a wrapper object of a primitive (class
// "String", "Number", "Boolean" or "BigInt").
func isWrapper(v goja.Value, class string) bool {
	o, ok := v.(*goja.Object)
	return ok && o.ClassName() == class
}

// step counts a value written and looks at the run's limits now and then.
func (w *jsonWriter) step() {
	w.count++
	if w.count%checkEvery == 0 {
		w.s.checkStopped()
	}
	if len(w.buf) > maxChars {
		w.s.stopRun(limitHit{code: diag.T4005, message: "the run was stopped before it passed its memory limit: a JSON text would be longer than " + strconv.Itoa(maxChars) + " characters"})
	}
}

// write writes holder[key], already read as value; it answers false where
// JSON.stringify leaves the value out (undefined, a function, a symbol).
func (w *jsonWriter) write(holder *goja.Object, key string, value goja.Value) (wrote bool) {
	w.step()
	vm := w.s.vm
	if o, ok := value.(*goja.Object); ok || isKind(value, reflectBigInt) {
		var obj *goja.Object
		if ok {
			obj = o
		} else {
			obj = value.ToObject(vm)
		}
		if f, ok := goja.AssertFunction(obj.Get("toJSON")); ok {
			v, err := f(value, vm.ToValue(key))
			if err != nil {
				panic(err)
			}
			value = v
		}
	}
	if w.replacer != nil {
		v, err := w.replacer(holder, vm.ToValue(key), value)
		if err != nil {
			panic(err)
		}
		value = v
	}
	if o, ok := value.(*goja.Object); ok {
		switch o.ClassName() {
		case "Number":
			value = vm.ToValue(o.ToFloat())
		case "String":
			value = vm.ToValue(o.String())
		case "Boolean":
			value = vm.ToValue(o.ToBoolean())
		case "BigInt":
			value = o.Export().(goja.Value)
		}
	}
	switch {
	case value == nil || goja.IsUndefined(value):
		return false
	case goja.IsNull(value):
		w.buf = append(w.buf, "null"...)
		return true
	case isKind(value, reflectBool):
		w.buf = strconv.AppendBool(w.buf, value.ToBoolean())
		return true
	case isKind(value, reflectString):
		w.buf = quoteJSON(w.buf, value.String())
		return true
	case isKind(value, reflectNumber):
		f := value.ToFloat()
		if math.IsInf(f, 0) || math.IsNaN(f) {
			w.buf = append(w.buf, "null"...)
		} else {
			w.buf = append(w.buf, value.String()...)
		}
		return true
	case isKind(value, reflectBigInt):
		panic(w.s.jsError("TypeError", "Do not know how to serialize a BigInt"))
	}
	o, ok := value.(*goja.Object)
	if !ok {
		return false // a symbol
	}
	if _, callable := goja.AssertFunction(o); callable {
		return false
	}
	if slices.Contains(w.stack, o) {
		panic(w.s.jsError("TypeError", "Converting circular structure to JSON"))
	}
	if len(w.stack) >= maxJSONDepth {
		panic(w.s.jsError("RangeError", "a value nested deeper than %d levels cannot be made JSON", maxJSONDepth))
	}
	w.stack = append(w.stack, o)
	defer func() { w.stack = w.stack[:len(w.stack)-1] }()
	outer := w.indent
	w.indent += w.gap
	defer func() { w.indent = outer }()
	if w.s.isArrayValue(o) {
		n := o.Get("length").ToInteger()
		if n > int64(maxChars/2) {
			w.s.stopRun(limitHit{code: diag.T4005, message: "the run was stopped before it passed its memory limit: an array of " + strconv.FormatInt(n, 10) + " elements cannot be made JSON"})
		}
		w.buf = append(w.buf, '[')
		for i := int64(0); i < n; i++ {
			if i > 0 {
				w.buf = append(w.buf, ',')
			}
			w.newline()
			k := strconv.FormatInt(i, 10)
			if !w.write(o, k, o.Get(k)) {
				w.buf = append(w.buf, "null"...)
			}
		}
		if n > 0 {
			w.newlineOuter(outer)
		}
		w.buf = append(w.buf, ']')
		return true
	}
	keys := w.keys
	if keys == nil {
		keys = o.Keys()
	}
	w.buf = append(w.buf, '{')
	first := true
	for _, k := range keys {
		mark := len(w.buf)
		if !first {
			w.buf = append(w.buf, ',')
		}
		w.newline()
		w.buf = quoteJSON(w.buf, k)
		w.buf = append(w.buf, ':')
		if w.gap != "" {
			w.buf = append(w.buf, ' ')
		}
		if !w.write(o, k, o.Get(k)) {
			w.buf = w.buf[:mark]
			continue
		}
		first = false
	}
	if !first {
		w.newlineOuter(outer)
	}
	w.buf = append(w.buf, '}')
	return true
}

// newline starts a member on its own line where there is a gap.
func (w *jsonWriter) newline() {
	if w.gap != "" {
		w.buf = append(w.buf, '\n')
		w.buf = append(w.buf, w.indent...)
	}
}

// newlineOuter ends a container on its own line where there is a gap.
func (w *jsonWriter) newlineOuter(outer string) {
	if w.gap != "" {
		w.buf = append(w.buf, '\n')
		w.buf = append(w.buf, outer...)
	}
}

// isArrayValue is IsArray of the spec: a real array, or a Proxy of one.
func (s *session) isArrayValue(o *goja.Object) bool {
	if isArray(o) {
		return true
	}
	if o.ExportType() == proxyType {
		if p, ok := o.Export().(goja.Proxy); ok {
			return s.isArrayValue(p.Target())
		}
	}
	return false
}

// proxyType is what a Proxy object exports as.
var proxyType = reflect.TypeOf(goja.Proxy{})

// quoteJSON appends s as a JSON string, as JSON.stringify writes it.
func quoteJSON(buf []byte, s string) []byte {
	const hex = "0123456789abcdef"
	buf = append(buf, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"':
				buf = append(buf, '\\', '"')
			case c == '\\':
				buf = append(buf, '\\', '\\')
			case c == '\n':
				buf = append(buf, '\\', 'n')
			case c == '\r':
				buf = append(buf, '\\', 'r')
			case c == '\t':
				buf = append(buf, '\\', 't')
			case c == '\b':
				buf = append(buf, '\\', 'b')
			case c == '\f':
				buf = append(buf, '\\', 'f')
			case c < 0x20:
				buf = append(buf, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				buf = append(buf, c)
			}
			i++
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		buf = append(buf, s[i:i+size]...)
		i += size
	}
	return append(buf, '"')
}

// parseJSON is JSON.parse(text) without a reviver, on the host's side: it
// builds the values as it reads, looks at the run's limits as it goes, and
// bounds the nesting at maxJSONDepth. A bad text is a SyntaxError.
func (s *session) parseJSON(text string) goja.Value {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	type open struct {
		obj   *goja.Object // an object being filled, or nil for an array
		items []any
		key   string // the key a value of obj goes to
		has   bool   // key is read
	}
	var stack []*open
	var top goja.Value
	count := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			panic(s.jsError("SyntaxError", "JSON.parse: %v", jsonErrorText(err, text)))
		}
		count++
		if count%checkEvery == 0 {
			s.checkStopped()
		}
		var v goja.Value
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				if len(stack) >= maxJSONDepth {
					panic(s.jsError("SyntaxError", "JSON.parse: the text nests deeper than %d levels", maxJSONDepth))
				}
				o := &open{}
				if t == '{' {
					o.obj = s.vm.NewObject()
				}
				stack = append(stack, o)
				continue
			case '}':
				v = stack[len(stack)-1].obj
				stack = stack[:len(stack)-1]
			case ']':
				v = s.vm.NewArray(stack[len(stack)-1].items...)
				stack = stack[:len(stack)-1]
			}
		case string:
			if n := len(stack); n > 0 && stack[n-1].obj != nil && !stack[n-1].has {
				stack[n-1].key, stack[n-1].has = t, true
				continue
			}
			v = s.vm.ToValue(t)
		case json.Number:
			v = s.vm.ToValue(jsNumber(string(t)))
		case bool:
			v = s.vm.ToValue(t)
		case nil:
			v = goja.Null()
		}
		if len(stack) == 0 {
			if top != nil {
				panic(s.jsError("SyntaxError", "JSON.parse: more than one value"))
			}
			top = v
			continue
		}
		o := stack[len(stack)-1]
		if o.obj != nil {
			if err := o.obj.DefineDataProperty(o.key, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE); err != nil {
				panic(err)
			}
			o.has = false
			continue
		}
		o.items = append(o.items, v)
	}
	if top == nil {
		panic(s.jsError("SyntaxError", "JSON.parse: unexpected end of JSON input"))
	}
	return top
}

// jsNumber is the number a JSON number text stands for, as JavaScript
// reads it (an integer where it is one, ±Infinity past the float range).
func jsNumber(t string) any {
	if !strings.ContainsAny(t, ".eE") {
		if n, err := strconv.ParseInt(t, 10, 64); err == nil && n != 0 {
			return n
		}
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return math.NaN()
	}
	return f
}

// jsonErrorText says where a JSON text breaks.
func jsonErrorText(err error, text string) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return se.Error() + " at position " + strconv.FormatInt(se.Offset, 10)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return "unexpected end of JSON input"
	}
	return err.Error()
}
