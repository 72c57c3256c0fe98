package check

import (
	"fmt"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
)

// duplicateNames reports T2001: a definition whose name an earlier one (by
// path order) already has, a column (or input field) whose key an earlier
// one of the same definition has, and a declared column named id.
func duplicateNames(p *pass) []diag.Finding {
	var out []diag.Finding
	for _, d := range p.defs {
		if first, isFirst := p.firstIs(d); !isFirst {
			out = append(out, p.on(d, diag.T2001, diag.Error,
				fmt.Sprintf("%s is already defined in %s (%s)", d.Name, where(p, first, first.NameSpan), first.Kind), d.NameSpan))
		}
		cols := columnsOf(d)
		var seen map[string]*definitions.Column // for a definition of many columns
		if len(cols) > manyColumns {
			seen = map[string]*definitions.Column{}
		}
		for i, c := range cols {
			name := c.Schema.Name
			key := c.Prop.KeySpan
			switch earlier := earlierColumn(cols[:i], seen, name); {
			case d.Table != nil && name == "id":
				out = append(out, p.on(d, diag.T2001, diag.Error,
					fmt.Sprintf("%s.id is the implicit id of every table and cannot be declared", d.Name), key))
			case earlier != nil:
				out = append(out, p.on(d, diag.T2001, diag.Error,
					fmt.Sprintf("%s.%s is declared twice (first at %s)", d.Name, name, where(p, d, earlier.Prop.KeySpan)), key))
			case seen != nil:
				seen[name] = c
			}
		}
	}
	return out
}

// manyColumns is the count of columns past which duplicateNames finds a
// column's earlier namesake by a map, not by looking at each before it.
const manyColumns = 16

// earlierColumn returns the first of before (the columns before one named
// name) that has that name, or nil: from seen, the first of each name
// before, where it is not nil.
func earlierColumn(before []*definitions.Column, seen map[string]*definitions.Column, name string) *definitions.Column {
	if seen != nil {
		return seen[name]
	}
	for _, c := range before {
		if c.Schema.Name == name {
			return c
		}
	}
	return nil
}

// where names a position as path:line:col.
func where(p *pass, d *definitions.Definition, span definitions.Span) string {
	if f := p.ix.File(d.Path); f != nil {
		line, col := f.Pos(span.Start)
		return fmt.Sprintf("%s:%d:%d", d.Path, line, col)
	}
	return d.Path
}
