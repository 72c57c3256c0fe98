package check

import (
	"fmt"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/schema"
)

// unknownRefs reports T2003: ref('x') where x is no table. Where a table
// was once named x, or x misspells one table's name, the fix names it.
func unknownRefs(p *pass) []diag.Finding {
	var out []diag.Finding
	for _, d := range p.defs {
		for _, c := range columnsOf(d) {
			if c.Schema.Type != schema.Ref {
				continue
			}
			r := c.RefName
			if r == nil {
				if c.Call != nil {
					out = append(out, p.on(d, diag.T2003, diag.Error,
						fmt.Sprintf("%s.%s: ref() needs the name of a table, as a string", d.Name, c.Schema.Name), c.Call.Span))
				}
				continue
			}
			if p.isTable(r.Name) {
				continue
			}
			f := p.on(d, diag.T2003, diag.Error, "", r.Span)
			msg := fmt.Sprintf("%s.%s: ref('%s') names no table", d.Name, c.Schema.Name, r.Name)
			if k := p.kindOf(r.Name); k != "" {
				msg = fmt.Sprintf("%s.%s: ref('%s') names a %s, not a table", d.Name, c.Schema.Name, r.Name, k)
			}
			if to, hint := p.tableFor(r.Name); to != "" {
				msg += hint
				f.Fix = replace("Refer to "+to, d.Path, r.Span, to)
			}
			f.Message = msg
			out = append(out, f)
		}
	}
	return out
}

// tableFor returns the table that a name which is no table most likely
// means, with a hint for the message: a table whose was lists the name,
// else the one table whose name it misspells.
func (p *pass) tableFor(name string) (table, hint string) {
	p.record(dep{depTableWas, ""})
	// Only a name that some table's was names hold can be a renamed
	// table's (wasRefs counts them): most are none, and cost no walk of
	// every table.
	if p.wasRefs[name] > 0 {
		for _, t := range p.names(definitions.KindTable) {
			for _, w := range p.firstOf(t).Table.Was {
				if w.Name == name {
					return t, "; table " + name + " was renamed to " + t
				}
			}
		}
	}
	if s := suggestIn(name, p.nameList(definitions.KindTable)); s != "" {
		return s, "; did you mean " + s + "?"
	}
	return "", ""
}
