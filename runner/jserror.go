package runner

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/dop251/goja"

	"github.com/tent-tools/tent-tools/diag"
)

// limitHit is what the runner interrupts a runtime with when a run passes
// a limit.
type limitHit struct {
	code    string
	message string
}

// frame is one frame of the app's stack, in the app's own file and line.
type frame struct {
	Func string
	Path string
	Line int
	Col  int
}

// String renders a frame the way a stack trace prints it.
func (f frame) String() string {
	if f.Func == "" {
		return fmt.Sprintf("%s:%d:%d", f.Path, f.Line, f.Col)
	}
	return fmt.Sprintf("%s (%s:%d:%d)", f.Func, f.Path, f.Line, f.Col)
}

// stackLine is one line of a goja stack: "\tat name (file:line:col(pc))"
// or "\tat file:line:col(pc)".
var stackLine = regexp.MustCompile(`^\s*at (?:(.*?) \()?(\S+?):(\d+):(\d+)\(\d+\)\)?\s*$`)

// appFrames reads the frames of a goja stack that lie in project files,
// mapped to the app's own lines by the bundle's source map.
func appFrames(stack string) []frame {
	var out []frame
	for _, line := range strings.Split(stack, "\n") {
		m := stackLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		p, ok := strings.CutPrefix(m[2], nsProject+":")
		if !ok {
			continue
		}
		ln, _ := strconv.Atoi(m[3])
		col, _ := strconv.Atoi(m[4])
		// The source map's columns count from 0.
		out = append(out, frame{Func: m[1], Path: p, Line: ln, Col: col + 1})
	}
	return out
}

// safely runs f, which reads app values from Go, and answers what stopped
// it: a JavaScript exception (*goja.Exception), the runtime's interrupt
// (*goja.InterruptedError), or a limit the host stopped the run for
// (limitError).
func (s *session) safely(f func()) (err error) {
	defer func() {
		if x := recover(); x != nil {
			switch v := x.(type) {
			case *goja.InterruptedError:
				err = v
			case limitPanic:
				err = limitError{v.hit}
			default:
				panic(x)
			}
		}
	}()
	if ex := s.vm.Try(f); ex != nil {
		return ex
	}
	return nil
}

// limitError is a limit the host stopped the run for, as an error.
type limitError struct{ hit limitHit }

func (e limitError) Error() string { return e.hit.message }

// thrown turns what a run ended with — an interrupt, an exception, a
// rejected promise's value — into the run's tool error: a limit the run
// passed is T4004 or T4005; a refusal the host made keeps its code;
// anything else the app threw is T4003, at the app's own file and line.
// Reading the thrown value may run app code (getters, toString), under the
// run's limits still; a value that cannot be read is T4003 all the same.
func (s *session) thrown(err error, value goja.Value) *diag.ToolError {
	if hit := s.watch.passed(); hit != nil {
		return diag.Errorf(hit.code, "%s", hit.message)
	}
	var le limitError
	if errors.As(err, &le) {
		return diag.Errorf(le.hit.code, "%s", le.hit.message)
	}
	var ie *goja.InterruptedError
	if errors.As(err, &ie) {
		if hit, ok := ie.Value().(limitHit); ok {
			return diag.Errorf(hit.code, "%s", hit.message)
		}
		return diag.Errorf(diag.T4003, "the run was stopped: %v", ie.Value())
	}
	var ex *goja.Exception
	if errors.As(err, &ex) {
		value = ex.Value()
	} else if err != nil {
		return diag.Errorf(diag.T4003, "%v", err)
	}
	if value == nil {
		return diag.Errorf(diag.T4003, "the app's code failed")
	}
	var te *diag.ToolError
	if rerr := s.safely(func() { te = s.readThrown(value, ex) }); rerr != nil {
		if hit := s.watch.passed(); hit != nil {
			return diag.Errorf(hit.code, "%s", hit.message)
		}
		if errors.As(rerr, &le) {
			return diag.Errorf(le.hit.code, "%s", le.hit.message)
		}
		return diag.Errorf(diag.T4003, "the app threw a value that cannot be read (reading it threw too)")
	}
	return te
}

// readThrown reads a thrown value: its message, name, stack and step.
func (s *session) readThrown(value goja.Value, ex *goja.Exception) *diag.ToolError {
	code, message, stack, step := diag.T4003, "", "", ""
	obj, isObj := value.(*goja.Object)
	if isObj {
		if c, ok := s.coded[obj]; ok {
			code = c
		}
		step = s.steps[obj]
	}
	if isObj && s.isError(obj) {
		message = valueText(obj.Get("message"))
		if n := obj.Get("name"); code == diag.T4003 && n != nil && !goja.IsUndefined(n) && n.String() != "Error" {
			message = n.String() + ": " + message
		}
		stack = valueText(obj.Get("stack"))
	} else if isObj {
		if m := obj.Get("message"); m != nil && !goja.IsUndefined(m) {
			message = m.String()
		} else {
			message = value.String()
		}
	} else {
		message = value.String()
	}
	frames := appFrames(stack)
	if len(frames) == 0 && ex != nil {
		frames = appFrames(ex.String())
	}
	te := diag.Errorf(code, "%s", message)
	if len(frames) > 0 {
		te.Message = fmt.Sprintf("%s (at %s:%d:%d)", message, frames[0].Path, frames[0].Line, frames[0].Col)
		te.With("at", fmt.Sprintf("%s:%d:%d", frames[0].Path, frames[0].Line, frames[0].Col))
		lines := make([]string, len(frames))
		for i, f := range frames {
			lines[i] = f.String()
		}
		te.With("stack", lines)
	}
	if step != "" {
		// The text names the failing step too, not only the data.
		te.Message = fmt.Sprintf("step %s failed: %s", step, te.Message)
		te.With("step", step)
	}
	return te
}

// isError reports whether o is an Error (its prototype chain has the
// runtime's Error.prototype, as it was before app code ran).
func (s *session) isError(o *goja.Object) bool {
	proto := s.ctors["Error"].Get("prototype")
	for p, i := o.Prototype(), 0; p != nil && i < 100; p, i = p.Prototype(), i+1 {
		if p == proto {
			return true
		}
	}
	return false
}

// valueText is a value as text, "" for undefined.
func valueText(v goja.Value) string {
	if v == nil || goja.IsUndefined(v) {
		return ""
	}
	return v.String()
}
