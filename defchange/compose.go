package defchange

import "sort"

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
	for _, list := range lists {
		for _, c := range list {
			key := classOf(c.Kind) + ":" + c.Definition
			e := live[key]
			if e == nil {
				e = &composed{DefChange: DefChange{Definition: c.Definition, Kind: c.Kind, Action: c.Action, To: c.To}, at: map[string]int{}}
				e.merge(c.Fields)
				entries = append(entries, e)
				e.rekey(live, key, c)
				continue
			}
			e.merge(c.Fields)
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

// merge folds the next change's fields in: a field seen before keeps its
// old text and takes the new one.
func (e *composed) merge(fields []Field) {
	for _, f := range fields {
		if i, ok := e.at[f.Path]; ok {
			e.Fields[i].New = f.New
			continue
		}
		e.at[f.Path] = len(e.Fields)
		e.Fields = append(e.Fields, f)
	}
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
