package definitions

import (
	"slices"
	"sort"
	"strings"
)

// This file answers which functions a definition calls and how it sends
// data out of the app (docs/pages/format.md §2.2): declared in `sends`, and inferred
// from the code: ctx.mail and ctx.http in its own body, in the functions
// it ctx.call's, in a flow's steps, and in the helpers its code calls
// (lib/, or top-level functions of its own file), transitively.

// Calls returns the functions that definition name calls through
// ctx.call('...'), sorted and unique.
func (ix *Index) Calls(name string) []string { return ix.code().calls(name) }

// Sends returns the ways definition name sends data out of the app:
// declared (a fn's `sends`) and inferred from its code, transitively
// through ctx.call, a flow's steps and the helpers it calls. Each list is
// sorted and unique.
func (ix *Index) Sends(name string) (declared, inferred []string) { return ix.code().sends(name) }

// calls returns the sorted, unique ctx.call targets of definition name.
func (ci *codeIndex) calls(name string) []string {
	d := ci.def(name)
	if d == nil {
		return nil
	}
	f := ci.file(d.Path)
	if f == nil {
		return nil
	}
	var out []string
	for _, c := range f.Uses.Calls {
		if c.Def == name && c.Name.Name != "" {
			out = append(out, c.Name.Name)
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// sends returns the send kinds that definition name declares and those
// its code needs, each sorted and unique. A callee counts as sending what
// it declares as well as what it needs: format.md counts both as sending.
func (ci *codeIndex) sends(name string) (declared, inferred []string) {
	d := ci.def(name)
	if d == nil {
		return nil, nil
	}
	declared = declaredSends(d)
	s := &sendSearch{ci: ci, seen: map[string]bool{}, kinds: map[string]bool{}}
	s.definition(d, true)
	for k := range s.kinds {
		inferred = append(inferred, k)
	}
	sort.Strings(inferred)
	return declared, inferred
}

func declaredSends(d *Definition) []string {
	if d.Fn == nil {
		return nil
	}
	var out []string
	for _, s := range d.Fn.Sends {
		out = append(out, s.Name)
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// sendSearch walks what a definition's code reaches; seen keeps a cycle
// of calls from looping.
type sendSearch struct {
	ci    *codeIndex
	seen  map[string]bool
	kinds map[string]bool
}

// definition adds what d sends: the root of the search counts only what
// its code needs; a callee counts its declared sends too.
func (s *sendSearch) definition(d *Definition, root bool) {
	if s.seen["def "+d.Name] {
		return
	}
	s.seen["def "+d.Name] = true
	if !root {
		for _, k := range declaredSends(d) {
			s.kinds[k] = true
		}
	}
	if d.Flow != nil {
		for _, step := range d.Flow.Steps {
			if sd := s.ci.def(step.Name); sd != nil {
				s.definition(sd, false)
			}
		}
		return
	}
	f := s.ci.file(d.Path)
	if f == nil {
		return
	}
	for _, u := range f.Uses.Sends {
		if u.Def == d.Name {
			s.kinds[u.Kind] = true
		}
	}
	for _, c := range f.Uses.Calls {
		if c.Def == d.Name {
			if cd := s.ci.def(c.Name.Name); cd != nil {
				s.definition(cd, false)
			}
		}
	}
	for _, b := range f.Uses.LibCalls[d.Name] {
		s.binding(f, b)
	}
}

// binding adds what the function that binding ("module#name", or "#name"
// for a top-level function of f) names sends.
func (s *sendSearch) binding(f *File, binding string) {
	module, name, ok := strings.Cut(binding, "#")
	if !ok {
		return
	}
	if module == "" {
		s.function(f, name, 0)
		return
	}
	if p := s.ci.resolve(f.Path, module); p != "" {
		if g := s.ci.file(p); g != nil {
			s.exported(g, name, 0)
		}
	}
}

// maxReexports bounds how many `export ... from` links a name is followed
// through, whatever cycles the project holds.
const maxReexports = 32

// exported adds what the function that file g exports as name sends,
// following g's re-exports.
func (s *sendSearch) exported(g *File, name string, depth int) {
	if depth > maxReexports || s.seen["exp "+g.Path+"#"+name] {
		return
	}
	s.seen["exp "+g.Path+"#"+name] = true
	s.function(g, name, depth)
	for _, e := range g.Exports {
		if e.Exported != name && !(e.Exported == "*" && e.Local == "*") {
			continue
		}
		local := e.Local
		if e.Local == "*" {
			local = name
		}
		if e.Module == "" {
			s.function(g, local, depth)
			continue
		}
		if p := s.ci.resolve(g.Path, e.Module); p != "" {
			if h := s.ci.file(p); h != nil {
				s.exported(h, local, depth+1)
			}
		}
	}
}

// function adds what top-level function name of g sends: its own uses of
// ctx.mail and ctx.http, and the helpers it calls.
func (s *sendSearch) function(g *File, name string, depth int) {
	if s.seen["fn "+g.Path+"#"+name] {
		return
	}
	s.seen["fn "+g.Path+"#"+name] = true
	for _, k := range g.Uses.SendsOf[name] {
		s.kinds[k] = true
	}
	for _, b := range g.Uses.LibCalls[name] {
		s.binding(g, b)
	}
	// A helper imported under another name and passed on: follow it.
	for _, im := range g.Imports {
		if im.Local == name && im.Imported != "*" {
			if p := s.ci.resolve(g.Path, im.Module); p != "" {
				if h := s.ci.file(p); h != nil && depth < maxReexports {
					s.exported(h, im.Imported, depth+1)
				}
			}
		}
	}
}
