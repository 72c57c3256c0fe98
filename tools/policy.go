package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/tent-tools/tent-tools/diag"
)

// Policy is an agent's policy (tools.md §3): which paths and changes it may
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
}

// The names that Also and Trust may hold.
const (
	AlsoEngine      = "engine"      // write engine.ts
	AlsoRunAsSystem = "runAsSystem" // run with as: "system"
	AlsoShell       = "shell"       // run commands in the project folder (shell)
	TrustRun        = "run"         // run functions that send data out without asking
)

var (
	ruleActions = []string{"add", "change", "rename", "remove", "*"}
	ruleKinds   = []string{"table", "column", "fn", "flow", "screen", "project", "engine", "file", "*"}
)

// ParsePolicy reads a policy from its JSON. Unknown fields, unknown also or
// trust names and malformed rules are errors, so that a typo in a policy
// never silently lets more than its author meant.
func ParsePolicy(data []byte) (*Policy, error) {
	// A key given twice is refused (T9102), never "the last wins".
	if err := checkDuplicateKeys(data); err != nil {
		return nil, fmt.Errorf("policy: %w", err)
	}
	// Field names in other capitals ("Also") are refused too, as in tool input.
	if err := checkFields(bytes.TrimSpace(data), reflect.TypeOf(Policy{}), ""); err != nil && json.Valid(data) {
		var te *diag.ToolError
		if errors.As(err, &te) {
			err = errors.New(strings.TrimPrefix(te.Message, "bad input: "))
		}
		return nil, fmt.Errorf("policy: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var p Policy
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("policy: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("policy: more than one JSON value")
	}
	if err := p.validate(); err != nil {
		return nil, fmt.Errorf("policy: %w", err)
	}
	return &p, nil
}

func (p *Policy) validate() error {
	for _, list := range []struct {
		name  string
		rules []string
	}{{"allow", p.Allow}, {"deny", p.Deny}, {"ask", p.Ask}} {
		for _, r := range list.rules {
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

// Lets reports whether the policy's also names what (AlsoEngine,
// AlsoRunAsSystem, AlsoShell). A nil policy lets nothing more.
func (p *Policy) Lets(what string) bool {
	return p != nil && slices.Contains(p.Also, what)
}

// Approver answers the person's yes or no for a write that the policy's ask
// names (tools.md §3). The CLI asks on the terminal; a host asks its user.
type Approver interface {
	Approve(ctx context.Context, question string) (bool, error)
}

// Options are what a workspace (or a view of it, With) is opened with: the
// agent's policy (nil: the default), who acts and for which agent, the turn
// its points belong to, and who answers for the person.
type Options struct {
	Policy *Policy
	// Caller is who acts (a person, a user of the host), as points record it.
	Caller string
	// Agent is the agent the caller acts through, whose policy Policy is.
	Agent string
	// Turn is the turn of the agent that the points belong to (0: none).
	Turn int
	// Approver answers for the person where the policy's ask names a
	// change; nil answers no.
	Approver Approver
	// Now is the clock points are recorded by; nil means time.Now.
	Now func() time.Time
	// Progress hears of long work as it goes (progress.go); nil hears
	// nothing. The test database is the folder's: its first build is
	// heard by the Progress of the workspace that first runs app code in
	// the folder.
	Progress Progress
	// TextZone is the time zone of the times in text answers (RFC 3339,
	// in seconds, with the zone's offset), such as time.Local for a
	// person at a terminal; nil means UTC. Data answers are always UTC.
	TextZone *time.Location
}
