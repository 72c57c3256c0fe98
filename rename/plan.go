// Package rename plans the rename of a definition or a column (format.md
// §3–§4): the name itself, its `was`, every plain place that names it, and
// the code sites it leaves. Planning is pure: Plan returns a change set and
// writes nothing; package workspace applies it.
package rename

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/defchange"
	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
)

// Plan returns the change set that renames name ("orders" or
// "orders.buyer") to `to` (a column's new name may be given bare or with
// its table). It refuses, planning nothing, with T9103 for an unknown name
// and T9107 where `to` is no identifier, a reserved word, `id`, or taken:
// by a definition, by a column of the same table, or by a name the
// migration reads (a `was` or `removed` that would then name two things).
func Plan(ctx context.Context, ix *definitions.Index, name, to string) (*change.Set, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("rename %s: %w", name, err)
	}
	def, col, terr := ix.Lookup(name)
	if terr != nil {
		return nil, terr
	}
	if col != nil && def.Kind == definitions.KindTable {
		to = strings.TrimPrefix(to, def.Name+".")
	}
	if terr := checkNewName(to); terr != nil {
		return nil, terr
	}
	p := &planner{ctx: ctx, ix: ix, name: name, to: to, def: def, col: col, b: change.NewBuilder()}
	p.old = def.Name
	if col != nil {
		p.old = col.Schema.Name
	}
	if terr := p.checkTarget(); terr != nil {
		return nil, terr
	}
	if terr := p.checkTaken(); terr != nil {
		return nil, terr
	}
	if terr := p.was(); terr != nil {
		return nil, terr
	}
	p.places()
	p.sites()
	s, err := p.b.Set()
	if err != nil {
		return nil, fmt.Errorf("rename %s: %w", name, err)
	}
	s.Action, s.Kind, s.Target, s.To, s.Was = change.ActionRename, p.kind(), name, to, p.newWas
	s.Renamed = map[string]string{p.def.Name: to}
	if p.col != nil {
		s.Renamed = map[string]string{p.def.Name + "." + p.old: p.def.Name + "." + to}
	}
	if terr := p.checkCapture(s); terr != nil {
		return nil, terr
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("rename %s: %w", name, err) // the capture check's read was cut short
	}
	return s, nil
}

// planner holds one rename being planned.
type planner struct {
	ctx  context.Context // the caller's: the capture check's reading stops with it
	ix   *definitions.Index
	name string // the target as given
	old  string // the definition's or column's own name
	to   string
	def  *definitions.Definition
	col  *definitions.Column
	b    *change.Builder

	newWas []string
	// wasSpan is the target's own `was` property, which was() edits; the
	// places inside it are left to was().
	wasSpan definitions.Span
	// renamed holds, per file, the identifiers renamed, and binds the files
	// that get a top-level binding of the new name: the capture check
	// looks at them.
	renamed map[string][]renamedIdent
	binds   map[string]bool
	// codeSites are the target's code sites, which the rename leaves.
	codeSites []definitions.CodeSite
}

// kind names what is renamed, as a policy's change rule does.
func (p *planner) kind() defchange.Kind {
	if p.col != nil {
		return defchange.KindColumn
	}
	return defchange.KindOf(p.def.Kind)
}

// src returns the indexed text of a file.
func (p *planner) src(path string) []byte {
	if f := p.ix.File(path); f != nil {
		return f.Src
	}
	return nil
}

// where writes a definition's or span's place as path:line.
func (p *planner) where(path string, span definitions.Span) string {
	f := p.ix.File(path)
	if f == nil {
		return path
	}
	line, _ := f.Pos(span.Start)
	return fmt.Sprintf("%s:%d", path, line)
}

// checkTarget refuses what rename cannot rename.
func (p *planner) checkTarget() *diag.ToolError {
	switch {
	case p.col != nil && p.col.Schema.Name == "id":
		return diag.Errorf(diag.T9107, "`id` is every table's implicit column and cannot be renamed").With("name", p.name)
	case p.col != nil && p.def.Kind != definitions.KindTable:
		return diag.Errorf(diag.T9103, "%s is an input field of %s %s; rename renames tables' columns", p.name, p.def.Kind, p.def.Name).With("name", p.name)
	case p.col == nil && (p.def.Kind == definitions.KindProject || p.def.Kind == definitions.KindEngine):
		return diag.Errorf(diag.T9103, "%s has no name to rename", p.def.Kind).With("name", p.name)
	case p.old == p.to:
		return diag.Errorf(diag.T9107, "%s is already named %s", p.name, p.to).With("to", p.to)
	}
	return nil
}

// taken makes the T9107 of a name that is taken.
func (p *planner) taken(format string, args ...any) *diag.ToolError {
	return diag.Errorf(diag.T9107, "cannot rename %s to %s: "+format, append([]any{p.name, p.to}, args...)...).With("to", p.to)
}

// checkTaken refuses a new name that the project already uses, or that a
// `was` or `removed` would then make ambiguous for the migration.
func (p *planner) checkTaken() *diag.ToolError {
	if p.col != nil {
		return p.checkColumnTaken()
	}
	if ds := p.ix.DefinitionsNamed(p.to); len(ds) > 0 {
		d := ds[0]
		return p.taken("%s %s is defined at %s (tables, functions, flows and screens share one namespace)", d.Kind, d.Name, p.where(d.Path, d.NameSpan))
	}
	if f := p.ix.File(p.def.Path); f != nil && declaresTopLevel(f, p.to) {
		return p.taken("%s already declares %s at its top level", p.def.Path, p.to)
	}
	if p.def.Kind != definitions.KindTable {
		return nil
	}
	if pr := p.ix.Project(); pr != nil && pr.Project != nil {
		for _, r := range pr.Project.Removed {
			if r.Name == p.to {
				return p.taken("project.ts lists %s in removed (a table dropped on purpose; take it out of removed first to reuse the name)", p.to)
			}
		}
	}
	for _, d := range p.ix.TablesWas(p.to) {
		if d != p.def {
			return p.taken("it is an earlier name (was) of table %s, so the migration could not tell the tables apart", d.Name)
		}
	}
	if td := testDataPath(p.to); p.ix.File(td) != nil {
		return p.taken("%s already exists", td)
	}
	return nil
}

// checkColumnTaken refuses a new column name that its table uses.
func (p *planner) checkColumnTaken() *diag.ToolError {
	t := p.def.Table
	if c := t.Column(p.to); c != nil {
		return p.taken("table %s has a column %s (%s)", p.def.Name, p.to, p.where(p.def.Path, c.Prop.KeySpan))
	}
	for _, c := range t.Columns {
		if c == p.col {
			continue
		}
		for _, w := range c.Was {
			if w.Name == p.to {
				return p.taken("it is an earlier name (was) of %s.%s, so the migration could not tell the columns apart", p.def.Name, c.Schema.Name)
			}
		}
	}
	for _, r := range t.Removed {
		if r.Name == p.to {
			return p.taken("table %s lists %s in removed (a column dropped on purpose; take it out of removed first to reuse the name)", p.def.Name, p.to)
		}
	}
	// A row that holds the new name as a key already would hold it twice.
	if f := p.ix.File(testDataPath(p.def.Name)); f != nil && f.TestData != nil {
		for _, row := range f.TestData.Rows {
			for _, k := range row.Keys {
				if k.Name.Name == p.to {
					return p.taken("a row of %s has a key %s already (%s)", f.Path, p.to, p.where(f.Path, k.Name.Span))
				}
			}
		}
	}
	return nil
}

// testDataPath is where a table's test data stands.
func testDataPath(table string) string { return path.Join("testdata", table+".json") }
