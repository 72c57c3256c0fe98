package remove

import (
	"slices"
	"strings"

	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
)

// column plans the removal of a table's column: its property goes (with
// its line where it has one of its own), it leaves the table's indexes (an
// index left empty goes, and `indexes` left empty goes), its key leaves
// every row of the table's test data, and its name and `was` names are
// appended to the table's `removed` (made where there is none).
func (p *planner) column(def *definitions.Definition, col *definitions.Column) *diag.ToolError {
	t := def.Table
	target := def.Name + "." + col.Schema.Name
	src := p.src(def.Path)
	st := change.StyleOf(src, def)
	if t.ColumnsProp == nil || t.ColumnsProp.Value.Kind != definitions.ValObject || col.Prop == nil {
		return unreadable(target, "`columns`")
	}
	cols := t.ColumnsProp.Value
	p.b.Edit(def.Path, src, change.ListOf(cols).Remove(src, []int{slices.Index(cols.Props, col.Prop)})...)
	p.drop(def.Path, col.Prop.Span)
	indexesGone := p.indexes(def, src, col.Schema.Name)
	if terr := p.stateColumn(def, col, src, st, indexesGone); terr != nil {
		return terr
	}
	p.testData(def.Name, col.Schema.Name)
	return nil
}

// stateColumn appends the column's name and `was` names to its table's
// `removed`, or makes `removed` after `columns`, `was` and `indexes`.
func (p *planner) stateColumn(def *definitions.Definition, col *definitions.Column, src []byte, st change.Style, indexesGone bool) *diag.ToolError {
	t := def.Table
	target := def.Name + "." + col.Schema.Name
	names := newNames(t.Removed, append([]string{col.Schema.Name}, refNames(col.Was)...)...)
	if len(names) == 0 {
		return nil
	}
	if t.RemovedProp != nil {
		v, ok := change.NameValueOf(t.RemovedProp.Value)
		if !ok {
			return unreadable(target, "the table's `removed`")
		}
		p.b.Edit(def.Path, src, stated(change.AppendNames(src, v, names, st))...)
		return nil
	}
	arg := def.Arg
	if arg == nil || arg.Kind != definitions.ValObject {
		return unreadable(target, "the table's argument")
	}
	after := len(arg.Props) - 1
	for i, pr := range arg.Props {
		if pr.Key == "columns" || pr.Key == "was" || (pr.Key == "indexes" && !indexesGone) {
			after = i
		}
	}
	p.b.Edit(def.Path, src, stated(change.ListOf(arg).InsertAfter(src, after, []string{"removed: " + change.ArrayText(src, names, st)}, st))...)
	return nil
}

// indexes drops a column from its table's indexes. An index left empty
// goes, and so does one left the same as an index before it (`[['buyer',
// 'placedAt'], ['buyer']]` without placedAt is one index, not two); where
// every index goes, `indexes` goes. It reports whether `indexes` goes.
func (p *planner) indexes(def *definitions.Definition, src []byte, name string) bool {
	ip := def.Table.IndexesProp
	if ip == nil || ip.Value.Kind != definitions.ValArray {
		return false
	}
	outer := ip.Value
	// The columns of each index after the drop, and which indexes change.
	rest := make([]string, len(outer.Items))
	drops := make([][]int, len(outer.Items))
	for i, idx := range outer.Items {
		var cols []string
		for j, it := range idx.Items {
			if it.Kind == definitions.ValString && it.Str == name {
				drops[i] = append(drops[i], j)
			} else {
				cols = append(cols, it.Str)
			}
		}
		rest[i] = strings.Join(cols, "\x00")
	}
	var dropOuter []int
	var inner []change.Edit
	for i, idx := range outer.Items {
		if idx.Kind != definitions.ValArray || len(drops[i]) == 0 {
			continue
		}
		p.drop(def.Path, idx.Span)
		if len(drops[i]) == len(idx.Items) || sameAsAnother(i, rest, drops, dropOuter) {
			dropOuter = append(dropOuter, i)
			continue
		}
		inner = append(inner, change.ListOf(idx).Remove(src, drops[i])...)
	}
	if len(dropOuter) > 0 && len(dropOuter) == len(outer.Items) {
		p.b.Edit(def.Path, src, change.ListOf(def.Arg).Remove(src, []int{slices.Index(def.Arg.Props, ip)})...)
		p.drop(def.Path, ip.Span)
		return true
	}
	p.b.Edit(def.Path, src, append(change.ListOf(outer).Remove(src, dropOuter), inner...)...)
	return false
}

// testData drops a column's key from every row of its table's test data,
// keeping the rest of the JSON as written.
func (p *planner) testData(table, column string) {
	f := p.ix.File(testDataPath(table))
	if f == nil || f.TestData == nil {
		return
	}
	for _, row := range f.TestData.Rows {
		for k, key := range row.Keys {
			if key.Name.Name == column {
				p.b.Edit(f.Path, f.Src, change.RowList(row).Remove(f.Src, []int{k})...)
				p.drop(f.Path, key.Pair())
			}
		}
	}
}

// sameAsAnother reports whether index i, once a column is dropped from it,
// has the columns of an index that stays: one the drop leaves untouched, or
// a changed one before it that is kept.
func sameAsAnother(i int, rest []string, drops [][]int, dropped []int) bool {
	for j := range rest {
		if j == i || rest[j] != rest[i] {
			continue
		}
		if len(drops[j]) == 0 || (j < i && !slices.Contains(dropped, j)) {
			return true
		}
	}
	return false
}
