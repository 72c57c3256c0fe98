package check

import (
	"fmt"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
)

// dbMethodsWithKeys are the ctx.db methods whose object literal names columns.
var dbMethodsWithKeys = map[string]bool{"insert": true, "update": true, "where": true}

// unknownDBKeys reports T2504: a key of the object literal given to
// ctx.db.T.insert, update or where that is no column of T (nor id). Unknown
// tables are T2501's; their keys are not checked.
func unknownDBKeys(p *pass) []diag.Finding {
	var out []diag.Finding
	for _, file := range p.files {
		for _, u := range file.Uses.DB {
			t := p.table(u.Table)
			if t == nil || !dbMethodsWithKeys[u.Method] {
				continue
			}
			for _, k := range u.Keys {
				if k.Name == "id" || t.Table.Column(k.Name) != nil {
					continue
				}
				f := p.at(file.Path, u.Def, diag.T2504, diag.Error,
					fmt.Sprintf("ctx.db.%s.%s: %s has no column %s", u.Table, u.Method, u.Table, k.Name), k.Span)
				to, hint := columnFor(t.Table, k.Name)
				f.Message += hint
				if to != "" {
					f.Fix = replace("Use column "+to, file.Path, k.Span, to)
				}
				out = append(out, f)
			}
		}
	}
	return out
}

// columnFor returns the column of t that a name which is none of its
// columns most likely means, with a hint for the message: the column whose
// was lists it, else the one column it misspells. A name in removed has no
// column, and the hint says so.
func columnFor(t *definitions.Table, name string) (column, hint string) {
	for _, c := range t.Columns {
		for _, w := range c.Schema.Was {
			if w == name {
				return c.Schema.Name, fmt.Sprintf("; column %s was renamed to %s", name, c.Schema.Name)
			}
		}
	}
	for _, r := range t.Removed {
		if r.Name == name {
			return "", fmt.Sprintf("; column %s was removed", name)
		}
	}
	if s := suggest(name, columnNames(t)); s != "" {
		return s, "; did you mean " + s + "?"
	}
	return "", ""
}
