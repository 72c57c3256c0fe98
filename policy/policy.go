// Package policy is an agent's policy (docs/pages/policy.md): which paths and
// definition changes it may write, which wait for the person, and what more
// it may do, and Judge, which holds one change against it. It is pure: the
// change pipeline of package workspace judges every change by it, and tools
// (run, shot, shell) ask it what more an agent may do.
package policy

import (
	"fmt"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/tent-tools/tent-tools/defchange"
)

// Policy is an agent's policy (docs/pages/policy.md): which paths and changes it may
// write, which wait for the person, and what more it may do. The zero value
// and a nil *Policy mean the default: allow everything ("**") and nothing more.
// Judge holds a change against it; Also is also enforced where a path is
// resolved (engine.ts) and by run (runAsSystem), Trust by run.
type Policy struct {
	Allow []string `json:"allow,omitempty"`
	Deny  []string `json:"deny,omitempty"`
	Ask   []string `json:"ask,omitempty"`
	Also  []string `json:"also,omitempty"`
	Trust []string `json:"trust,omitempty"`

	// narrowAsk are ask rules added by Narrow: the person is asked of what
	// they name, but only of what the rest of the policy lets through (an
	// ask rule of the policy's own also lets a path that allow does not
	// name be written, once the person says yes; a narrowing one never
	// does).
	narrowAsk []string
}

// The names that Also and Trust may hold.
const (
	AlsoEngine      = "engine"      // write engine.ts
	AlsoRunAsSystem = "runAsSystem" // run with as: "system"
	AlsoShell       = "shell"       // run commands in the project folder (shell)
	TrustRun        = "run"         // run functions that send data out without asking
	// DenyShellNetwork, in deny, runs shell's commands without the
	// network: in a network namespace of their own, with no route out.
	DenyShellNetwork = "shell:network"
)

// The words a change rule ACTION:KIND may use: the actions and kinds of
// package defchange, or "*".
var (
	ruleActions = []string{string(defchange.Add), string(defchange.Change), string(defchange.Rename), string(defchange.Remove), "*"}
	ruleKinds   = []string{string(defchange.KindTable), string(defchange.KindColumn), string(defchange.KindFn), string(defchange.KindFlow),
		string(defchange.KindScreen), string(defchange.KindProject), string(defchange.KindEngine), string(defchange.KindFile), "*"}
)

// Validate checks the policy's rules and names: every rule a change rule
// ACTION:KIND of known words or a valid path glob, every also and trust name
// known. ParsePolicy (package tools) calls it after its strict decoding.
func (p *Policy) Validate() error {
	for _, list := range []struct {
		name  string
		rules []string
	}{{"allow", p.Allow}, {"deny", p.Deny}, {"ask", p.Ask}} {
		for _, r := range list.rules {
			if r == DenyShellNetwork {
				if list.name != "deny" {
					return fmt.Errorf("%s: %q takes the network from shell's commands, and goes in deny", list.name, r)
				}
				continue
			}
			if err := validateRule(r); err != nil {
				return fmt.Errorf("%s: %w", list.name, err)
			}
		}
	}
	for _, a := range p.Also {
		if a != AlsoEngine && a != AlsoRunAsSystem && a != AlsoShell {
			return fmt.Errorf("also: unknown name %q (known: %s, %s, %s)", a, AlsoEngine, AlsoRunAsSystem, AlsoShell)
		}
	}
	for _, t := range p.Trust {
		if t != TrustRun {
			return fmt.Errorf("trust: unknown name %q (known: %s)", t, TrustRun)
		}
	}
	return nil
}

// validateRule checks one rule: a change rule ACTION:KIND, or else a path glob.
func validateRule(r string) error {
	if r == "" {
		return fmt.Errorf("empty rule")
	}
	if action, kind, ok := strings.Cut(r, ":"); ok {
		if !slices.Contains(ruleActions, action) {
			return fmt.Errorf("rule %q: unknown action %q (one of %s)", r, action, strings.Join(ruleActions, ", "))
		}
		if !slices.Contains(ruleKinds, kind) {
			return fmt.Errorf("rule %q: unknown kind %q (one of %s)", r, kind, strings.Join(ruleKinds, ", "))
		}
		return nil
	}
	if !doublestar.ValidatePattern(r) {
		return fmt.Errorf("rule %q: not a valid path glob", r)
	}
	return nil
}

// Denies reports whether the policy's deny names what, a name that is no
// rule of paths or changes (DenyShellNetwork). A nil policy denies nothing.
func (p *Policy) Denies(what string) bool {
	return p != nil && slices.Contains(p.Deny, what)
}

// Lets reports whether the policy's also names what (AlsoEngine,
// AlsoRunAsSystem, AlsoShell). A nil policy lets nothing more.
func (p *Policy) Lets(what string) bool {
	return p != nil && slices.Contains(p.Also, what)
}
