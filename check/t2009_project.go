package check

import (
	"fmt"
	"strings"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
)

// badProjectOrEngine reports T2009: project.ts missing, without its
// project({...}), without a name, with an unknown field or a users that
// names no table; engine.ts without its engine({...}), or with a field that
// is not what engine.ts allows.
func badProjectOrEngine(p *pass) []diag.Finding {
	out := checkProject(p)
	return append(out, checkEngine(p)...)
}

func checkProject(p *pass) []diag.Finding {
	const path = "project.ts"
	file := p.ix.File(path)
	proj := p.projectDef()
	switch {
	case file == nil:
		return []diag.Finding{p.at(path, "", diag.T2009, diag.Error,
			"project.ts is missing: a project needs export default project({ name: '...' })", definitions.Span{})}
	case proj == nil || proj.Project == nil || proj.Arg == nil || proj.Arg.Kind != definitions.ValObject:
		return []diag.Finding{p.at(path, "", diag.T2009, diag.Error,
			"project.ts has no export default project({ name: '...' })", firstLine(file))}
	}
	var out []diag.Finding
	bad := func(msg string, span definitions.Span) {
		out = append(out, p.at(path, "", diag.T2009, diag.Error, msg, span))
	}
	var named bool
	for _, prop := range proj.Arg.Props {
		switch prop.Key {
		case "name":
			named = true
			if prop.Value == nil || prop.Value.Kind != definitions.ValString || strings.TrimSpace(prop.Value.Str) == "" {
				bad("project name must be a non-empty string", prop.Span)
			}
		case "users":
			if prop.Value == nil || prop.Value.Kind != definitions.ValString {
				bad("project users must be the name of a table, as a string", prop.Span)
			}
		case "removed":
			if prop.Value == nil || prop.Value.Kind != definitions.ValArray {
				bad("project removed must be an array of table names", prop.Span)
			}
		default:
			bad(fmt.Sprintf("project has no field %s (it has name, users, removed)%s", prop.Key, didYouMean(prop.Key, []string{"name", "users", "removed"})), prop.KeySpan)
		}
	}
	if !named {
		bad("project needs a name: project({ name: '...' })", proj.Arg.Span)
	}
	if u := proj.Project.Users; proj.Project.UsersProp != nil && u.Name != "" && p.table(u.Name) == nil {
		f := p.at(path, "", diag.T2009, diag.Error, fmt.Sprintf("project users names no table %s", u.Name), u.Span)
		if to, hint := p.tableFor(u.Name); to != "" {
			f.Message += hint
			f.Fix = replace("Use table "+to, path, u.Span, to)
		}
		out = append(out, f)
	}
	return out
}

func checkEngine(p *pass) []diag.Finding {
	const path = "engine.ts"
	file := p.ix.File(path)
	if file == nil {
		return nil
	}
	eng := p.engineDef()
	if eng == nil || eng.Arg == nil || eng.Arg.Kind != definitions.ValObject {
		return []diag.Finding{p.at(path, "", diag.T2009, diag.Error,
			"engine.ts has no export default engine({...})", firstLine(file))}
	}
	var out []diag.Finding
	bad := func(msg string, span definitions.Span) {
		out = append(out, p.at(path, "", diag.T2009, diag.Error, msg, span))
	}
	for _, prop := range eng.Arg.Props {
		switch prop.Key {
		case "mail":
			from := field(prop.Value, "from")
			switch {
			case prop.Value == nil || prop.Value.Kind != definitions.ValObject:
				bad("engine mail must be an object: mail: { from: 'app@example.com' }", prop.Span)
			case from == nil:
				bad("engine mail needs from: an address to send from", prop.Span)
			case from.Kind != definitions.ValString || !strings.Contains(from.Str, "@"):
				bad("engine mail.from must be a mail address, as a string", from.Span)
			}
		case "http":
			allow := field(prop.Value, "allow")
			switch {
			case prop.Value == nil || prop.Value.Kind != definitions.ValObject:
				bad("engine http must be an object: http: { allow: ['api.example.com'] }", prop.Span)
			case allow == nil:
				bad("engine http needs allow: the hosts ctx.http may reach", prop.Span)
			case allow.Kind != definitions.ValArray:
				bad("engine http.allow must be an array of host names", allow.Span)
			default:
				for _, h := range allow.Items {
					if h.Kind != definitions.ValString || h.Str == "" || strings.ContainsAny(h.Str, "/ ") {
						bad("engine http.allow holds host names only, such as 'api.example.com' (no scheme or path)", h.Span)
					}
				}
			}
		default:
			bad(fmt.Sprintf("engine has no field %s (it has mail, http)", prop.Key), prop.KeySpan)
		}
	}
	return out
}

// field returns the value of key in an object literal, or nil.
func field(obj *definitions.Value, key string) *definitions.Value {
	if obj == nil || obj.Kind != definitions.ValObject {
		return nil
	}
	for _, prop := range obj.Props {
		if prop.Key == key {
			return prop.Value
		}
	}
	return nil
}

// firstLine is the span of a file's first line.
func firstLine(f *definitions.File) definitions.Span {
	end := len(f.Src)
	if lines := f.Lines(); len(lines) > 1 {
		end = lines[1] - 1
	}
	return definitions.Span{Start: 0, End: max(end, 0)}
}
