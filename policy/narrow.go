package policy

import (
	"errors"
	"slices"
)

// Narrow is p narrowed by the rules of by: by's deny rules refuse more,
// and its ask rules ask the person of more, among what p lets through
// (they never let through what p refuses or names in no list). By may
// only take away: an allow, also or trust of its own is refused, for each
// could let something through that p does not. A nil p is the default
// policy; p itself is not changed. A listening server's client narrows
// its operator's policy this way (docs/pages/lsp.md).
func (p *Policy) Narrow(by *Policy) (*Policy, error) {
	if by == nil {
		return p, nil
	}
	switch {
	case len(by.Allow) > 0:
		return nil, errors.New("allow: a narrowing policy may not allow; it narrows by deny and ask rules only")
	case len(by.Also) > 0:
		return nil, errors.New("also: a narrowing policy may not let more be done; also is the operator's")
	case len(by.Trust) > 0:
		return nil, errors.New("trust: a narrowing policy may not trust; trust is the operator's")
	}
	var out Policy
	if p != nil {
		out = Policy{Allow: slices.Clone(p.Allow), Deny: slices.Clone(p.Deny), Ask: slices.Clone(p.Ask),
			Also: slices.Clone(p.Also), Trust: slices.Clone(p.Trust), narrowAsk: slices.Clone(p.narrowAsk)}
	}
	out.Deny = append(out.Deny, by.Deny...)
	out.narrowAsk = append(out.narrowAsk, by.Ask...)
	return &out, nil
}
