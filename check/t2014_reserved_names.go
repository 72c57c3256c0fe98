package check

import (
	"fmt"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/schema"
)

// reservedNames reports T2014 file by file: a table or a column whose
// name SQLite or tent-tools keep for themselves (schema.ReservedName).
// Such a table cannot be made in the test database (sqlite_*), or would
// be taken for one of its own (_tent_*).
func reservedNames(p *pass) []diag.Finding {
	var out []diag.Finding
	for _, d := range p.defs {
		if d.Table == nil {
			continue
		}
		if prefix, ok := schema.ReservedName(d.Name); ok {
			out = append(out, p.on(d, diag.T2014, diag.Error,
				fmt.Sprintf("table %s: %s; rename the table", d.Name, schema.ReservedWhy(prefix)), d.NameSpan))
		}
		for _, c := range d.Table.Columns {
			if c.Schema == nil || c.Prop == nil {
				continue
			}
			if prefix, ok := schema.ReservedName(c.Schema.Name); ok {
				out = append(out, p.on(d, diag.T2014, diag.Error,
					fmt.Sprintf("%s.%s: %s; rename the column", d.Name, c.Schema.Name, schema.ReservedWhy(prefix)), c.Prop.KeySpan))
			}
		}
	}
	return out
}
