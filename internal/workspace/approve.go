package workspace

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tent-tools/tent-tools/diag"
)

// approve asks the person about the hits of ask, through the workspace's
// approver; a no is T3103, and so is an approver that could ask nobody
// (no approver, no terminal, a client that cannot ask), saying so.
func (w *Workspace) approve(ctx context.Context, summary string, ask []string) error {
	if len(ask) == 0 {
		return nil
	}
	var q strings.Builder
	who := w.opts.Caller
	if who == "" {
		who = "the caller"
	}
	if w.opts.Agent != "" {
		who += " (agent " + w.opts.Agent + ")"
	}
	fmt.Fprintf(&q, "%s wants to %s, which the policy asks about:\n", who, summary)
	for _, a := range ask {
		fmt.Fprintf(&q, "  %s\n", a)
	}
	q.WriteString("Write it?")
	ok := false
	var err error
	if w.opts.Approver == nil {
		err = &diag.Unasked{Why: "this workspace was opened with no approver (Options.Approver)", Instead: "a host that gives one lets the person be asked"}
	} else {
		ok, err = w.opts.Approver.Approve(ctx, q.String())
	}
	var unasked *diag.Unasked
	if errors.As(err, &unasked) {
		return diag.Errorf(diag.T3103, "nobody was asked whether to %s, which the policy asks about: %s; %s; nothing was written",
			summary, unasked.Why, unasked.Instead).With("asked", ask).With("unasked", unasked.Why)
	}
	if err != nil {
		return fmt.Errorf("ask the person: %w", err)
	}
	if !ok {
		return diag.Errorf(diag.T3103, "the person said no to %s; nothing was written", summary).With("asked", ask)
	}
	return nil
}
