package check

import (
	"fmt"

	"github.com/tent-tools/tent-tools/diag"
)

// missingTestDataColumns reports T2604: a row without an id, or without a
// column that is neither optional nor has a default. The finding stands at
// the row's opening brace.
func missingTestDataColumns(p *pass) []diag.Finding {
	var out []diag.Finding
	for _, td := range p.testDataFiles() {
		for i, r := range td.file.TestData.Rows {
			if key(r, "id") == nil {
				out = append(out, td.finding(diag.T2604, fmt.Sprintf("%s has no id", td.rowName(i, r)), rowStart(r)))
			}
			for _, c := range td.table.Columns {
				s := c.Schema
				if s.Optional || s.Default != nil || key(r, s.Name) != nil {
					continue
				}
				out = append(out, td.finding(diag.T2604,
					fmt.Sprintf("%s lacks %s (%s, required)", td.rowName(i, r), s.Name, s.Type), rowStart(r)))
			}
		}
	}
	return out
}
