package check

import (
	"sort"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
)

// pass holds what every rule looks up, built once per run from the index so
// that the rules, running at the same time, share it read-only.
type pass struct {
	ix *definitions.Index
	// defs is every definition of the shared namespace (not project or
	// engine), in the index's order: by path, then offset.
	defs []*definitions.Definition
	// byName is the first definition of each name, by path order.
	byName map[string]*definitions.Definition
	// tables, fns and flows are the names of each kind, sorted.
	tables, fns, flows []string
	// rowIDs maps a table to the ids of its test data rows.
	rowIDs map[string]map[string]bool
}

func newPass(ix *definitions.Index) *pass {
	p := &pass{ix: ix, byName: map[string]*definitions.Definition{}, rowIDs: map[string]map[string]bool{}}
	for _, d := range ix.Definitions() {
		if d.Kind == definitions.KindProject || d.Kind == definitions.KindEngine {
			continue
		}
		p.defs = append(p.defs, d)
		if _, seen := p.byName[d.Name]; seen {
			continue
		}
		p.byName[d.Name] = d
		switch d.Kind {
		case definitions.KindTable:
			p.tables = append(p.tables, d.Name)
		case definitions.KindFn:
			p.fns = append(p.fns, d.Name)
		case definitions.KindFlow:
			p.flows = append(p.flows, d.Name)
		}
	}
	sort.Strings(p.tables)
	sort.Strings(p.fns)
	sort.Strings(p.flows)
	for _, f := range ix.Files() {
		if f.TestData == nil {
			continue
		}
		ids := p.rowIDs[f.TestData.Table]
		if ids == nil {
			ids = map[string]bool{}
			p.rowIDs[f.TestData.Table] = ids
		}
		for _, r := range f.TestData.Rows {
			if r.ID != "" {
				ids[r.ID] = true
			}
		}
	}
	return p
}

// table returns the table named name, or nil.
func (p *pass) table(name string) *definitions.Definition {
	if d := p.byName[name]; d != nil && d.Kind == definitions.KindTable {
		return d
	}
	return nil
}

// kindOf returns the kind of the definition named name, or "" when none is.
func (p *pass) kindOf(name string) definitions.Kind {
	if d := p.byName[name]; d != nil {
		return d.Kind
	}
	return ""
}

// at makes a finding in the file at path, about the definition def ("" for
// none). A path the index does not hold (project.ts when it is missing)
// gets line 1, column 1.
func (p *pass) at(path, def, code string, sev diag.Severity, msg string, span definitions.Span) diag.Finding {
	var f diag.Finding
	if file := p.ix.File(path); file != nil {
		f = file.Finding(code, sev, msg, span)
	} else {
		f = diag.Finding{Code: code, Severity: sev, Path: path, Line: 1, Col: 1, EndLine: 1, EndCol: 1, Message: msg}
	}
	f.Definition = def
	return f
}

// on makes a finding about definition d at span in d's file.
func (p *pass) on(d *definitions.Definition, code string, sev diag.Severity, msg string, span definitions.Span) diag.Finding {
	return p.at(d.Path, d.Name, code, sev, msg, span)
}

// replace is a fix that writes text over span in the file at path.
func replace(title, path string, span definitions.Span, text string) *diag.Fix {
	return &diag.Fix{Title: title, Path: path, Start: span.Start, End: span.End, Text: text}
}

// columnsOf returns the columns (or input fields) a definition declares.
func columnsOf(d *definitions.Definition) []*definitions.Column {
	switch {
	case d.Table != nil:
		return d.Table.Columns
	case d.Fn != nil:
		return d.Fn.Input
	case d.Flow != nil:
		return d.Flow.Input
	}
	return nil
}

// columnNames returns the names of a table's columns, with the implicit id.
func columnNames(t *definitions.Table) []string {
	names := []string{"id"}
	for _, c := range t.Columns {
		names = append(names, c.Schema.Name)
	}
	return names
}
