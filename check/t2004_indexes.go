package check

import (
	"fmt"

	"github.com/tent-tools/tent-tools/diag"
)

// unknownIndexColumns reports T2004: a name in a table's indexes that is
// none of its columns.
func unknownIndexColumns(p *pass) []diag.Finding {
	var out []diag.Finding
	for _, d := range p.defs {
		if d.Table == nil {
			continue
		}
		names := columnNames(d.Table)
		for _, index := range d.Table.Indexes {
			for _, r := range index {
				if d.Table.Column(r.Name) != nil || r.Name == "id" {
					continue
				}
				f := p.on(d, diag.T2004, diag.Error, fmt.Sprintf("index of %s names no column %s", d.Name, r.Name), r.Span)
				if s := suggest(r.Name, names); s != "" {
					f.Message += "; did you mean " + s + "?"
					f.Fix = replace("Index "+s, d.Path, r.Span, s)
				}
				out = append(out, f)
			}
		}
	}
	return out
}
