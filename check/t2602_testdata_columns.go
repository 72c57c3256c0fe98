package check

import (
	"fmt"

	"github.com/tent-tools/tent-tools/diag"
)

// unknownTestDataColumns reports T2602: a row key that is no column of the
// table (nor id). A key that a column's was lists is still unknown (the test
// data is read by the current names); the hint names the column, and the
// fix renames the key where the row lacks the new one.
func unknownTestDataColumns(p *pass) []diag.Finding {
	var out []diag.Finding
	for _, td := range p.testDataFiles() {
		for i, r := range td.file.TestData.Rows {
			for _, k := range r.Keys {
				name := k.Name.Name
				if name == "id" || td.table.Column(name) != nil {
					continue
				}
				f := td.finding(diag.T2602, fmt.Sprintf("%s: %s has no column %s", td.rowName(i, r), td.def.Name, name), k.Name.Lit)
				to, hint := columnFor(td.table, name)
				f.Message += hint
				if to != "" && key(r, to) == nil {
					f.Fix = replace("Rename the key to "+to, td.file.Path, k.Name.Span, to)
				}
				out = append(out, f)
			}
		}
	}
	return out
}
