package check

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
)

// requiredFields are the fields each builder needs (docs/pages/format.md §2).
var requiredFields = map[definitions.Kind][]string{
	definitions.KindTable:  {"columns"},
	definitions.KindFn:     {"run"},
	definitions.KindFlow:   {"steps"},
	definitions.KindScreen: {"path", "view"},
}

// missingFields reports T2012: a table without columns, a fn without run,
// a flow without steps, a screen without path or view. A definition whose
// argument cannot be read whole (not an object, or with a spread, T2010)
// is left alone: the field may stand where the check cannot see.
func missingFields(p *pass) []diag.Finding {
	var out []diag.Finding
	for _, d := range p.defs {
		need := requiredFields[d.Kind]
		if len(need) == 0 || d.Arg == nil || d.Arg.Kind != definitions.ValObject {
			continue
		}
		has := map[string]bool{}
		spread := false
		for _, prop := range d.Arg.Props {
			has[prop.Key] = true
			spread = spread || prop.Key == ""
		}
		if spread {
			continue
		}
		var missing []string
		for _, f := range need {
			if !has[f] {
				missing = append(missing, f)
			}
		}
		if len(missing) == 0 {
			continue
		}
		them := "it"
		if len(missing) > 1 {
			them = "them"
		}
		out = append(out, p.on(d, diag.T2012, diag.Error,
			fmt.Sprintf("%s has no %s; a %s needs %s", d.Name, strings.Join(missing, " and no "), d.Builder, them),
			builderSpan(p, d)))
	}
	return out
}

// columnOptions are the options a column's builder takes (docs/pages/format.md §2.1).
var columnOptions = []string{"optional", "private", "default", "unique", "was"}

// unknownColumnOptions reports T2013: a column option no builder knows,
// which the framework would silently ignore (optinal: true leaves the
// column required). Where it misspells one option, the fix renames it.
func unknownColumnOptions(p *pass) []diag.Finding {
	var out []diag.Finding
	for _, d := range p.defs {
		for _, c := range columnsOf(d) {
			if c.Options == nil {
				continue
			}
			for _, o := range c.Options.Props {
				if o.Key == "" || slices.Contains(columnOptions, o.Key) {
					continue
				}
				msg := fmt.Sprintf("%s.%s: %s is no column option (they are %s)", d.Name, c.Schema.Name, o.Key, strings.Join(columnOptions, ", "))
				f := p.on(d, diag.T2013, diag.Error, "", o.KeySpan)
				if s := suggest(o.Key, columnOptions); s != "" {
					msg += "; did you mean " + s + "?"
					f.Fix = replace("Write "+s, d.Path, o.KeySpan, s)
				}
				f.Message = msg
				out = append(out, f)
			}
		}
	}
	return out
}
