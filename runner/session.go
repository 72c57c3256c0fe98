package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"slices"
	"time"

	"github.com/dop251/goja"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/spelling"
	"github.com/tent-tools/tent-tools/runner/testdb"
)

// session is one run: a fresh JavaScript runtime, so that nothing one run
// leaves in module state reaches the next, over one transaction of the
// test database.
type session struct {
	ctx   context.Context
	app   *app
	src   Source
	cache *bundleCache
	tx    *testdb.Tx
	vm    *goja.Runtime
	http  *http.Client
	// remote, in a worker, is its pipe to the host, which makes the run's
	// HTTP requests and asks the person (worker.go); nil in the host.
	remote *workerClient

	// ctors are the runtime's error constructors, taken before app code ran.
	ctors map[string]*goja.Object
	// coded holds each error the host made for a refusal, with its code:
	// only these carry a code out of the run (an app cannot forge one).
	coded map[*goja.Object]string
	// steps holds the flow step each failed error was thrown in.
	steps map[*goja.Object]string

	user   testdb.Row // nil for nobody
	system bool

	// exports holds each loaded file's exports, by path.
	exports map[string]*goja.Object

	// sending says whether the person let this run send data out (or the
	// policy trusts runs); ask asks them when a send comes unannounced.
	sending bool
	ask     func(kind string) (bool, error)
	// watch keeps the run's limits; its clock stops while the person is asked.
	watch *watchdog

	logged []string
	cut    int // log lines left out past maxLogLines
	sent   []Sent

	// onRows, where set, is told the rows the test database hands app code
	// (a screen keeps their private values out of its picture; screen.go).
	onRows func(table string, rows []testdb.Row)
	// showScreen is the prelude's entry that loads and views a screen.
	showScreen goja.Callable
	// screen says the session shows a screen: the rows and the user it
	// hands app code lack their private columns (hiddenColumns).
	screen bool
}

// The bounds of what a run's answer carries of its logging.
const (
	maxLogLines = 1000
	maxLogLine  = 4000
)

// Sent is one thing a run sent out of the app: a mail (captured, never
// delivered) or an HTTP request (made, to a host engine.ts allows).
type Sent struct {
	Kind    string `json:"kind"`           // "mail" or "http"
	To      string `json:"to"`             // the address, or the URL
	From    string `json:"from,omitempty"` // a mail's sender: engine.ts's mail.from
	Subject string `json:"subject,omitempty"`
	Text    string `json:"text,omitempty"`
	Method  string `json:"method,omitempty"`
	Status  int    `json:"status,omitempty"`
}

// start makes the runtime: its clock and random numbers pinned for the
// run, the guards over its builtins, the globals app code may see
// (console, and nothing of the host), the host primitives, and the
// prelude, which it answers as the run function.
func (s *session) start(guard, prelude *goja.Program, now time.Time, seed uint64) (goja.Callable, error) {
	s.vm = goja.New()
	s.vm.SetMaxCallStackSize(2000)
	s.vm.SetTimeSource(func() time.Time { return now })
	rnd := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	s.vm.SetRandSource(rnd.Float64)
	s.exports = map[string]*goja.Object{}
	s.ctors = map[string]*goja.Object{}
	s.coded = map[*goja.Object]string{}
	s.steps = map[*goja.Object]string{}
	if err := s.installGuards(guard); err != nil {
		return nil, err
	}
	mk, err := s.vm.RunProgram(prelude)
	if err != nil {
		return nil, fmt.Errorf("prelude: %w", err)
	}
	mkFn, ok := goja.AssertFunction(mk)
	if !ok {
		return nil, fmt.Errorf("prelude: not a function")
	}
	var user goja.Value = goja.Null()
	if s.system {
		o := s.vm.NewObject()
		o.Set("system", true)
		user = o
	} else if s.user != nil {
		user = s.toJS(s.shownUser())
	}
	ret, err := mkFn(goja.Undefined(), s.hostObject(), user, s.vm.ToValue(now.UTC().Format("2006-01-02T15:04:05.000Z")))
	if err != nil {
		return nil, fmt.Errorf("prelude: %w", err)
	}
	obj := ret.ToObject(s.vm)
	s.vm.Set("console", obj.Get("console"))
	s.showScreen, _ = goja.AssertFunction(obj.Get("screen"))
	run, ok := goja.AssertFunction(obj.Get("run"))
	if !ok {
		return nil, fmt.Errorf("prelude: no run")
	}
	return run, nil
}

// toJS makes a plain JavaScript value of a JSON value, through the host's
// JSON reader (a Go value given to goja as it is would be a wrapper, not a
// plain object).
func (s *session) toJS(v any) goja.Value {
	b, err := json.Marshal(v)
	if err != nil {
		return goja.Null()
	}
	return s.parseJSON(string(b))
}

// fail makes the Error of a refusal with a code ("" for none, an error of
// the app's own making such as a bad row), and keeps its code.
func (s *session) fail(code, message string) *goja.Object {
	e := s.jsError("Error", "%s", message)
	if code != "" {
		s.coded[e] = code
	}
	return e
}

// throw raises a JavaScript Error with a refusal code ("" for none) in the
// code that called a host primitive.
func (s *session) throw(code, format string, args ...any) {
	panic(s.fail(code, fmt.Sprintf(format, args...)))
}

// throwErr raises err in app code: a *diag.ToolError with its code, any
// other error as a plain Error.
func (s *session) throwErr(err error) {
	if te, ok := err.(*diag.ToolError); ok {
		s.throw(te.Code, "%s", te.Message)
	}
	s.throw("", "%s", err.Error())
}

// str is argument i of a host call as a string.
func str(call goja.FunctionCall, i int) string {
	return call.Argument(i).String()
}

// parse decodes a JSON text that the prelude made.
func (s *session) parse(text string) any {
	v, err := decodeJSON([]byte(text))
	if err != nil {
		s.throw("", "bad JSON from the runner's prelude: %v", err)
	}
	return v
}

// row decodes a JSON text that must hold an object.
func (s *session) row(text, what string) testdb.Row {
	m, ok := s.parse(text).(map[string]any)
	if !ok {
		s.throw("", "%s wants an object", what)
	}
	return m
}

// jsonText encodes a Go value for the prelude.
func (s *session) jsonText(v any) goja.Value {
	b, err := json.Marshal(v)
	if err != nil {
		s.throw("", "%v", err)
	}
	return s.vm.ToValue(string(b))
}

// hostObject is the host primitives that the prelude calls.
func (s *session) hostObject() *goja.Object {
	h := s.vm.NewObject()
	set := func(name string, f func(call goja.FunctionCall) goja.Value) { h.Set(name, f) }

	set("fail", func(call goja.FunctionCall) goja.Value {
		return s.fail(str(call, 0), str(call, 1))
	})
	set("failedStep", func(call goja.FunctionCall) goja.Value {
		if e, ok := call.Argument(0).(*goja.Object); ok {
			if _, seen := s.steps[e]; !seen {
				s.steps[e] = str(call, 1)
			}
		}
		return goja.Undefined()
	})
	set("kind", func(call goja.FunctionCall) goja.Value {
		name := str(call, 0)
		c := s.app.callables[name]
		if c == nil {
			s.throwErr(unknownCallable(s.app, name))
		}
		return s.vm.ToValue(c.Kind)
	})
	set("def", func(call goja.FunctionCall) goja.Value {
		name := str(call, 0)
		c := s.app.callables[name]
		if c == nil {
			s.throwErr(unknownCallable(s.app, name))
		}
		return s.definition(c.Path, name)
	})
	set("steps", func(call goja.FunctionCall) goja.Value {
		c := s.app.callables[str(call, 0)]
		if c == nil {
			return s.vm.NewArray()
		}
		items := make([]any, len(c.Steps))
		for i, st := range c.Steps {
			items[i] = st
		}
		return s.vm.NewArray(items...)
	})
	set("input", func(call goja.FunctionCall) goja.Value {
		name := str(call, 0)
		c := s.app.callables[name]
		if c == nil {
			s.throwErr(unknownCallable(s.app, name))
		}
		in, err := s.checkInput(c, s.parse(str(call, 1)), call.Argument(2).ToBoolean())
		if err != nil {
			s.throwErr(err)
		}
		return s.jsonText(in)
	})
	set("hiddenColumns", func(call goja.FunctionCall) goja.Value {
		if !s.screen {
			return goja.Null()
		}
		return s.toJS(s.app.hiddenColumns())
	})
	set("hasTable", func(call goja.FunctionCall) goja.Value {
		return s.vm.ToValue(s.app.tables[str(call, 0)] != nil)
	})
	set("tableMay", func(call goja.FunctionCall) goja.Value {
		t := s.app.tables[str(call, 0)]
		if t == nil || !t.Rules[str(call, 1)] {
			return goja.Null()
		}
		def, ok := s.definition(t.Path, t.Schema.Name).(*goja.Object)
		if !ok {
			return goja.Null()
		}
		may, ok := def.Get("may").(*goja.Object)
		if !ok {
			return goja.Null()
		}
		return may.Get(str(call, 1))
	})
	set("log", func(call goja.FunctionCall) goja.Value {
		s.log(str(call, 0))
		return goja.Undefined()
	})
	s.dbPrimitives(set)
	s.sendPrimitives(set)
	s.screenPrimitives(set)
	return h
}

// log keeps one line that the app logged.
func (s *session) log(line string) {
	if len(s.logged) >= maxLogLines {
		s.cut++
		return
	}
	if len(line) > maxLogLine {
		line = line[:maxLogLine] + "…"
	}
	s.logged = append(s.logged, line)
}

// definition loads the file at path (once per run) and answers its export
// name: the tagged object of a definition.
func (s *session) definition(path, name string) goja.Value {
	exp := s.exports[path]
	if exp == nil {
		c, err := s.cache.get(s.src, path)
		if err != nil {
			s.throwErr(err)
		}
		if _, err := s.vm.RunProgram(c.prog); err != nil {
			panic(err)
		}
		v := s.vm.Get(exportsGlobal)
		if v == nil || goja.IsUndefined(v) {
			s.throw("", "%s exports nothing", path)
		}
		exp = v.ToObject(s.vm)
		s.exports[path] = exp
	}
	v := exp.Get(name)
	if v == nil || goja.IsUndefined(v) {
		s.throw(diag.T4001, "%s does not export %s", path, name)
	}
	return v
}

// unknownCallable is T4001 for a name that is no function or flow.
func unknownCallable(a *app, name string) *diag.ToolError {
	return unknownName(a, diag.T4001, "function or flow", name, a.callables)
}

// unknownName is code for a name that is no what of a's project (known
// holds those there are): the kind it is instead, or the one of known it
// is a likely typo of.
func unknownName[V any](a *app, code, what, name string, known map[string]V) *diag.ToolError {
	if k := a.kinds[name]; k != "" {
		return diag.Errorf(code, "%s is a %s, not a %s", name, k, what)
	}
	if near := spelling.Nearest(name, slices.Collect(maps.Keys(known))); near != "" {
		return diag.Errorf(code, "no %s named %s; did you mean %s?", what, name, near).With("nearest", near)
	}
	return diag.Errorf(code, "no %s named %s", what, name)
}
