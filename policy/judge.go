package policy

import (
	"fmt"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/tent-tools/tent-tools/defchange"
	"github.com/tent-tools/tent-tools/diag"
)

// isChangeRule reports whether a rule is a change rule (ACTION:KIND)
// rather than a path glob.
func isChangeRule(r string) bool {
	_, _, ok := strings.Cut(r, ":")
	return ok
}

// matchesChange reports whether the change rule r names the change c.
func matchesChange(r string, c defchange.DefChange) bool {
	action, kind, _ := strings.Cut(r, ":")
	return (action == "*" || defchange.Action(action) == c.Action) && (kind == "*" || defchange.Kind(kind) == c.Kind)
}

// matchesPath reports whether the path glob r names the path p.
func matchesPath(r, p string) bool {
	ok, err := doublestar.Match(r, p)
	return ok && err == nil
}

// hit is a rule that names a path or a change.
type hit struct {
	rule string
	item string // the path, or the change as "rename:column orders.buyer"
	path bool
}

// describe writes a change as a rule would name it, with its names.
func describe(c defchange.DefChange) string {
	s := string(c.Action) + ":" + string(c.Kind) + " " + c.Definition
	if c.To != "" {
		s += " -> " + c.To
	}
	return s
}

// hits lists what rules name among paths and changes, in the rules' order.
func hits(rules, paths []string, changes []defchange.DefChange) []hit {
	var out []hit
	for _, r := range rules {
		if r == DenyShellNetwork {
			continue // no rule of paths or changes
		}
		if isChangeRule(r) {
			for _, c := range changes {
				if matchesChange(r, c) {
					out = append(out, hit{rule: r, item: describe(c)})
				}
			}
			continue
		}
		for _, p := range paths {
			if matchesPath(r, p) {
				out = append(out, hit{rule: r, item: p, path: true})
			}
		}
	}
	return out
}

// Judge holds a change (the paths it writes, moves or deletes, and its
// definition changes) against the policy (docs/pages/policy.md). Each path and each
// change is judged by the first list that names it: deny (refused), then
// ask (the person is asked), then allow (written). A path that no list
// names is refused; so is a change, where allow holds change rules (an
// allow without path globs names every path, one without change rules
// every change; see judgedByAllow for the changes allow's rules need not
// name). A refusal is T9105 with the rule (or the allow that
// names nothing), and the path or change. Otherwise Judge returns what ask
// names: the person must say yes to write it.
func (p *Policy) Judge(paths []string, changes []defchange.DefChange) (ask []string, err error) {
	if p == nil {
		return nil, nil
	}
	if d := hits(p.Deny, paths, changes); len(d) > 0 {
		return nil, refusal(d[0], "the policy denies %s (deny rule %q)", d[0].item, d[0].rule)
	}
	asked := map[string]bool{}
	for _, h := range hits(p.Ask, paths, changes) {
		if !asked[h.item] {
			ask = append(ask, fmt.Sprintf("%s (ask rule %q)", h.item, h.rule))
		}
		asked[h.item] = true
	}
	var globs, changeRules []string
	for _, r := range p.Allow {
		if isChangeRule(r) {
			changeRules = append(changeRules, r)
		} else {
			globs = append(globs, r)
		}
	}
	if len(globs) > 0 {
		for _, path := range paths {
			if !asked[path] && !anyPath(globs, path) {
				return nil, refusal(hit{item: path, path: true}, "the policy names %s in no list (allow: %s)", path, strings.Join(globs, ", "))
			}
		}
	}
	if len(changeRules) == 0 && len(globs) > 0 && !slices.Contains(globs, "**") {
		// Path globs that name some paths only let an agent write there,
		// not declare data wherever it writes: a table (the rows, the
		// private columns) that a change adds must be named by a change
		// rule, wherever it is declared.
		for _, c := range changes {
			if d := describe(c); c.Action == defchange.Add && c.Kind == defchange.KindTable && !asked[d] {
				return nil, refusal(hit{item: d}, "the policy's allow names paths only (%s); adding a table needs a change rule (allow or ask \"add:table\"), %s", strings.Join(globs, ", "), d)
			}
		}
	}
	if len(changeRules) > 0 {
		for _, c := range changes {
			if !judgedByAllow(c) {
				continue
			}
			if d := describe(c); !asked[d] && !anyChange(changeRules, c) {
				return nil, refusal(hit{item: d}, "the policy names %s in no list (allow: %s)", d, strings.Join(changeRules, ", "))
			}
		}
	}
	for _, h := range hits(p.narrowAsk, paths, changes) {
		if !asked[h.item] {
			ask = append(ask, fmt.Sprintf("%s (ask rule %q)", h.item, h.rule))
		}
		asked[h.item] = true
	}
	return ask, nil
}

// judgedByAllow reports whether allow's change rules must name a change.
// A file's change is judged by allow's path globs, and a table's change
// that only touches its columns by the changes of those columns: an allow
// of "change:column" lets a column change without naming "change:table".
func judgedByAllow(c defchange.DefChange) bool {
	if c.Kind == defchange.KindFile {
		return false
	}
	if c.Kind == defchange.KindTable && c.Action == defchange.Change && len(c.Fields) > 0 {
		for _, f := range c.Fields {
			if !strings.HasPrefix(f.Path, "columns.") {
				return true
			}
		}
		return false
	}
	return true
}

func anyPath(globs []string, p string) bool {
	for _, g := range globs {
		if matchesPath(g, p) {
			return true
		}
	}
	return false
}

func anyChange(rules []string, c defchange.DefChange) bool {
	for _, r := range rules {
		if matchesChange(r, c) {
			return true
		}
	}
	return false
}

// refusal is the T9105 of a policy's refusal.
func refusal(h hit, format string, args ...any) *diag.ToolError {
	e := diag.Errorf(diag.T9105, "refused: "+format+"; nothing was written", args...)
	if h.rule != "" {
		e = e.With("rule", h.rule)
	}
	if h.path {
		return e.With("path", h.item)
	}
	return e.With("change", h.item)
}
