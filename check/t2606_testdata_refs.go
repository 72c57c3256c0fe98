package check

import (
	"fmt"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/schema"
)

// missingTestDataRows reports T2606: a ref value that is the id of no row
// in the test data of the table it refers to. Refs to unknown tables are
// T2003's, and values that are no string T2603's.
func missingTestDataRows(p *pass) []diag.Finding {
	var out []diag.Finding
	for _, td := range p.testDataFiles() {
		for i, r := range td.file.TestData.Rows {
			for _, k := range r.Keys {
				c := td.table.Column(k.Name.Name)
				if c == nil || c.Schema.Type != schema.Ref {
					continue
				}
				ids := p.refRows(c.Schema.Ref)
				if ids == nil {
					continue
				}
				id, ok := k.Value.(string)
				if !ok || ids[id] {
					continue
				}
				out = append(out, td.finding(diag.T2606,
					fmt.Sprintf("%s: %s refers to %s row %s, which the test data of %s does not have", td.rowName(i, r), c.Schema.Name, c.Schema.Ref, id, c.Schema.Ref),
					k.ValueSpan))
			}
		}
	}
	return out
}
