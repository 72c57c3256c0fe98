package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/words"
)

// Tool is one tool: its name, a one-line summary, its input type, its
// handler, and its facts (what it answers, what it changes), which every
// face reads here: MCP's output schema and annotations, the LSP's sync of
// open documents after a write, the CLI's help (each tool's page in docs/pages/).
type Tool struct {
	Name    string
	Summary string
	// Writes marks a tool that changes project files. Call runs such
	// tools on a workspace one after another, under the write lock.
	Writes bool
	// WritesWith, where set, marks a tool that changes project files
	// for some inputs only (check with fix): Call runs it as one that
	// writes where WritesWith says so of its decoded input.
	WritesWith func(in any) bool
	// NewInput returns a pointer to a new, empty input struct. Its JSON
	// field names are the tool's input; a field whose json tag lacks
	// omitempty is required.
	NewInput func() any
	// Run does the tool's work on the decoded input (the pointer that
	// NewInput made) on a view that Call entered. An error with a code is
	// a *diag.ToolError.
	Run func(ctx context.Context, w *Workspace, in any) (Answer, error)

	// Answer is a value of the type its Answer.Data holds (the JSON of
	// its answer; AnswerSchema is its shape), and Also those of its other
	// answers where it has more than one (shot: a picture or a page).
	Answer any
	Also   []any

	// The facts below are what the tool does to the world. Each is false
	// unless the tool's registration says otherwise, and false is the
	// cautious word: a tool that forgets one is told as doing more.

	// ReadOnly: the tool changes nothing at all, neither the project's
	// files (so never with Writes) nor the workspace's other state (the
	// test database, the notes).
	ReadOnly bool
	// Additive: it never takes away what was there (a file's text, a
	// definition, a file, rows of the test database).
	Additive bool
	// Idempotent: called again with the same input, it changes nothing
	// more.
	Idempotent bool
	// Local: it reaches nothing beyond the workspace (no network, no
	// program of the machine).
	Local bool
}

// registry holds every tool. It is filled by init functions (each tool's
// own file calls register) and sealed by the first look at it: no host
// can add, replace or race a tool.
var registry = map[string]Tool{}

// sealed is set by the first Lookup or All; register panics after it.
var sealed atomic.Bool

// register adds a tool; it is called from init() in the tool's own file.
// Registering a name twice, or facts that contradict each other, is a
// programming error and panics (TestToolFacts holds the rest: each tool
// states its answer's type).
func register(t Tool) {
	switch {
	case sealed.Load():
		panic("tools: register " + t.Name + " after the registry was read")
	case t.Name == "" || t.NewInput == nil || t.Run == nil:
		panic("tools: register: a tool needs a name, an input and a handler")
	case (t.Writes || t.WritesWith != nil) && t.ReadOnly:
		panic("tools: register " + t.Name + ": a tool that writes is not read-only")
	}
	if _, dup := registry[t.Name]; dup {
		panic("tools: tool " + t.Name + " registered twice")
	}
	registry[t.Name] = t
}

// Lookup returns the tool registered under name.
func Lookup(name string) (Tool, bool) {
	sealed.Store(true)
	if t, ok := registry[name]; ok {
		return t, true
	}
	t, ok := registry[camelName(name)]
	return t, ok
}

// camelName spells a name written with dashes or underscores, as the
// command line names its commands (changed-by), the way the tools are
// named (changedBy), so that either spelling reaches the tool.
func camelName(name string) string {
	var b strings.Builder
	upper := false
	for _, r := range name {
		switch {
		case r == '-' || r == '_':
			upper = b.Len() > 0
		case upper:
			b.WriteString(strings.ToUpper(string(r)))
			upper = false
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// All returns every registered tool, sorted by name.
func All() []Tool {
	sealed.Store(true)
	all := make([]Tool, 0, len(registry))
	for _, t := range registry {
		all = append(all, t)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	return all
}

// names lists the registered tools' names, sorted.
func names() []string {
	var ns []string
	for _, t := range All() {
		ns = append(ns, t.Name)
	}
	return ns
}

// Call runs the tool name on w with its input exactly as an agent sends it
// (the JSON of each tool's page in docs/pages/; empty means {}). An unknown tool is
// T9101; input that is not a JSON object, has a field the tool does not
// know, lacks a required field or has a value of the wrong type is T9102.
// A tool that panics answers an error; it never takes its host down.
//
// A tool that writes runs under the workspace's write lock, one after
// another also across processes, after the workspace is settled (a change
// a crash cut short is finished, changes made outside the tools are
// recorded as a point); a tool that only reads runs under the shared commit
// lock, so it never sees half of a change (Workspace.Enter, package
// internal/workspace). The typed methods (typed.go) run the same way.
func Call(ctx context.Context, w *Workspace, name string, input json.RawMessage) (Answer, error) {
	t, ok := Lookup(name)
	if !ok {
		return Answer{}, diag.Errorf(diag.T9101, "unknown tool %q; the tools are %s", name, strings.Join(names(), ", ")).
			With("tools", names())
	}
	if len(input) > MaxInput {
		return Answer{}, diag.Errorf(diag.T9104, "the input is more than %s; a tool takes at most %s of JSON (a write's 1 MB text, escaped); nothing was read past it",
			words.Bytes(MaxInput), words.Bytes(MaxInput)).With("size", len(input))
	}
	in := t.NewInput()
	if err := DecodeInput(input, in); err != nil {
		return Answer{}, err
	}
	return w.invoke(ctx, t, in)
}

// invoke runs the tool t on its decoded input (a pointer of NewInput's type)
// in a view entered for it (the locks, the settling), and turns a panic
// into an error (T9114).
func (w *Workspace) invoke(ctx context.Context, t Tool, in any) (ans Answer, err error) {
	defer func() {
		if r := recover(); r != nil {
			ans, err = Answer{}, internalError(w.panicLog(), t.Name, r, debug.Stack())
		}
	}()
	view, release, err := w.state.Enter(ctx, t.Name, t.Writes || t.WritesWith != nil && t.WritesWith(in))
	if err != nil {
		return Answer{}, err
	}
	defer release()
	return t.Run(ctx, &Workspace{state: view, log: w.log}, in)
}

// panicLog is where a tool's recovered panic is logged with its stack:
// stderr, unless a test gave the workspace another writer (export_test.go).
func (w *Workspace) panicLog() io.Writer {
	if w.log != nil {
		return w.log
	}
	return os.Stderr
}

// internalError logs a tool's recovered panic with its stack (the host
// lives on; the stack is what a report of the bug needs) and makes the
// coded error the caller gets (T9114).
func internalError(log io.Writer, tool string, r any, stack []byte) error {
	fmt.Fprintf(log, "tent-tools: internal error in tool %s: %v\n%s", tool, r, stack)
	return diag.Errorf(diag.T9114, "internal error in tool %s: %v; this is a bug in tent-tools: please report it with the call that caused it and the stack written to stderr", tool, r).
		With("tool", tool)
}

// DecodeInput decodes a tool's JSON input into in (a pointer to a struct),
// strictly: field names must match exactly (not in other capitals), every
// field without omitempty must be present and not null, at every depth.
// Its errors are T9102.
func DecodeInput(input json.RawMessage, in any) error {
	input = bytes.TrimSpace(input)
	if len(input) == 0 || bytes.Equal(input, []byte("null")) {
		input = []byte("{}")
	}
	if err := jsonSyntax(input); err != nil {
		return err
	}
	if err := checkDuplicateKeys(input); err != nil {
		return err
	}
	if err := checkFields(input, reflect.TypeOf(in), ""); err != nil {
		return err
	}
	if err := json.Unmarshal(input, in); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return diag.Errorf(diag.T9102, "bad input: %s must be %s, not a JSON %s", te.Field, jsonKind(te.Type), te.Value).
				With("field", te.Field)
		}
		return diag.Errorf(diag.T9102, "bad input: %v", err)
	}
	return nil
}

// checkDuplicateKeys refuses (T9102) JSON in which an object, at any
// depth, holds a key twice: Go's decoder would take the last silently, so
// {"deny": ["**"], "deny": []} would mean what its first reader did not
// see. Text that is no JSON passes; the decoder reports it.
func checkDuplicateKeys(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	err := duplicateIn(dec, "", 0)
	var te *diag.ToolError
	if errors.As(err, &te) {
		return te
	}
	return nil
}

// maxDepth is how deep duplicateIn looks; encoding/json refuses deeper
// nesting than this by itself.
const maxDepth = 10000

// duplicateIn reads one JSON value from dec, at the place at, and answers
// a T9102 error for a key that an object in it holds twice (any other
// error: the text is no JSON).
func duplicateIn(dec *json.Decoder, at string, depth int) error {
	if depth > maxDepth {
		return errors.New("too deep")
	}
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		keys := map[string]bool{}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return err
			}
			key, _ := tok.(string)
			field := join(at, key)
			if keys[key] {
				return diag.Errorf(diag.T9102, "bad input: the key %q stands twice in one object; give each key once", field).With("field", field)
			}
			keys[key] = true
			if err := duplicateIn(dec, field, depth+1); err != nil {
				return err
			}
		}
		_, err = dec.Token()
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if err := duplicateIn(dec, fmt.Sprintf("%s[%d]", at, i), depth+1); err != nil {
				return err
			}
		}
		_, err = dec.Token()
	}
	return err
}

// checkFields holds the raw JSON against the Go type t: unknown and missing
// fields, recursively through structs, pointers and slices.
func checkFields(raw json.RawMessage, t reflect.Type, at string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice:
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return nil // not an array: Unmarshal answers the type error
		}
		for i, item := range items {
			if err := checkFields(item, t.Elem(), fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
		}
		return nil
	case reflect.Struct:
	default:
		return nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		where := "the input"
		if at != "" {
			where = at
		}
		return diag.Errorf(diag.T9102, "bad input: %s must be a JSON object", where).With("field", at)
	}
	fields := jsonFields(t)
	var known []string
	for _, f := range fields {
		known = append(known, f.name)
	}
	var keys []string
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !slices.Contains(known, k) {
			return diag.Errorf(diag.T9102, "bad input: unknown field %q (the fields are %s)", join(at, k), strings.Join(known, ", ")).
				With("field", join(at, k))
		}
	}
	for _, f := range fields {
		v, ok := obj[f.name]
		present := ok && !bytes.Equal(bytes.TrimSpace(v), []byte("null"))
		if !present && f.required {
			return diag.Errorf(diag.T9102, "bad input: missing required field %q", join(at, f.name)).
				With("field", join(at, f.name))
		}
		if present {
			if err := checkFields(v, f.typ, join(at, f.name)); err != nil {
				return err
			}
		}
	}
	return nil
}

type jsonField struct {
	name     string
	required bool
	typ      reflect.Type
	doc      string // the field's doc tag
}

// jsonFields lists the JSON fields of a struct type, in declaration order,
// those of an embedded struct without a json tag in its place, as
// encoding/json writes and reads them.
func jsonFields(t reflect.Type) []jsonField {
	var fs []jsonField
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if f.Anonymous && tag == "" && f.Type.Kind() == reflect.Struct {
			fs = append(fs, jsonFields(f.Type)...)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		required := !strings.Contains(opts, "omitempty") && !strings.Contains(opts, "omitzero")
		fs = append(fs, jsonField{name: name, required: required, typ: f.Type, doc: f.Tag.Get("doc")})
	}
	return fs
}

func join(at, name string) string {
	if at == "" {
		return name
	}
	return at + "." + name
}

// jsonKind names a Go type as the JSON kind it decodes from.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "a " + t.String()
}

// jsonSyntax is T9102 for input that is not JSON: where it breaks (line,
// column, byte offset) and what was expected there, such as the } that
// closes an object a cut-off input left open.
func jsonSyntax(input []byte) error {
	var v any
	err := json.Unmarshal(input, &v)
	if err == nil {
		return nil
	}
	var syn *json.SyntaxError
	if !errors.As(err, &syn) {
		return nil // a valid JSON text; the decoding that follows says what is wrong
	}
	offset := int(syn.Offset)
	what := syn.Error()
	if strings.Contains(what, "unexpected end") {
		offset = len(input)
		what = "the input ends early"
		if open := unclosed(input); open != "" {
			what += "; expected " + open
		}
	} else if offset > 0 {
		offset-- // the offset counts the byte that broke it
	}
	line, col := 1, 1
	for _, c := range input[:offset] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return diag.Errorf(diag.T9102, "bad input: not JSON at line %d, column %d (byte %d): %s", line, col, offset, what).
		With("offset", offset)
}

// unclosed says what a cut-off JSON text needs to end: the closing quote
// of a string, then the } or ] of each object or array still open,
// innermost first.
func unclosed(input []byte) string {
	var open []byte
	inString, escaped := false, false
	for _, c := range input {
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case inString && c == '"':
			inString = false
		case inString:
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			open = append(open, c)
		case (c == '}' || c == ']') && len(open) > 0:
			open = open[:len(open)-1]
		}
	}
	var parts []string
	if inString {
		parts = append(parts, `the " that ends a string`)
	}
	for i := len(open) - 1; i >= 0; i-- {
		if open[i] == '{' {
			parts = append(parts, "a } to close an object")
		} else {
			parts = append(parts, "a ] to close an array")
		}
	}
	return strings.Join(parts, ", then ")
}
