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

// thrown turns what a run ended with — an interrupt, an exception, a
// rejected promise's value — into the run's tool error: a refusal keeps
// its code; anything else the app threw is T4003, at the app's own file
// and line.
func thrown(err error, value goja.Value) *diag.ToolError {
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
	code, message, stack, step := diag.T4003, value.String(), "", ""
	if obj, ok := value.(*goja.Object); ok {
		if c := obj.Get("tentCode"); c != nil && !goja.IsUndefined(c) && c.String() != "" {
			code = c.String()
		}
		if m := obj.Get("message"); m != nil && !goja.IsUndefined(m) {
			message = m.String()
			if n := obj.Get("name"); code == diag.T4003 && n != nil && !goja.IsUndefined(n) && n.String() != "Error" {
				message = n.String() + ": " + message
			}
		}
		if s := obj.Get("stack"); s != nil && !goja.IsUndefined(s) {
			stack = s.String()
		}
		if s := obj.Get("tentStep"); s != nil && !goja.IsUndefined(s) {
			step = s.String()
		}
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
		te.With("step", step)
	}
	return te
}
