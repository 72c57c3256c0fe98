package check

import (
	"fmt"

	"github.com/tent-tools/tent-tools/diag"
)

// wasClashes reports T2007: a was name that the migration could not follow
// safely. For a column: its own name, the name of another live column of
// the table (or id), or a was name of an earlier column of the table. For a
// table: its own name, the name of another definition, or a was name of an
// earlier table. The tables' was names are joined across files here
// (wasClashes); the columns', which stay within their table, file by file
// (columnWasClashes).
func wasClashes(p *pass) []diag.Finding {
	var out []diag.Finding
	tableWas := map[string]string{} // was name -> table that claims it
	for _, d := range p.defs {
		if d.Table == nil {
			continue
		}
		for _, w := range d.Table.Was {
			var msg string
			switch other := p.firstOf(w.Name); {
			case w.Name == d.Name:
				msg = fmt.Sprintf("table %s lists its own name in was", d.Name)
			case other != nil && other != d:
				msg = fmt.Sprintf("was name %s of table %s is the name of the %s %s", w.Name, d.Name, other.Kind, w.Name)
			case tableWas[w.Name] != "" && tableWas[w.Name] != d.Name:
				msg = fmt.Sprintf("was name %s of table %s is also a was name of table %s", w.Name, d.Name, tableWas[w.Name])
			default:
				tableWas[w.Name] = d.Name
				continue
			}
			out = append(out, p.on(d, diag.T2007, diag.Error, msg, w.Span))
		}

	}
	return out
}

// columnWasClashes reports T2007 for the columns of the tables of one
// file: their was names need nothing outside their own table.
func columnWasClashes(p *pass) []diag.Finding {
	var out []diag.Finding
	for _, d := range p.defs {
		if d.Table == nil {
			continue
		}
		columnWas := map[string]string{} // was name -> column that claims it
		for _, c := range d.Table.Columns {
			name := c.Schema.Name
			for _, w := range c.Was {
				var msg string
				switch {
				case w.Name == name:
					msg = fmt.Sprintf("%s.%s lists its own name in was", d.Name, name)
				case w.Name == "id" || d.Table.Column(w.Name) != nil:
					msg = fmt.Sprintf("was name %s of %s.%s is the name of another column of %s", w.Name, d.Name, name, d.Name)
				case columnWas[w.Name] != "" && columnWas[w.Name] != name:
					msg = fmt.Sprintf("was name %s of %s.%s is also a was name of %s.%s", w.Name, d.Name, name, d.Name, columnWas[w.Name])
				default:
					columnWas[w.Name] = name
					continue
				}
				out = append(out, p.on(d, diag.T2007, diag.Error, msg, w.Span))
			}
		}
	}
	return out
}
