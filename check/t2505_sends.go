package check

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
)

// sendKinds are the ways a function may send data out of the app.
var sendKinds = []string{"http", "mail"}

// sendsMismatch reports T2505, a warning: a function's declared sends
// against what its body does (ctx.mail, ctx.http), directly or through the
// functions it calls and the helpers it imports, as the index infers it.
// An undeclared way gets one finding per function, with a fix that declares
// it; a declared way the function never uses (or that is no way at all)
// gets one at its name in sends.
func sendsMismatch(p *pass) []diag.Finding {
	var out []diag.Finding
	for _, d := range p.defs {
		if _, isFirst := p.firstIs(d); d.Fn == nil || !isFirst {
			continue
		}
		inferred := p.sends(d.Name)
		declared := map[string]bool{}
		for _, r := range d.Fn.Sends {
			declared[r.Name] = true
			switch {
			case !slices.Contains(sendKinds, r.Name):
				out = append(out, p.on(d, diag.T2505, diag.Warning,
					fmt.Sprintf("%s declares sends '%s': the ways to send are 'mail' and 'http'", d.Name, r.Name), r.Span))
			case !slices.Contains(inferred, r.Name):
				out = append(out, p.on(d, diag.T2505, diag.Warning,
					fmt.Sprintf("%s declares sends '%s' but never uses ctx.%s, nor calls a function that does", d.Name, r.Name, r.Name), r.Span))
			}
		}
		var missing []string
		for _, k := range inferred {
			if !declared[k] {
				missing = append(missing, k)
			}
		}
		if len(missing) == 0 {
			continue
		}
		span := d.NameSpan
		if d.Fn.SendsProp != nil {
			span = d.Fn.SendsProp.KeySpan
		}
		var whys []string
		for _, k := range missing {
			whys = append(whys, fmt.Sprintf("%s (%s)", k, p.sendsWhy(d, k)))
		}
		f := p.on(d, diag.T2505, diag.Warning,
			fmt.Sprintf("%s sends %s but does not declare it in sends", d.Name, strings.Join(whys, " and ")), span)
		f.Fix = p.declareSends(d, missing)
		out = append(out, f)
	}
	return out
}

// sendsWhy says how a function sends kind: its own body, a function it
// calls, or a helper it imports.
func (p *pass) sendsWhy(d *definitions.Definition, kind string) string {
	if file := p.ix.File(d.Path); file != nil {
		for _, s := range file.Uses.Sends {
			if s.Def == d.Name && s.Kind == kind {
				return "it uses ctx." + kind
			}
		}
	}
	for _, callee := range p.calls(d.Name) {
		if callee == d.Name {
			continue
		}
		if slices.Contains(p.sends(callee), kind) {
			return "it calls " + callee + ", which does"
		}
	}
	return "through a helper it imports"
}

// declareSends is the fix that declares the missing ways: it writes the
// whole sends array anew where there is one, and otherwise adds a sends
// field before run (or before the first field).
func (p *pass) declareSends(d *definitions.Definition, missing []string) *diag.Fix {
	file := p.ix.File(d.Path)
	if file == nil || d.Arg == nil || d.Arg.Kind != definitions.ValObject {
		return nil
	}
	var kinds []string
	for _, r := range d.Fn.Sends {
		kinds = append(kinds, r.Name)
	}
	kinds = append(kinds, missing...)
	slices.Sort(kinds)
	kinds = slices.Compact(kinds)
	quoted := make([]string, len(kinds))
	for i, k := range kinds {
		quoted[i] = "'" + k + "'"
	}
	list := "[" + strings.Join(quoted, ", ") + "]"
	title := "Declare sends: " + list

	if sp := d.Fn.SendsProp; sp != nil {
		if sp.Value == nil || sp.Value.Kind != definitions.ValArray {
			return nil
		}
		return replace(title, d.Path, sp.Value.Span, list)
	}
	before := d.Fn.Run
	if before == nil && len(d.Arg.Props) > 0 {
		before = d.Arg.Props[0]
	}
	if before == nil {
		return nil
	}
	at := before.Span.Start
	lineStart := at
	for lineStart > 0 && file.Src[lineStart-1] != '\n' {
		lineStart--
	}
	text := "sends: " + list + ", "
	if indent := string(file.Src[lineStart:at]); strings.TrimSpace(indent) == "" {
		text = "sends: " + list + ",\n" + indent
	}
	return replace(title, d.Path, definitions.Span{Start: at, End: at}, text)
}
