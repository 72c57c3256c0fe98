package check

import (
	"strings"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
)

// shared holds what every rule looks up in one run: the index and the
// project-wide tables, which the rules, running at the same time, share
// read-only.
type shared struct {
	ix *definitions.Index
	*tables
	// values computes what a rule saw of the project outside its own file
	// (deps.go); nil where nothing is recorded.
	values *values
}

// pass is what one rule sees in one run: the definitions and files it
// checks (one file's, for a rule that checks file by file; all, for a rule
// that joins files), and the shared lookups. Each lookup of something
// outside those files is recorded in deps with what it saw, so that an
// incremental check (Checker) knows when the findings must be made again.
type pass struct {
	*shared
	// defs are the definitions to check (not project or engine), by path,
	// then offset.
	defs []*definitions.Definition
	// files are the files to check, by path.
	files []*definitions.File
	// deps records what the rule looked up outside files; nil for a rule
	// that joins files, which is run again on every change.
	deps map[dep]string
	// testData and refs are what the test data rules of the pass share,
	// found on first use (testdata_rules.go).
	testData *[]testData
	refs     map[string]map[string]bool
}

// joined is the pass of a rule that joins files: every definition such a
// rule reads (joinable), nothing recorded.
func (s *shared) joined() *pass {
	return &pass{shared: s, defs: s.tables.joined()}
}

// fileUnit is the pass of a rule that checks file by file, over file f;
// record says it records its lookups (a Checker that keeps the findings
// for the next run), else it records nothing (a one-shot Run).
func (s *shared) fileUnit(f *definitions.File, record bool) *pass {
	p := &pass{shared: s, files: []*definitions.File{f}}
	if record {
		p.deps = map[dep]string{}
	}
	for _, d := range f.Definitions {
		if d.Kind != definitions.KindProject && d.Kind != definitions.KindEngine {
			p.defs = append(p.defs, d)
		}
	}
	return p
}

// first returns the first definition named name (by path order), or nil;
// the rule may read all of it.
func (p *pass) first(name string) *definitions.Definition {
	p.record(dep{depDef, name})
	return p.firstOf(name)
}

// firstIs reports whether d is the first definition of its name; where it
// is not, the first one is returned for its path, position and kind.
func (p *pass) firstIs(d *definitions.Definition) (*definitions.Definition, bool) {
	p.record(dep{depFirst, d.Name})
	first := p.firstFor(d)
	return first, first == d
}

// table returns the table named name, or nil; the rule may read all of it.
func (p *pass) table(name string) *definitions.Definition {
	if d := p.first(name); d != nil && d.Kind == definitions.KindTable {
		return d
	}
	return nil
}

// isTable reports whether a table is named name.
func (p *pass) isTable(name string) bool {
	return p.kindOf(name) == definitions.KindTable
}

// kindOf returns the kind of the definition named name, or "" when none is.
func (p *pass) kindOf(name string) definitions.Kind {
	p.record(dep{depKindOf, name})
	return kindOf(p.firstOf(name))
}

// names returns the sorted names of the tables, fns or flows.
func (p *pass) names(kind definitions.Kind) []string {
	p.record(dep{depNames, string(kind)})
	return p.tables.names(kind)
}

// nameList is names with the letters of each, for suggest.
func (p *pass) nameList(kind definitions.Kind) nameList {
	p.record(dep{depNames, string(kind)})
	return p.tables.nameList(kind)
}

// rows returns the ids of the test data rows of table.
func (p *pass) rows(table string) map[string]bool {
	p.record(dep{depRows, table})
	return p.rowSet(table)
}

// resolve is the project file a relative import names, or "".
func (p *pass) resolve(from, module string) string {
	to := p.ix.ResolveModule(from, module)
	if p.deps != nil {
		p.saw(dep{depResolve, from + "\x00" + module}, to)
	}
	return to
}

// project returns the project's definition, or nil.
func (p *pass) project() *definitions.Definition {
	p.record(dep{depProject, ""})
	return p.projectDef()
}

// sends returns the ways definition name is inferred to send.
func (p *pass) sends(name string) []string {
	_, inferred := p.ix.Sends(name)
	if p.deps != nil {
		p.saw(dep{depSends, name}, strings.Join(inferred, ","))
	}
	return inferred
}

// calls returns the functions definition name calls.
func (p *pass) calls(name string) []string {
	callees := p.ix.Calls(name)
	if p.deps != nil {
		p.saw(dep{depCalls, name}, strings.Join(callees, "\x00"))
	}
	return callees
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
