package check

import (
	"fmt"

	"github.com/tent-tools/tent-tools/diag"
)

// duplicateTestDataIDs reports T2605: a row whose id an earlier row of the
// same file has. The finding stands at the later id's value.
//
// It is linear in the rows: the first row of each id is kept by its
// offset, and turned into a line only for a finding (a line and column of
// a file of one long line costs its length).
func duplicateTestDataIDs(p *pass) []diag.Finding {
	var out []diag.Finding
	for _, td := range p.testDataFiles() {
		first := map[string]int{} // id -> offset of the first row
		for _, r := range td.file.TestData.Rows {
			k := key(r, "id")
			if r.ID == "" || k == nil {
				continue
			}
			if at, dup := first[r.ID]; dup {
				line, _ := td.file.Pos(at)
				out = append(out, td.finding(diag.T2605,
					fmt.Sprintf("%s row %s: the id is already used by the row on line %d", td.def.Name, r.ID, line), k.ValueSpan))
				continue
			}
			first[r.ID] = r.Span.Start
		}
	}
	return out
}
