package ops

import (
	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
)

// flow is the flow named name now (T9103 where there is none).
func (st *state) flow(name string) (*definitions.Definition, error) {
	for _, d := range st.index().DefinitionsNamed(name) {
		if d.Kind == definitions.KindFlow && d.Flow != nil {
			return d, nil
		}
	}
	if d := st.index().Definition(name); d != nil {
		return nil, diag.Errorf(diag.T9103, "%s is a %s, not a flow", name, d.Kind).With("flow", name)
	}
	return nil, nearest(diag.Errorf(diag.T9103, "no flow %s", name).With("flow", name), name, st.namesOf(definitions.KindFlow))
}

// stepsList is the list of a flow's steps; ok is false where it writes
// none.
func stepsList(d *definitions.Definition) (change.List, bool) {
	p := d.Flow.StepsProp
	if p == nil || p.Value == nil || p.Value.Kind != definitions.ValArray {
		return change.List{}, false
	}
	return change.ListOf(p.Value), true
}

// position reads a 0-based index field within [0, n]; def where absent.
func position(o *object, key string, n, def int) (int, error) {
	at, ok, err := o.integer(key)
	if err != nil {
		return 0, err
	}
	if !ok {
		return def, nil
	}
	if at < 0 || at > n {
		return 0, badField(o.at, key, "is %d, out of 0 to %d", at, n)
	}
	return at, nil
}

// addStep puts a function among a flow's steps, at an index (the end by
// default).
func (st *state) addStep(o *object) error {
	ss, err := strs(o, "flow", "step")
	if err != nil {
		return err
	}
	d, err := st.flow(ss[0])
	if err != nil {
		return err
	}
	step := ss[1]
	isFn := false
	for _, fd := range st.index().DefinitionsNamed(step) {
		isFn = isFn || fd.Kind == definitions.KindFn
	}
	if !isFn {
		return nearest(diag.Errorf(diag.T2005, "the step %s names no function", step).With("field", o.at+".step"), step, st.namesOf(definitions.KindFn))
	}
	f := st.index().File(d.Path)
	style := change.StyleOf(f.Src, d)
	list, ok := stepsList(d)
	if !ok {
		if d.Arg == nil {
			return diag.Errorf(diag.T2010, "flow %s is not written as an object literal", d.Name).With("flow", d.Name)
		}
		if _, err := position(o, "at", 0, 0); err != nil {
			return err
		}
		return st.edit(d.Path, change.ListOf(d.Arg).Append(f.Src, []string{"steps: [" + style.Quoted(step) + "]"}, style)...)
	}
	at, err := position(o, "at", len(list.Items), len(list.Items))
	if err != nil {
		return err
	}
	return st.edit(d.Path, list.InsertAfter(f.Src, at-1, []string{style.Quoted(step)}, style)...)
}

// moveStep moves a step from one index to another: taken out, then put
// back at its new index.
func (st *state) moveStep(o *object) error {
	name, err := o.str("flow")
	if err != nil {
		return err
	}
	d, err := st.flow(name)
	if err != nil {
		return err
	}
	list, ok := stepsList(d)
	if !ok || len(list.Items) == 0 {
		return diag.Errorf(diag.T9103, "flow %s has no steps to move", name).With("flow", name)
	}
	from, ok, err := o.integer("from")
	if err != nil {
		return err
	}
	if !ok || from < 0 || from >= len(list.Items) {
		return badField(o.at, "from", "is %d, out of 0 to %d", from, len(list.Items)-1)
	}
	to, err := position(o, "to", len(list.Items)-1, 0)
	if err != nil {
		return err
	}
	if from == to {
		return nil
	}
	f := st.index().File(d.Path)
	item := list.Items[from]
	text := string(f.Src[item.Start:item.End])
	if err := st.edit(d.Path, list.Remove(f.Src, []int{from})...); err != nil {
		return err
	}
	if d, err = st.flow(name); err != nil {
		return err
	}
	list, _ = stepsList(d)
	f = st.index().File(d.Path)
	return st.edit(d.Path, list.InsertAfter(f.Src, to-1, []string{text}, change.StyleOf(f.Src, d))...)
}

// removeStep drops the step at an index (the last by default).
func (st *state) removeStep(o *object) error {
	name, err := o.str("flow")
	if err != nil {
		return err
	}
	d, err := st.flow(name)
	if err != nil {
		return err
	}
	list, ok := stepsList(d)
	if !ok || len(list.Items) == 0 {
		return diag.Errorf(diag.T9103, "flow %s has no steps to remove", name).With("flow", name)
	}
	at, err := position(o, "at", len(list.Items)-1, len(list.Items)-1)
	if err != nil {
		return err
	}
	f := st.index().File(d.Path)
	return st.edit(d.Path, list.Remove(f.Src, []int{at})...)
}
