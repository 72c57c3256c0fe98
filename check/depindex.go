package check

import (
	"path"
	"strings"
)

// depIndex finds the lookups a change may alter without walking every
// file's: each lookup of each unit, filed by the name it looked up
// (indexKey). A change works out the keys it touches (change.keys) and
// compares only the lookups filed under them.
type depIndex map[dep][]useRef

// useRef is one lookup of a unit: u.deps[i], at u.pos[i] in its key's list.
type useRef struct {
	u *unit
	i int32
}

// indexKey is the key under which a lookup is filed, false for one whose
// value never changes (an import of a package, or of a module outside the
// project). The lookups of one definition name share a key; an import is
// filed by the path it names before extensions are tried (path.Join of
// the importing folder and the module), so that a file that comes or goes
// finds the imports that may now resolve otherwise; the inferred sends
// and calls and the row sites, which any change of code may alter, have
// one key each.
func indexKey(d dep) (dep, bool) {
	switch d.kind {
	case depFirst, depKindOf:
		return dep{depDef, d.name}, true
	case depResolve:
		from, module, _ := strings.Cut(d.name, "\x00")
		if !strings.HasPrefix(module, "./") && !strings.HasPrefix(module, "../") && module != "." && module != ".." {
			return dep{}, false
		}
		joined := path.Join(path.Dir(from), module)
		if joined == ".." || strings.HasPrefix(joined, "../") {
			return dep{}, false
		}
		return dep{depResolve, joined}, true
	case depCalls, depSends:
		return dep{depSends, ""}, true
	case depRowSites, depProject, depTableWas:
		return dep{d.kind, ""}, true
	}
	return d, true
}

// resolveKeys are the keys of the imports that may resolve to the file at
// p, or no more, when it comes or goes (definitions.Index.ResolveImport's
// candidates, worked backwards).
func resolveKeys(p string) []dep {
	keys := []string{p}
	for _, ext := range []string{".ts", ".tsx"} {
		stem, ok := strings.CutSuffix(p, ext)
		if !ok {
			continue
		}
		keys = append(keys, stem, stem+".js", stem+".mjs", stem+".cjs")
		if ext == ".tsx" {
			keys = append(keys, stem+".jsx")
		}
	}
	if b := path.Base(p); b == "index.ts" || b == "index.tsx" {
		keys = append(keys, path.Dir(p))
	}
	out := make([]dep, len(keys))
	for i, k := range keys {
		out[i] = dep{depResolve, k}
	}
	return out
}

// add files the lookups of u.
func (x depIndex) add(u *unit) {
	u.pos = make([]int32, len(u.deps))
	for i, sn := range u.deps {
		k, ok := indexKey(sn.dep)
		if !ok {
			u.pos[i] = -1
			continue
		}
		list := x[k]
		u.pos[i] = int32(len(list))
		x[k] = append(list, useRef{u, int32(i)})
	}
}

// remove takes the lookups of u out of the index.
func (x depIndex) remove(u *unit) {
	for i, sn := range u.deps {
		at := u.pos[i]
		if at < 0 {
			continue
		}
		k, _ := indexKey(sn.dep)
		list := x[k]
		last := int32(len(list) - 1)
		if at != last {
			moved := list[last]
			list[at] = moved
			moved.u.pos[moved.i] = at
		}
		list[last] = useRef{}
		if last == 0 {
			delete(x, k)
		} else {
			x[k] = list[:last]
		}
		u.pos[i] = -1
	}
}
