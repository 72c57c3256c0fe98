package defchange

import (
	"sort"
	"strings"
)

// Compose folds the change lists of consecutive points, oldest first, into
// the net change from before the first to after the last: a definition
// added and then changed is added (with its last text), added and then
// removed is gone from the list, renamed twice is renamed once (or, back
// to its first name, only changed), removed and added again is changed.
// A field keeps its first old text and its last new one; a field that
// ends as it began drops out, and so does a change left with no field.
func Compose(lists ...[]DefChange) []DefChange {
	var entries []*composed
	live := map[string]*composed{} // by class and current name
	// A table's fields name a column by its name after each point
	// (columns.customer.was), so a column renamed and renamed back has
	// its fields under two paths: columns is, by table and column as
	// named now, the name the column had before the first point, by which
	// its fields are folded.
	columns := columnNames{}
	for _, list := range lists {
		for _, c := range list {
			if c.Action == Rename && c.Kind == KindColumn {
				columns.rename(c.Definition, c.To)
			} else if c.Action == Rename && classOf(c.Kind) == "definition" {
				columns[c.To], columns[c.Definition] = columns[c.Definition], nil
			}
		}
		for _, c := range list {
			first := func(path string) string { return path }
			if classOf(c.Kind) == "definition" {
				first = func(path string) string { return columns.first(c.Name(), path) }
			}
			key := classOf(c.Kind) + ":" + c.Definition
			e := live[key]
			if e == nil {
				e = &composed{DefChange: DefChange{Definition: c.Definition, Kind: c.Kind, Action: c.Action, To: c.To}, at: map[string]int{}}
				e.merge(c.Fields, first)
				entries = append(entries, e)
				e.rekey(live, key, c)
				continue
			}
			e.merge(c.Fields, first)
			e.follow(c)
			e.rekey(live, key, c)
		}
	}
	var out []DefChange
	for _, e := range entries {
		if e.gone {
			continue
		}
		var fields []Field
		for _, f := range e.Fields {
			if f.Old != f.New {
				fields = append(fields, f)
			}
		}
		e.Fields = nonNil(fields)
		if e.Action == Change && len(e.Fields) == 0 {
			continue
		}
		out = append(out, e.DefChange)
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Definition < out[b].Definition })
	return out
}

// composed is one definition's change while Compose folds: its fields by
// path.
type composed struct {
	DefChange
	at   map[string]int // field path -> index in Fields
	gone bool
}

// merge folds the next change's fields in: a field seen before (by the
// path first gives it: a column's by its first name) keeps its old text
// and takes the new one, and the path the newest change wrote.
func (e *composed) merge(fields []Field, first func(path string) string) {
	for _, f := range fields {
		key := first(f.Path)
		if i, ok := e.at[key]; ok {
			e.Fields[i].New = f.New
			e.Fields[i].Path = f.Path
			continue
		}
		e.at[key] = len(e.Fields)
		e.Fields = append(e.Fields, f)
	}
}

// columnNames maps, by table (its name now) and column (its name now),
// the column's name before the first point composed, where it differs.
type columnNames map[string]map[string]string

// rename notes a column's rename ("orders.buyer" to "orders.customer").
func (cn columnNames) rename(from, to string) {
	table, old, ok1 := strings.Cut(from, ".")
	_, name, ok2 := strings.Cut(to, ".")
	if !ok1 || !ok2 {
		return
	}
	if cn[table] == nil {
		cn[table] = map[string]string{}
	}
	first, ok := cn[table][old]
	if !ok {
		first = old
	}
	delete(cn[table], old)
	cn[table][name] = first
}

// first rewrites a field path of the table's (columns.NAME...) to name
// the column by its first name.
func (cn columnNames) first(table, path string) string {
	rest, ok := strings.CutPrefix(path, "columns.")
	if !ok || cn[table] == nil {
		return path
	}
	name, tail, _ := strings.Cut(rest, ".")
	first, ok := cn[table][name]
	if !ok {
		return path
	}
	if tail != "" {
		return "columns." + first + "." + tail
	}
	return "columns." + first
}

// follow folds the next change's action into the entry's.
func (e *composed) follow(c DefChange) {
	switch e.Action {
	case Add:
		switch c.Action {
		case Remove:
			e.gone = true
		case Rename:
			e.Definition = c.To // it did not exist before under any name
		}
	case Change:
		switch c.Action {
		case Rename:
			e.Action, e.To = Rename, c.To
		case Remove:
			e.Action = Remove
		}
	case Rename:
		switch c.Action {
		case Rename:
			e.To = c.To
			if e.To == e.Definition {
				e.Action, e.To = Change, ""
			}
		case Remove:
			e.Action, e.To = Remove, ""
		}
	case Remove:
		if c.Action == Add {
			e.Action = Change
		}
	}
}

// rekey files the entry under the name it has after c.
func (e *composed) rekey(live map[string]*composed, key string, c DefChange) {
	delete(live, key)
	if e.gone || c.Action == Remove && e.Action == Remove {
		// A removed name may be added again: the next add meets this entry.
		if !e.gone {
			live[key] = e
		}
		return
	}
	live[classOf(c.Kind)+":"+c.Name()] = e
}

// classOf is the namespace of a kind: definitions share one, columns and
// files have their own.
func classOf(kind Kind) string {
	switch kind {
	case KindColumn, KindFile:
		return string(kind)
	}
	return "definition"
}
