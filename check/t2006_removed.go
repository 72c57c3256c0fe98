package check

import (
	"fmt"

	"github.com/tent-tools/tent-tools/diag"
)

// definedAndRemoved reports T2006 file by file: a table's removed naming
// one of its live columns (or id, which cannot be removed).
func definedAndRemoved(p *pass) []diag.Finding {
	var out []diag.Finding
	for _, d := range p.defs {
		if d.Table == nil {
			continue
		}
		for _, r := range d.Table.Removed {
			switch {
			case r.Name == "id":
				out = append(out, p.on(d, diag.T2006, diag.Error,
					fmt.Sprintf("%s.id is the implicit id of every table and cannot be removed", d.Name), r.Span))
			case d.Table.Column(r.Name) != nil:
				out = append(out, p.on(d, diag.T2006, diag.Error,
					fmt.Sprintf("%s.%s is both a column and in removed", d.Name, r.Name), r.Span))
			}
		}
	}
	return out
}

// removedTables reports T2006 over the joined files: the project's removed
// naming a live table.
func removedTables(p *pass) []diag.Finding {
	var out []diag.Finding
	if proj := p.projectDef(); proj != nil && proj.Project != nil {
		for _, r := range proj.Project.Removed {
			if t := p.table(r.Name); t != nil {
				out = append(out, p.at(proj.Path, "", diag.T2006, diag.Error,
					fmt.Sprintf("table %s is both defined (%s) and in the project's removed", r.Name, where(p, t, t.NameSpan)), r.Span))
			}
		}
	}
	return out
}
