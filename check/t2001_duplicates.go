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
		seen := map[string]*definitions.Column{}
		for _, c := range columnsOf(d) {
			name := c.Schema.Name
			key := c.Prop.KeySpan
			switch earlier := seen[name]; {
			case d.Table != nil && name == "id":
				out = append(out, p.on(d, diag.T2001, diag.Error,
					fmt.Sprintf("%s.id is the implicit id of every table and cannot be declared", d.Name), key))
			case earlier != nil:
				out = append(out, p.on(d, diag.T2001, diag.Error,
					fmt.Sprintf("%s.%s is declared twice (first at %s)", d.Name, name, where(p, d, earlier.Prop.KeySpan)), key))
			default:
				seen[name] = c
			}
		}
	}
	return out
}

// where names a position as path:line:col.
func where(p *pass, d *definitions.Definition, span definitions.Span) string {
	if f := p.ix.File(d.Path); f != nil {
		line, col := f.Pos(span.Start)
		return fmt.Sprintf("%s:%d:%d", d.Path, line, col)
	}
	return d.Path
}
