package ops

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/spelling"
)

// Op is one operation as given: its kind and its fields, read strictly
// (Decode). Its planner (plan.go) reads the fields it takes.
type Op struct {
	Kind   string
	fields *object
	index  int
}

// fieldsOf lists, per op, its required fields and its optional ones.
var fieldsOf = map[string]struct{ required, optional []string }{
	"addTable":    {[]string{"name", "columns"}, []string{"path"}},
	"addColumn":   {[]string{"table", "name", "type"}, []string{"ref", "values", "optional", "private", "unique", "default", "after"}},
	"setColumn":   {[]string{"column"}, []string{"type", "ref", "values", "optional", "private", "unique", "default"}},
	"moveColumn":  {[]string{"column"}, []string{"after", "before"}},
	"rename":      {[]string{"name", "to"}, nil},
	"remove":      {[]string{"name"}, nil},
	"addIndex":    {[]string{"table", "columns"}, nil},
	"removeIndex": {[]string{"table", "columns"}, nil},
	"addStep":     {[]string{"flow", "step"}, []string{"at"}},
	"moveStep":    {[]string{"flow", "from", "to"}, nil},
	"removeStep":  {[]string{"flow"}, []string{"at"}},
	"addRow":      {[]string{"table", "row"}, nil},
	"setRow":      {[]string{"table", "id", "set"}, nil},
	"removeRow":   {[]string{"table", "id"}, nil},
}

// columnFields are the fields of a COLUMN of addTable.
var columnFields = struct{ required, optional []string }{[]string{"type"}, []string{"ref", "values", "optional", "private", "unique", "default"}}

// Kinds lists the operations, sorted.
func Kinds() []string {
	out := make([]string, 0, len(fieldsOf))
	for k := range fieldsOf {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Decode reads the operations of a call, strictly: each a JSON object
// whose `op` names an operation, with the fields that operation takes
// and no other, each field in its exact spelling, every required one
// present. A refusal is T9102 with the op's index (`op`) and the field.
func Decode(raw []json.RawMessage) ([]Op, error) {
	if len(raw) == 0 {
		return nil, diag.Errorf(diag.T9102, "bad input: ops is empty; give at least one operation").With("field", "ops")
	}
	out := make([]Op, 0, len(raw))
	for i, r := range raw {
		o, err := parseObject(r, fmt.Sprintf("ops[%d]", i))
		if err != nil {
			return nil, withOp(err, i)
		}
		kind, err := o.str("op")
		if err != nil || !o.has("op") {
			return nil, withOp(badField(o.at, "op", "must name an operation: %s", strings.Join(Kinds(), ", ")), i)
		}
		spec, ok := fieldsOf[kind]
		if !ok {
			return nil, withOp(nearest(badField(o.at, "op", "%q is no operation; the operations are %s", kind, strings.Join(Kinds(), ", ")), kind, Kinds()), i)
		}
		if err := o.only(append([]string{"op"}, spec.required...), spec.optional); err != nil {
			return nil, withOp(err, i)
		}
		out = append(out, Op{Kind: kind, fields: o, index: i})
	}
	return out, nil
}

// withOp names the op an error is about.
func withOp(err error, i int) error {
	if te, ok := err.(*diag.ToolError); ok {
		return te.With("op", i)
	}
	return err
}

// nearest adds to err the candidate that name is a likely typo of
// (internal/spelling's rule), in its message and as data nearest, and
// answers it; err is as it was where none is near.
func nearest(err *diag.ToolError, name string, candidates []string) *diag.ToolError {
	near := spelling.Nearest(name, candidates)
	if near == "" || near == name {
		return err
	}
	err.Message += "; did you mean " + near + "?"
	return err.With("nearest", near)
}

// object is a JSON object read in its order, each value kept as written.
type object struct {
	at   string // where it stands in the input: ops[2], ops[0].columns.total
	keys []string
	vals map[string]json.RawMessage
}

// parseObject reads a JSON object, keeping its keys' order; a key given
// twice is refused.
func parseObject(raw json.RawMessage, at string) (*object, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tok, err := dec.Token()
	if d, ok := tok.(json.Delim); err != nil || !ok || d != '{' {
		return nil, diag.Errorf(diag.T9102, "bad input: %s must be a JSON object", at).With("field", at)
	}
	o := &object{at: at, vals: map[string]json.RawMessage{}}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, diag.Errorf(diag.T9102, "bad input: %s: %v", at, err).With("field", at)
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, diag.Errorf(diag.T9102, "bad input: %s.%s: %v", at, key, err).With("field", at+"."+key)
		}
		if _, dup := o.vals[key]; dup {
			return nil, diag.Errorf(diag.T9102, "bad input: %s holds %q twice", at, key).With("field", at+"."+key)
		}
		o.keys = append(o.keys, key)
		o.vals[key] = v
	}
	return o, nil
}

// badField is the T9102 of one field.
func badField(at, key, format string, args ...any) *diag.ToolError {
	return diag.Errorf(diag.T9102, "bad input: %s.%s "+format, append([]any{at, key}, args...)...).With("field", at+"."+key)
}

// only refuses a field that is not among required and optional, and a
// required field missing or null.
func (o *object) only(required, optional []string) error {
	known := append(slices.Clone(required), optional...)
	for _, k := range o.keys {
		if !slices.Contains(known, k) {
			err := diag.Errorf(diag.T9102, "bad input: unknown field %q in %s (the fields are %s)", k, o.at, strings.Join(known, ", ")).
				With("field", o.at+"."+k)
			if k == "table" && slices.Contains(known, "column") && !slices.Contains(known, "table") {
				// setColumn, moveColumn: the column names its table.
				err.Message += "; column names the table too (\"orders.total\")"
				return err
			}
			return nearest(err, k, known)
		}
	}
	for _, k := range required {
		if !o.has(k) {
			return diag.Errorf(diag.T9102, "bad input: %s lacks the required field %q", o.at, k).With("field", o.at+"."+k)
		}
	}
	return nil
}

// given reports whether the field is there, null included.
func (o *object) given(key string) bool { _, ok := o.vals[key]; return ok }

// null reports whether the field is there and null.
func (o *object) null(key string) bool {
	v, ok := o.vals[key]
	return ok && bytes.Equal(bytes.TrimSpace(v), []byte("null"))
}

// has reports whether the field is there and not null.
func (o *object) has(key string) bool { return o.given(key) && !o.null(key) }

// str reads a string field ("" where absent or null).
func (o *object) str(key string) (string, error) {
	if !o.has(key) {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(o.vals[key], &s); err != nil {
		return "", badField(o.at, key, "must be a string")
	}
	return s, nil
}

// boolean reads a boolean field; ok is false where absent or null.
func (o *object) boolean(key string) (v, ok bool, err error) {
	if !o.has(key) {
		return false, false, nil
	}
	if err := json.Unmarshal(o.vals[key], &v); err != nil {
		return false, false, badField(o.at, key, "must be true or false")
	}
	return v, true, nil
}

// integer reads a whole-number field; ok is false where absent or null.
func (o *object) integer(key string) (v int, ok bool, err error) {
	if !o.has(key) {
		return 0, false, nil
	}
	if err := json.Unmarshal(o.vals[key], &v); err != nil {
		return 0, false, badField(o.at, key, "must be a whole number")
	}
	return v, true, nil
}

// strings reads a list of strings.
func (o *object) strings(key string) ([]string, error) {
	if !o.has(key) {
		return nil, nil
	}
	var v []string
	if err := json.Unmarshal(o.vals[key], &v); err != nil {
		return nil, badField(o.at, key, "must be a list of strings")
	}
	return v, nil
}

// sub reads an object field.
func (o *object) sub(key string) (*object, error) {
	return parseObject(o.vals[key], o.at+"."+key)
}
