package check

import (
	"fmt"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
)

// unknownCalls reports T2502: ctx.call('X') where X is neither a function
// nor a flow (a flow is called like a function and answers its last step's
// result).
func unknownCalls(p *pass) []diag.Finding {
	var out []diag.Finding
	for _, file := range p.files {
		for _, u := range file.Uses.Calls {
			k := p.kindOf(u.Name.Name)
			if k == definitions.KindFn || k == definitions.KindFlow {
				continue
			}
			msg := fmt.Sprintf("ctx.call('%s') names no function", u.Name.Name)
			if k != "" {
				msg = fmt.Sprintf("ctx.call('%s') names a %s, not a function", u.Name.Name, k)
			}
			f := p.at(file.Path, u.Def, diag.T2502, diag.Error, msg, u.Name.Span)
			if s := suggestIn(u.Name.Name, p.nameList(definitions.KindFn), p.nameList(definitions.KindFlow)); s != "" {
				f.Message += "; did you mean " + s + "?"
				f.Fix = replace("Call "+s, file.Path, u.Name.Span, s)
			}
			out = append(out, f)
		}
	}
	return out
}
