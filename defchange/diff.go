package defchange

import (
	"bytes"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
)

// Renames names what a change renamed on purpose, old name to new:
// "orders" -> "purchases" for a definition, "orders.buyer" ->
// "orders.customer" for a column (the old table's name before the dot on
// the left, the new one's on the right). A refactor knows its renames; for
// any other change Diff finds them by `was`.
type Renames map[string]string

// entry is one definition of one side of the diff.
type entry struct {
	def *definitions.Definition
	src []byte
	key string // the name, "#2" added for a second definition of one name
	// readable: its file has no T1xxx finding (syntax, JSON, UTF-8), so
	// that its statement's text alone makes its fields (see sameText).
	readable bool
}

// collect lists the definitions of files, in path and source order, keyed
// by name (project and engine by their kind).
func collect(files []*definitions.File) []entry {
	n := 0
	for _, f := range files {
		if f != nil {
			n += len(f.Definitions)
		}
	}
	out := make([]entry, 0, n)
	seen := make(map[string]int, n)
	for _, f := range files {
		if f == nil {
			continue
		}
		readable := !slices.ContainsFunc(f.Findings, func(fd diag.Finding) bool { return strings.HasPrefix(fd.Code, "T1") })
		for _, d := range f.Definitions {
			key := d.Name
			if seen[key]++; seen[key] > 1 {
				key += "#" + strconv.Itoa(seen[key])
			}
			out = append(out, entry{def: d, src: f.Src, key: key, readable: readable})
		}
	}
	return out
}

// sameText reports whether two versions of a definition are written the
// same, each in a file that reads without error: its fields are then the
// same (they are read from the statement's own text), and a diff of them
// would find nothing. A rename changes hundreds of files, most of whose
// definitions only their code's uses of the name touch.
func sameText(o, n entry) bool {
	if !o.readable || !n.readable || o.def.Name != n.def.Name {
		return false
	}
	ot, nt := o.def.Stmt, n.def.Stmt
	if ot.Start < 0 || ot.Start > ot.End || ot.End > len(o.src) || nt.Start < 0 || nt.Start > nt.End || nt.End > len(n.src) {
		return false
	}
	return bytes.Equal(o.src[ot.Start:ot.End], n.src[nt.Start:nt.End])
}

// Diff compares the definitions of the files a change touched, as they
// were (before) and as they are (after), and returns what changed, sorted
// by name (a table's columns after it). Files that both sides lack are
// not looked at: a definition in an untouched file did not change. A
// definition whose kind changed is removed and added.
func Diff(before, after []*definitions.File, renames Renames) []DefChange {
	olds, news := collect(before), collect(after)
	newByKey := make(map[string]int, len(news))
	for i, e := range news {
		newByKey[e.key] = i
	}
	// pairOf is the new index of each old definition (-1: none), paired
	// whether a new one has an old one: lists, not maps, for a plan of
	// thousands of definitions.
	pairOf := make([]int, len(olds))
	paired := make([]bool, len(news))
	for i, e := range olds {
		pairOf[i] = -1
		if j, ok := newByKey[e.key]; ok && news[j].def.Kind == e.def.Kind {
			pairOf[i], paired[j] = j, true
		}
	}
	// A new definition that was an old one by another name: the change
	// says so, or the new one's was names it.
	for j, n := range news {
		if paired[j] {
			continue
		}
		for i, o := range olds {
			if pairOf[i] >= 0 || o.def.Kind != n.def.Kind {
				continue
			}
			if renames[o.def.Name] == n.def.Name || slices.Contains(wasNames(n.def), o.def.Name) {
				pairOf[i], paired[j] = j, true
				break
			}
		}
	}
	var out []DefChange
	for i, o := range olds {
		j := pairOf[i]
		if j < 0 {
			out = append(out, whole(o, Remove))
			continue
		}
		if sameText(o, news[j]) {
			continue
		}
		out = append(out, pair(o, news[j], renames)...)
	}
	for j, n := range news {
		if !paired[j] {
			out = append(out, whole(n, Add))
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Definition < out[b].Definition })
	return out
}

// whole is the change of a definition added or removed whole: every field
// with its text on the side that has it.
func whole(e entry, action Action) DefChange {
	fs := flatten(e.def, e.src)
	empty := &fieldSet{text: map[string]string{}, entities: map[string]string{}}
	var fields []Field
	if action == Add {
		fields = diffFields(empty, fs, nil)
	} else {
		fields = diffFields(fs, empty, nil)
	}
	return DefChange{Definition: e.def.Name, Kind: KindOf(e.def.Kind), Action: action, Fields: nonNil(fields)}
}

// pair is the change of a definition that both sides have (perhaps under
// another name), and, for a table, of its columns. A definition that did
// not change gives nothing.
func pair(o, n entry, renames Renames) []DefChange {
	cols := columnPairs(o, n, renames)
	renamed := map[string]string{}
	for _, c := range cols {
		if c.action == Rename {
			renamed["columns."+c.old] = "columns." + c.new
		}
	}
	var fields []Field
	ok := false
	if len(renamed) == 0 {
		fields, ok = leafDiff(o, n)
	}
	if !ok {
		a, b := flattenPair(o, n, renamed)
		fields = diffFields(a, b, renamed)
	}
	var out []DefChange
	main := DefChange{Definition: o.def.Name, Kind: KindOf(o.def.Kind), Action: Change, Fields: nonNil(fields)}
	if o.def.Name != n.def.Name {
		main.Action, main.To = Rename, n.def.Name
	} else if len(fields) == 0 {
		return nil
	}
	out = append(out, main)
	for _, c := range cols {
		ch := DefChange{Definition: o.def.Name + "." + c.old, Kind: KindColumn, Action: c.action, Fields: []Field{}}
		if c.action == Add {
			ch.Definition = n.def.Name + "." + c.new
		}
		if c.action == Rename {
			ch.To = n.def.Name + "." + c.new
		}
		if c.action == Change || c.action == Rename {
			prefix := "columns." + c.new + "."
			for _, f := range fields {
				if rest, ok := strings.CutPrefix(f.Path, prefix); ok {
					ch.Fields = append(ch.Fields, Field{Path: rest, Old: f.Old, New: f.New})
				}
			}
			if c.action == Change && len(ch.Fields) == 0 {
				continue
			}
		}
		out = append(out, ch)
	}
	return out
}

// colPair is what happened to one column of a table: old and new name
// ("" on the side that lacks it).
type colPair struct {
	old, new string
	action   Action
}

// columnPairs matches the columns of two versions of a table: by name,
// then by the change's renames or the new column's was.
func columnPairs(o, n entry, renames Renames) []colPair {
	if o.def.Table == nil || n.def.Table == nil {
		return nil
	}
	oldCols, newCols := o.def.Table.Columns, n.def.Table.Columns
	// By name: the last new column of the name (a table has a few dozen
	// columns at most, so a scan, not a map).
	used := make([]bool, len(newCols))
	match := make([]int, len(oldCols)) // old -> new, -1: none
	for i, c := range oldCols {
		match[i] = -1
		for j := len(newCols) - 1; j >= 0; j-- {
			if newCols[j].Schema.Name == c.Schema.Name {
				match[i], used[j] = j, true
				break
			}
		}
	}
	for j, c := range newCols {
		if used[j] {
			continue
		}
		for i, oc := range oldCols {
			if match[i] >= 0 {
				continue
			}
			hinted := renames[o.def.Name+"."+oc.Schema.Name] == n.def.Name+"."+c.Schema.Name
			if hinted || slices.ContainsFunc(c.Was, func(w definitions.NameRef) bool { return w.Name == oc.Schema.Name }) {
				match[i], used[j] = j, true
				break
			}
		}
	}
	out := make([]colPair, 0, len(oldCols))
	for i, c := range oldCols {
		j := match[i]
		switch {
		case j < 0:
			out = append(out, colPair{old: c.Schema.Name, action: Remove})
		case newCols[j].Schema.Name != c.Schema.Name:
			out = append(out, colPair{old: c.Schema.Name, new: newCols[j].Schema.Name, action: Rename})
		default:
			out = append(out, colPair{old: c.Schema.Name, new: c.Schema.Name, action: Change})
		}
	}
	for j, c := range newCols {
		if !used[j] {
			out = append(out, colPair{new: c.Schema.Name, action: Add})
		}
	}
	return out
}

// wasNames are a definition's earlier names (tables have them).
func wasNames(d *definitions.Definition) []string {
	if d.Table == nil {
		return nil
	}
	var out []string
	for _, w := range d.Table.Was {
		out = append(out, w.Name)
	}
	return out
}

func nonNil(fs []Field) []Field {
	if fs == nil {
		return []Field{}
	}
	return fs
}
