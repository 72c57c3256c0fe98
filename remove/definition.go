package remove

import (
	"strings"

	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
)

// definition plans the removal of a table, function, flow or screen: its
// statement goes (with its doc comment), or its whole file where nothing
// else is left in it; a table is stated in project.ts's `removed` and its
// test data deleted.
func (p *planner) definition(def *definitions.Definition) *diag.ToolError {
	f := p.ix.File(def.Path)
	if alone(f, def) {
		p.b.Delete(def.Path)
	} else {
		p.b.Edit(def.Path, f.Src, change.RemoveStatement(f.Src, change.SpanOf(def.Stmt)))
		p.drop(def.Path, def.Stmt)
	}
	if def.Table != nil {
		return p.stateTables([]*definitions.Definition{def})
	}
	return nil
}

// stateTables appends each table's name and `was` names to project.ts's
// `removed` (made at the end of project({...}) where there is none), and
// deletes their test data.
func (p *planner) stateTables(tables []*definitions.Definition) *diag.ToolError {
	pr := p.ix.Project()
	var all []string
	for _, t := range tables {
		all = append(all, t.Name)
		all = append(all, refNames(t.Table.Was)...)
		if td := testDataPath(t.Name); p.ix.File(td) != nil {
			p.b.Delete(td)
		}
	}
	if pr == nil || pr.Project == nil || pr.Arg == nil || pr.Arg.Kind != definitions.ValObject {
		return diag.Errorf(diag.T9103, "cannot remove table %s: project.ts has no project({...}) to state the removal in", tables[0].Name).With("name", tables[0].Name)
	}
	names := newNames(pr.Project.Removed, all...)
	if len(names) == 0 {
		return nil
	}
	src := p.src(pr.Path)
	st := change.StyleOf(src, pr)
	if rp := pr.Project.RemovedProp; rp != nil {
		v, ok := change.NameValueOf(rp.Value)
		if !ok {
			return unreadable(tables[0].Name, "project.ts's `removed`")
		}
		p.b.Edit(pr.Path, src, stated(change.AppendNames(src, v, names, st))...)
		return nil
	}
	p.b.Edit(pr.Path, src, stated(change.ListOf(pr.Arg).Append(src, []string{"removed: " + change.ArrayText(src, names, st)}, st))...)
	return nil
}

// alone reports whether a definition is all its file holds: besides its
// statement only comments and imports from 'tent' and 'tent/ui'.
func alone(f *definitions.File, def *definitions.Definition) bool {
	t := f.SyntaxTree()
	if t == nil {
		return false
	}
	defer t.Close()
	root := t.RootNode()
	for i := 0; i < int(root.NamedChildCount()); i++ {
		n := root.NamedChild(i)
		start, end := int(n.StartByte()), int(n.EndByte())
		switch {
		case n.Type() == "comment" || n.Type() == "empty_statement":
		case start < def.Stmt.End && end > def.Stmt.Start:
		case n.Type() == "import_statement":
			src := n.ChildByFieldName("source")
			if src == nil {
				return false
			}
			if m := strings.Trim(src.Content(f.Src), `'"`); m != "tent" && m != "tent/ui" {
				return false
			}
		default:
			return false
		}
	}
	return true
}
