package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/workspace"
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

// Options are what a workspace (or a view of it, With) is opened with
// (package workspace), named here for the faces that open one.
type Options = workspace.Options

// Approver answers the person's yes or no for a write that the policy's ask
// names (package workspace), named here for the faces that ask.
type Approver = workspace.Approver
