package check

import (
	"fmt"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
)

// testData is one test data file whose table exists, with that table.
type testData struct {
	file  *definitions.File
	def   *definitions.Definition
	table *definitions.Table
}

// testDataFiles returns the test data files of existing tables; files of
// unknown tables are T2601's and not checked further. They are found
// once per pass: each test data rule reads them.
func (p *pass) testDataFiles() []testData {
	if p.testData != nil {
		return *p.testData
	}
	var out []testData
	for _, f := range p.files {
		if f.TestData == nil {
			continue
		}
		if d := p.table(f.TestData.Table); d != nil && d.Table != nil {
			out = append(out, testData{file: f, def: d, table: d.Table})
		}
	}
	p.testData = &out
	return out
}

// refRows answers the ids of the test data rows of table ref, nil where
// no table is named ref, each looked up once per pass, not once per row
// (on 10,000 tables the test data is 100,000 rows).
func (p *pass) refRows(ref string) map[string]bool {
	if ids, ok := p.refs[ref]; ok {
		return ids
	}
	var ids map[string]bool
	if p.isTable(ref) {
		ids = p.rows(ref)
	}
	if p.refs == nil {
		p.refs = map[string]map[string]bool{}
	}
	p.refs[ref] = ids
	return ids
}

// finding makes a finding in the test data file, about its table.
func (td testData) finding(code, msg string, span definitions.Span) diag.Finding {
	f := td.file.Finding(code, diag.Error, msg, span)
	f.Definition = td.def.Name
	return f
}

// rowName names a row in messages: by its id, or by its place in the file.
func (td testData) rowName(i int, r definitions.Row) string {
	if r.ID != "" {
		return fmt.Sprintf("%s row %s", td.def.Name, r.ID)
	}
	return fmt.Sprintf("%s row %d", td.def.Name, i+1)
}

// key returns the row's key named name, or nil.
func key(r definitions.Row, name string) *definitions.RowKey {
	for i := range r.Keys {
		if r.Keys[i].Name.Name == name {
			return &r.Keys[i]
		}
	}
	return nil
}

// rowStart is the span of a row's opening brace.
func rowStart(r definitions.Row) definitions.Span {
	return definitions.Span{Start: r.Span.Start, End: r.Span.Start + 1}
}
