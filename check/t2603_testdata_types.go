package check

import (
	"fmt"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/schema"
)

// wrongTestDataTypes reports T2603: a value that does not fit its column
// (schema.CheckValue), and an id that is not a string.
func wrongTestDataTypes(p *pass) []diag.Finding {
	var out []diag.Finding
	for _, td := range p.testDataFiles() {
		for i, r := range td.file.TestData.Rows {
			for _, k := range r.Keys {
				if k.Name.Name == "id" {
					if _, ok := k.Value.(string); !ok {
						out = append(out, td.finding(diag.T2603, fmt.Sprintf("%s: id wants a string", td.rowName(i, r)), k.ValueSpan))
					}
					continue
				}
				c := td.table.Column(k.Name.Name)
				if c == nil {
					continue
				}
				if err := schema.CheckValue(c.Schema, k.Value); err != nil {
					out = append(out, td.finding(diag.T2603, fmt.Sprintf("%s: %v", td.rowName(i, r), err), k.ValueSpan))
				}
			}
		}
	}
	return out
}
