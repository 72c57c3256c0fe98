package check

import (
	"fmt"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
)

// unknownTestDataTables reports T2601: testdata/<x>.json where x is no
// table. The file name is the fault, so the finding stands at the file's
// start and its message names the file to rename it to, where one is likely.
func unknownTestDataTables(p *pass) []diag.Finding {
	var out []diag.Finding
	for _, f := range p.files {
		if f.TestData == nil || p.isTable(f.TestData.Table) {
			continue
		}
		name := f.TestData.Table
		msg := fmt.Sprintf("%s is test data for %s, which is no table", f.Path, name)
		if k := p.kindOf(name); k != "" {
			msg = fmt.Sprintf("%s is test data for %s, which is a %s, not a table", f.Path, name, k)
		}
		if to, hint := p.tableFor(name); to != "" {
			msg += fmt.Sprintf("%s (rename the file to testdata/%s.json)", hint, to)
		} else if p.projectRemoved(name) {
			msg += fmt.Sprintf("; table %s was removed (delete the file)", name)
		}
		out = append(out, f.Finding(diag.T2601, diag.Error, msg, definitions.Span{Start: 0, End: min(1, len(f.Src))}))
	}
	return out
}

// projectRemoved reports whether the project's removed names a table.
func (p *pass) projectRemoved(name string) bool {
	if proj := p.project(); proj != nil && proj.Project != nil {
		for _, r := range proj.Project.Removed {
			if r.Name == name {
				return true
			}
		}
	}
	return false
}
