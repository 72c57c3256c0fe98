package runner

import (
	"fmt"
	"reflect"
	"time"

	"github.com/dlclark/regexp2/v2"

	"github.com/dop251/goja"

	"github.com/tent-tools/tent-tools/diag"
)

// The bounds of one builtin call in a run (see runner/jslib/guard.js):
// work past them is stopped before it starts, since a builtin runs in Go,
// where the limits' interrupt does not reach, and may allocate at once.
const (
	// maxElements bounds the length of an array, array-like or text that
	// one builtin call walks or copies element by element.
	maxElements = 1 << 21
	// maxChars bounds a text that one builtin call makes.
	maxChars = 1 << 24
	// maxBytes bounds an ArrayBuffer or typed array made in one call.
	maxBytes = 1 << 21
	// maxJSONDepth bounds how deep a JSON text or a value made JSON nests.
	maxJSONDepth = 10000
)

// limitPanic is what the host panics with to stop a run from Go: like the
// runtime's own interrupt, no try or finally of the app's sees it.
type limitPanic struct{ hit limitHit }

// stopRun stops the run for a limit it would pass, at once.
func (s *session) stopRun(hit limitHit) {
	s.watch.stopRun(hit)
	panic(limitPanic{hit: *s.watch.passed()})
}

// checkStopped stops the host's own work for the run once the run has
// passed a limit.
func (s *session) checkStopped() {
	if hit := s.watch.passed(); hit != nil {
		panic(limitPanic{hit: *hit})
	}
}

// installGuards runs the guard script in the fresh runtime, before any
// app code, and keeps what the host needs of the runtime as it was then.
func (s *session) installGuards(guard *goja.Program) error {
	for _, name := range []string{"Error", "TypeError", "RangeError", "SyntaxError"} {
		ctor, ok := s.vm.Get(name).(*goja.Object)
		if !ok {
			return fmt.Errorf("guards: no %s", name)
		}
		s.ctors[name] = ctor
	}
	mk, err := s.vm.RunProgram(guard)
	if err != nil {
		return fmt.Errorf("guards: %w", err)
	}
	install, ok := goja.AssertFunction(mk)
	if !ok {
		return fmt.Errorf("guards: not a function")
	}
	h := s.vm.NewObject()
	h.Set("maxElements", maxElements)
	h.Set("maxChars", maxChars)
	h.Set("maxBytes", maxBytes)
	h.Set("stop", func(call goja.FunctionCall) goja.Value {
		code := diag.T4005
		if str(call, 0) == "time" {
			code = diag.T4004
		}
		what := "memory"
		if code == diag.T4004 {
			what = "time"
		}
		s.stopRun(limitHit{code: code, message: fmt.Sprintf("the run was stopped before it passed its %s limit: %s", what, str(call, 1))})
		return goja.Undefined()
	})
	h.Set("regexpTimeout", regexpTimeout.Milliseconds()-regexpTimeout.Milliseconds()/10)
	started := time.Now()
	h.Set("clock", func(call goja.FunctionCall) goja.Value {
		return s.vm.ToValue(time.Since(started).Milliseconds())
	})
	h.Set("isArray", func(call goja.FunctionCall) goja.Value {
		return s.vm.ToValue(isArray(call.Argument(0)))
	})
	h.Set("indexed", func(call goja.FunctionCall) goja.Value {
		return s.vm.ToValue(indexedLength(call.Argument(0)))
	})
	h.Set("parse", func(call goja.FunctionCall) goja.Value {
		return s.parseJSON(str(call, 0))
	})
	h.Set("stringify", func(call goja.FunctionCall) goja.Value {
		text, ok := s.stringify(call.Argument(0), call.Argument(1), call.Argument(2))
		if !ok {
			return goja.Undefined()
		}
		return s.vm.ToValue(text)
	})
	if _, err := install(goja.Undefined(), h); err != nil {
		return fmt.Errorf("guards: %w", err)
	}
	return nil
}

// isArray reports whether v is a real Array (a Proxy of one is not).
func isArray(v goja.Value) bool {
	o, ok := v.(*goja.Object)
	return ok && o.ClassName() == "Array"
}

// indexedLength answers how many index keys v has as a text, a String
// object or a typed array, and -1 for any other value.
func indexedLength(v goja.Value) int64 {
	if goja.IsUndefined(v) || goja.IsNull(v) {
		return -1
	}
	o, ok := v.(*goja.Object)
	if !ok {
		if v.ExportType() != nil && v.ExportType().Kind() == reflect.String {
			return int64(len([]rune(v.String())))
		}
		return -1
	}
	switch o.ClassName() {
	case "String":
		return o.Get("length").ToInteger()
	case "Array", "Object", "Function":
		return -1
	}
	if t := o.ExportType(); t != nil && t.Kind() == reflect.Slice {
		return int64(reflect.ValueOf(o.Export()).Len())
	}
	return -1
}

// jsError makes a JavaScript error of the runtime's own kind (Error,
// TypeError, RangeError, SyntaxError), as it was before app code ran.
func (s *session) jsError(kind, format string, args ...any) *goja.Object {
	e, err := s.vm.New(s.ctors[kind], s.vm.ToValue(fmt.Sprintf(format, args...)))
	if err != nil {
		panic(err)
	}
	return e
}

// A regular expression's match runs in Go, out of the interrupt's reach:
// one that backtracks without end is cut after regexpTimeout, and answers
// no match (a run stuck in it has passed its time limit by then, which is
// what it answers). It is the runtime's setting for every regular
// expression compiled in this process.
const regexpTimeout = time.Second

func init() { regexp2.DefaultMatchTimeout = regexpTimeout }
