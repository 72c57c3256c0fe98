package check

import (
	"fmt"
	"strconv"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
)

// unknownRowColumns reports T2506: code that names a column on a value the
// index proves to be a row of table T (definitions.RowSite: a result of
// ctx.db.T, an element of one, a may rule's row, a screen's loaded data, a
// helper's parameter that every call gives such a row, ctx.user, what
// ctx.call gives, an element of what map gives), where T has no
// such column (nor id). Where the name was renamed (a was of a column) or
// misspells exactly one column, the fix writes the column.
func unknownRowColumns(p *pass) []diag.Finding {
	var out []diag.Finding
	for _, file := range p.files {
		for _, s := range p.rowSites(file.Path) {
			t := p.table(s.Table)
			if t == nil || s.Column.Name == "id" || t.Table.Column(s.Column.Name) != nil {
				continue
			}
			f := p.at(file.Path, s.Def, diag.T2506, diag.Error, rowMessage(s), s.Column.Span)
			to, hint := columnFor(t.Table, s.Column.Name)
			f.Message += hint
			if to != "" {
				text := to
				if s.How == definitions.RowShorthand {
					// `{ buyer }` binds buyer too: keep the name bound.
					text = to + ": " + s.Column.Name
				}
				f.Fix = replace("Use column "+to, file.Path, s.Column.Span, text)
			}
			out = append(out, f)
		}
	}
	return out
}

// rowMessage says what names the column, and that the table lacks it.
func rowMessage(s definitions.RowSite) string {
	switch s.How {
	case definitions.RowOrder:
		return fmt.Sprintf("order: %s has no column %s", s.Table, s.Column.Name)
	case definitions.RowColumns:
		return fmt.Sprintf("columns of a Table of %s rows: %s has no column %s", s.Table, s.Table, s.Column.Name)
	case definitions.RowPatchKey:
		return fmt.Sprintf("an object passed to ctx.db.%s: %s has no column %s", s.Table, s.Table, s.Column.Name)
	}
	if s.From != "" {
		return fmt.Sprintf("a row of %s (from %s) has no column %s", s.Table, s.From, s.Column.Name)
	}
	return fmt.Sprintf("a row of %s has no column %s", s.Table, s.Column.Name)
}

// rowSites returns the row sites of the file at path; what the rule saw
// is the sites themselves, since another file's change (a caller of a
// helper) can make or unmake them.
func (p *pass) rowSites(path string) []definitions.RowSite {
	sites := p.ix.RowSites(path)
	if p.deps != nil {
		p.saw(dep{depRowSites, path}, rowSitesValue(sites))
	}
	return sites
}

// rowSitesValue hashes row sites for the incremental check.
func rowSitesValue(sites []definitions.RowSite) string {
	xs := make([]string, 0, len(sites))
	for _, s := range sites {
		xs = append(xs, s.Table+"."+s.Column.Name+"@"+strconv.Itoa(s.Column.Span.Start)+":"+strconv.Itoa(s.Column.Span.End)+":"+strconv.Itoa(int(s.How))+":"+s.Def+":"+s.From)
	}
	return hashStrings(xs)
}
