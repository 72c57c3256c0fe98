// Package ops holds the editor's operations (docs/pages/change.md): add a
// table, add, change or move a column, rename, remove, add and remove an
// index, add, move and remove a flow's step, add, change and remove a
// test data row. Plan plans a list of them as ONE change set, each
// operation on the texts the ones before it left, so that a column added
// by the first can be moved by the second; the set goes through the one
// pipeline (workspace.Apply, or PlanChange where the editor writes) like
// rename's and remove's. An operation changes only the text it must, in
// the file's own style (its quotes, indentation, line ends, trailing
// commas); every other byte stays as it was. Planning is pure: nothing is
// read but the index, nothing is written.
//
// Imports `change`, `definitions`, `diag`, `schema`, `rename`, `remove`.
package ops

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/remove"
	"github.com/tent-tools/tent-tools/rename"
)

// Result is what a list of operations plans: the change set, from the
// texts of the index it was planned on to the texts after the last
// operation, and the index of those texts (Index).
type Result struct {
	Set *change.Set

	mu sync.Mutex
	st *state
}

// Index is the index of the texts after the last operation, read on the
// first call: a face that answers or applies the set never reads them.
func (r *Result) Index() *definitions.Index {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.st.index()
}

// Plan plans ops on ix, in order, each on the texts the ones before it
// left. The first operation that cannot be planned refuses the whole
// list, with its code and its index in the error's data (`op`).
func Plan(ctx context.Context, ix *definitions.Index, ops []Op) (*Result, error) {
	st := newState(ctx, ix)
	for _, op := range ops {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := st.run(op); err != nil {
			if _, ok := err.(*diag.ToolError); ok {
				return nil, withOp(err, op.index)
			}
			return nil, fmt.Errorf("op %d (%s): %w", op.index, op.Kind, err)
		}
	}
	s, err := st.set()
	if err != nil {
		return nil, err
	}
	s.Target = summary(ops)
	return &Result{Set: s, st: st}, nil
}

// summary names the operations for the point: the first, and how many
// more.
func summary(ops []Op) string {
	if len(ops) == 0 {
		return ""
	}
	first := ops[0].Kind + " " + ops[0].subject()
	if len(ops) == 1 {
		return strings.TrimSpace(first)
	}
	return fmt.Sprintf("%s and %d more", strings.TrimSpace(first), len(ops)-1)
}

// subject is what an op is about, as its summary names it.
func (op Op) subject() string {
	table, _ := op.fields.str("table")
	name, _ := op.fields.str("name")
	if table != "" && name != "" {
		return table + "." + name
	}
	for _, k := range []string{"column", "name", "flow", "table"} {
		if s, _ := op.fields.str(k); s != "" {
			return s
		}
	}
	return ""
}

// run plans one operation as one or more steps.
func (st *state) run(op Op) error {
	o := op.fields
	switch op.Kind {
	case "addTable":
		return st.addTable(o)
	case "addColumn":
		return st.addColumn(o)
	case "setColumn":
		return st.setColumn(o)
	case "moveColumn":
		return st.moveColumn(o)
	case "rename":
		name, err := o.str("name")
		if err != nil {
			return err
		}
		to, err := o.str("to")
		if err != nil {
			return err
		}
		s, err := rename.Plan(st.ctx, st.index(), name, to)
		if err != nil {
			return err
		}
		return st.apply(s)
	case "remove":
		name, err := o.str("name")
		if err != nil {
			return err
		}
		s, err := remove.Plan(st.index(), name)
		if err != nil {
			return err
		}
		return st.apply(s)
	case "addIndex":
		return st.addIndex(o)
	case "removeIndex":
		return st.removeIndex(o)
	case "addStep":
		return st.addStep(o)
	case "moveStep":
		return st.moveStep(o)
	case "removeStep":
		return st.removeStep(o)
	case "addRow":
		return st.addRow(o)
	case "setRow":
		return st.setRow(o)
	case "removeRow":
		return st.removeRow(o)
	}
	return diag.Errorf(diag.T9102, "bad input: %q is no operation", op.Kind)
}

// strs reads string fields of o, in order, stopping at the first error.
func strs(o *object, keys ...string) ([]string, error) {
	out := make([]string, len(keys))
	for i, k := range keys {
		s, err := o.str(k)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}
