package check

import (
	"fmt"
	"strings"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
)

// duplicatePaths reports T2008: a screen whose route an earlier screen (by
// path order) already has. Routes compare with their :parameters unnamed,
// since /orders/:id and /orders/:status match the same URLs.
func duplicatePaths(p *pass) []diag.Finding {
	var out []diag.Finding
	first := map[string]*definitions.Definition{}
	for _, d := range p.defs {
		if d.Screen == nil || d.Screen.Path == "" {
			continue
		}
		route := p.route(d)
		if e := first[route]; e != nil {
			out = append(out, p.on(d, diag.T2008, diag.Error,
				fmt.Sprintf("screen %s has path %s, the same route as screen %s (%s)", d.Name, d.Screen.Path, e.Name, where(p, e, e.Screen.PathSpan)),
				d.Screen.PathSpan))
			continue
		}
		first[route] = d
	}
	return out
}

// routeShape is a route with each :parameter segment written as ":" and
// without a trailing slash.
func routeShape(path string) string {
	segs := strings.Split(strings.TrimSuffix(path, "/"), "/")
	for i, s := range segs {
		if strings.HasPrefix(s, ":") {
			segs[i] = ":"
		}
	}
	return strings.Join(segs, "/")
}
