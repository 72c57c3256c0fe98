package workspace

import (
	"context"
	"fmt"
	"strings"

	"github.com/tent-tools/tent-tools/diag"
)

// approve asks the person about the hits of ask, through the workspace's
// approver; no approver, or a no, is T3103.
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
	if w.opts.Approver != nil {
		var err error
		if ok, err = w.opts.Approver.Approve(ctx, q.String()); err != nil {
			return fmt.Errorf("ask the person: %w", err)
		}
	}
	if !ok {
		return diag.Errorf(diag.T3103, "the person said no to %s; nothing was written", summary).With("asked", ask)
	}
	return nil
}
