package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/policy"
)

// Policy is an agent's policy (package policy), named here too because
// every face reads one (ParsePolicy) and opens a workspace with it (Options).
type Policy = policy.Policy

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
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("policy: %w", err)
	}
	return &p, nil
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
