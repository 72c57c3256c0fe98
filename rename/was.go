package rename

import (
	"slices"

	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
)

// was plans the target's `was` (docs/pages/format.md §3), for tables and columns:
// the old name is appended (a `was` is made where there is none, one name
// written as a string); renaming back to a name in `was` cuts the list
// there (a list cut to nothing goes whole). Functions, flows and screens
// keep no data, so they have no `was`.
func (p *planner) was() *diag.ToolError {
	var refs []definitions.NameRef
	var prop *definitions.Prop
	switch {
	case p.col != nil:
		refs, prop = p.col.Was, p.col.WasProp
	case p.def.Table != nil:
		refs, prop = p.def.Table.Was, p.def.Table.WasProp
	default:
		return nil
	}
	names := make([]string, len(refs))
	for i, r := range refs {
		names[i] = r.Name
	}
	src := p.src(p.def.Path)
	st := change.StyleOf(src, p.def)
	if prop != nil {
		p.wasSpan = prop.Span
	}
	i := slices.Index(names, p.to)
	switch {
	case i == 0:
		p.newWas = []string{}
		return p.dropWas(src, prop)
	case i > 0:
		p.newWas = names[:i]
		v, terr := p.wasValue(prop)
		if terr != nil {
			return terr
		}
		p.b.Edit(p.def.Path, src, change.CutNames(src, v, i)...)
		return nil
	case slices.Contains(names, p.old):
		// The old name is in `was` already (the check reports it); the
		// migration reads it there as it is.
		p.newWas = names
		return nil
	}
	p.newWas = append(names, p.old)
	if prop == nil {
		return p.addWas(src, st)
	}
	v, terr := p.wasValue(prop)
	if terr != nil {
		return terr
	}
	p.b.Edit(p.def.Path, src, change.AppendNames(src, v, []string{p.old}, st)...)
	return nil
}

// unreadable refuses a rename whose `was` cannot be written because a
// declarative part is not plain (T2010).
func (p *planner) unreadable(what string) *diag.ToolError {
	return diag.Errorf(diag.T2010, "cannot rename %s: its %s is not written plainly, so its `was` cannot be kept; write it as a literal first", p.name, what).With("name", p.name)
}

// wasValue reads the target's `was` value as written.
func (p *planner) wasValue(prop *definitions.Prop) (change.NameValue, *diag.ToolError) {
	v, ok := change.NameValueOf(prop.Value)
	if !ok {
		return v, p.unreadable("`was`")
	}
	return v, nil
}

// addWas makes the target's `was`: a column's as an option of its builder
// call, a table's after its `columns`.
func (p *planner) addWas(src []byte, st change.Style) *diag.ToolError {
	value := st.Quoted(p.old)
	if p.col != nil {
		if p.col.Call == nil || p.col.Call.Kind != definitions.ValCall {
			return p.unreadable("builder call")
		}
		p.b.Edit(p.def.Path, src, change.AddOption(src, change.CallOf(p.col.Call), "was", value, st)...)
		return nil
	}
	arg := p.def.Arg
	if arg == nil || arg.Kind != definitions.ValObject {
		return p.unreadable("argument")
	}
	after := len(arg.Props) - 1
	for i, pr := range arg.Props {
		if pr.Key == "columns" {
			after = i
		}
	}
	p.b.Edit(p.def.Path, src, change.ListOf(arg).InsertAfter(src, after, []string{"was: " + value}, st)...)
	return nil
}

// dropWas removes the target's `was` property whole: from a column's
// options (an options object left empty goes too), or from a table.
func (p *planner) dropWas(src []byte, prop *definitions.Prop) *diag.ToolError {
	if p.col != nil {
		opts := p.col.Options
		if p.col.Call == nil || opts == nil {
			return p.unreadable("builder call")
		}
		p.b.Edit(p.def.Path, src, change.DropOption(src, change.CallOf(p.col.Call), slices.Index(opts.Props, prop))...)
		return nil
	}
	arg := p.def.Arg
	p.b.Edit(p.def.Path, src, change.ListOf(arg).Remove(src, []int{slices.Index(arg.Props, prop)})...)
	return nil
}
