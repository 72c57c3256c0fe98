package check

import (
	"fmt"

	"github.com/tent-tools/tent-tools/diag"
)

// unknownDBTables reports T2501: ctx.db.X in code where X is no table.
func unknownDBTables(p *pass) []diag.Finding {
	var out []diag.Finding
	for _, file := range p.files {
		for _, u := range file.Uses.DB {
			if p.isTable(u.Table) {
				continue
			}
			f := p.at(file.Path, u.Def, diag.T2501, diag.Error, fmt.Sprintf("ctx.db.%s names no table", u.Table), u.TableSpan)
			if to, hint := p.tableFor(u.Table); to != "" {
				f.Message += hint
				f.Fix = replace("Use ctx.db."+to, file.Path, u.TableSpan, to)
			}
			out = append(out, f)
		}
	}
	return out
}
