package check

import (
	"fmt"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
)

// unknownSteps reports T2005: a flow step that names no function.
func unknownSteps(p *pass) []diag.Finding {
	var out []diag.Finding
	for _, d := range p.defs {
		if d.Flow == nil {
			continue
		}
		for _, r := range d.Flow.Steps {
			k := p.kindOf(r.Name)
			if k == definitions.KindFn {
				continue
			}
			msg := fmt.Sprintf("step %s of %s names no function", r.Name, d.Name)
			if k != "" {
				msg = fmt.Sprintf("step %s of %s names a %s, not a function", r.Name, d.Name, k)
			}
			f := p.on(d, diag.T2005, diag.Error, msg, r.Span)
			if s := suggestIn(r.Name, p.nameList(definitions.KindFn)); s != "" {
				f.Message += "; did you mean " + s + "?"
				f.Fix = replace("Step "+s, d.Path, r.Span, s)
			}
			out = append(out, f)
		}
	}
	return out
}
