// Package remove plans the removal of a definition, a column or a file
// (docs/pages/format.md §3–§4), stated where the framework asks: a column in its
// table's `removed`, a table in project.ts's `removed`, each with its
// `was` names. A removal does not cascade into other definitions: every
// place left that still names what was removed is listed instead.
// Planning is pure: it returns a change set and writes nothing.
package remove

import (
	"fmt"
	"path"
	"slices"

	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/defchange"
	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
)

// Plan returns the change set that removes the definition or column name
// ("orders", "orders.buyer"). T9103 for an unknown name, for what has no
// name to remove (a function's input field), and for a table whose
// removal cannot be stated because project.ts has no project({...}).
func Plan(ix *definitions.Index, name string) (*change.Set, error) {
	def, col, terr := ix.Lookup(name)
	if terr != nil {
		return nil, terr
	}
	p := newPlanner(ix)
	switch {
	case col != nil && col.Schema.Name == "id":
		return nil, diag.Errorf(diag.T9107, "`id` is every table's implicit column and cannot be removed").With("name", name)
	case col != nil && def.Kind != definitions.KindTable:
		return nil, diag.Errorf(diag.T9103, "%s is an input field of %s %s; remove removes tables' columns", name, def.Kind, def.Name).With("name", name)
	case col != nil:
		if terr := p.column(def, col); terr != nil {
			return nil, terr
		}
		p.leave(name)
	case def.Kind == definitions.KindProject || def.Kind == definitions.KindEngine:
		return nil, diag.Errorf(diag.T9103, "%s is no definition to remove; remove its file instead", def.Kind).With("name", name)
	default:
		if terr := p.definition(def); terr != nil {
			return nil, terr
		}
		p.leave(name)
	}
	return p.finish(name, kindOf(def, col))
}

// PlanFile returns the change set that deletes the file at path (as the
// index knows it; T9103 otherwise) and states each table it defines in
// project.ts's `removed`, deleting their test data.
func PlanFile(ix *definitions.Index, filePath string) (*change.Set, error) {
	f := ix.File(filePath)
	if f == nil {
		return nil, diag.Errorf(diag.T9103, "%s is not a file of the project", filePath).With("path", filePath)
	}
	p := newPlanner(ix)
	p.b.Delete(f.Path)
	var tables []*definitions.Definition
	for _, d := range f.Definitions {
		if d.Table != nil {
			tables = append(tables, d)
		}
	}
	if len(tables) > 0 && f.Path != "project.ts" {
		if terr := p.stateTables(tables); terr != nil {
			return nil, terr
		}
	}
	for _, d := range f.Definitions {
		if d.Kind != definitions.KindProject && d.Kind != definitions.KindEngine {
			p.leave(d.Name)
		}
	}
	p.leaveImporters(f)
	return p.finish(f.Path, "file")
}

// kindOf names what is removed, as a policy's change rule does.
func kindOf(def *definitions.Definition, col *definitions.Column) defchange.Kind {
	if col != nil {
		return defchange.KindColumn
	}
	return defchange.KindOf(def.Kind)
}

// planner holds one removal being planned.
type planner struct {
	ix *definitions.Index
	b  *change.Builder
	// gone holds, per file, the spans whose text the removal drops (or
	// rewrites): places inside them are handled, not left.
	gone map[string][]definitions.Span
}

func newPlanner(ix *definitions.Index) *planner {
	return &planner{ix: ix, b: change.NewBuilder(), gone: map[string][]definitions.Span{}}
}

// finish builds the set.
func (p *planner) finish(target string, kind defchange.Kind) (*change.Set, error) {
	s, err := p.b.Set()
	if err != nil {
		return nil, fmt.Errorf("remove %s: %w", target, err)
	}
	s.Action, s.Kind, s.Target = change.ActionRemove, kind, target
	return s, nil
}

// src returns the indexed text of a file.
func (p *planner) src(filePath string) []byte {
	if f := p.ix.File(filePath); f != nil {
		return f.Src
	}
	return nil
}

// drop records that a span of a file goes (or is rewritten).
func (p *planner) drop(filePath string, span definitions.Span) {
	p.gone[filePath] = append(p.gone[filePath], span)
}

// handled reports whether a place stands in a deleted file or in text the
// removal drops or rewrites.
func (p *planner) handled(filePath string, span definitions.Span) bool {
	if p.b.Deleted(filePath) {
		return true
	}
	for _, g := range p.gone[filePath] {
		if span.Start >= g.Start && span.End <= g.End {
			return true
		}
	}
	return false
}

// leave lists the plain places and code sites of target that the removal
// does not take away: those outside deleted files and dropped text, but
// for the `removed` entries that name it, which state the removal.
func (p *planner) leave(target string) {
	for _, pl := range p.ix.Places(target) {
		if p.handled(pl.Path, pl.Span) || pl.Kind == definitions.PlaceTestDataFile || pl.Kind == definitions.PlaceRemoved {
			continue // a `removed` that names it states the removal: it is meant to
		}
		p.b.Leave(pl.Path, p.src(pl.Path), change.SpanOf(pl.Span), string(pl.Kind), string(definitions.Likely))
	}
	for _, cs := range p.ix.CodeSites(target) {
		if p.handled(cs.Path, cs.Span) {
			continue
		}
		p.b.Leave(cs.Path, p.src(cs.Path), change.SpanOf(cs.Span), string(cs.Why), string(cs.Mark))
	}
}

// leaveImporters lists the imports and re-exports of other files that name
// a deleted file as their module, except those of its definitions, which
// leave() lists by name.
func (p *planner) leaveImporters(gone *definitions.File) {
	defined := map[string]bool{}
	for _, d := range gone.Definitions {
		defined[d.Name] = true
	}
	for _, f := range p.ix.Files() {
		if f.Path == gone.Path || p.b.Deleted(f.Path) {
			continue
		}
		for _, imp := range f.Imports {
			if !defined[imp.Imported] && p.ix.ResolveImport(f.Path, imp.Module) == gone.Path {
				p.b.Leave(f.Path, f.Src, change.SpanOf(imp.ModuleSpan), string(definitions.PlaceImport), string(definitions.Likely))
			}
		}
		for _, ex := range f.Exports {
			if ex.Module != "" && !defined[ex.Local] && p.ix.ResolveImport(f.Path, ex.Module) == gone.Path {
				p.b.Leave(f.Path, f.Src, change.SpanOf(ex.LocalSpan), string(definitions.PlaceExport), string(definitions.Likely))
			}
		}
	}
}

// testDataPath is where a table's test data stands.
func testDataPath(table string) string { return path.Join("testdata", table+".json") }

// newNames returns names (in order, once each) that list does not hold.
func newNames(list []definitions.NameRef, names ...string) []string {
	var out []string
	for _, n := range names {
		if !slices.ContainsFunc(list, func(r definitions.NameRef) bool { return r.Name == n }) && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// refNames returns the names of refs.
func refNames(refs []definitions.NameRef) []string {
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = r.Name
	}
	return out
}

// stated marks edits as stating the removal.
func stated(edits []change.Edit) []change.Edit {
	for i := range edits {
		edits[i].Stated = true
	}
	return edits
}

// unreadable refuses a removal that cannot be stated because a declarative
// part is not plain (T2010).
func unreadable(target, what string) *diag.ToolError {
	return diag.Errorf(diag.T2010, "cannot remove %s: %s is not written plainly, so the removal cannot be stated there; write it as a literal first", target, what).With("name", target)
}
