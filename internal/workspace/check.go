package workspace

import (
	"context"

	"github.com/tent-tools/tent-tools/check"
	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
)

// CheckIndex runs the check on ix, a snapshot of the workspace's index (an
// editor's buffers included). The folder's first check runs once, as a
// one-shot command's does; from the second on (or the first, after
// KeepChecks), a long-lived process (the language server, an MCP session,
// a host) checks through one check.Checker kept by the folder, which makes
// again only the findings a change can alter.
func (w *Workspace) CheckIndex(ctx context.Context, ix *definitions.Index, opts check.Options) []diag.Finding {
	w.checkMu.Lock()
	w.checks++
	if w.checks > 1 && w.checker == nil {
		w.checker = check.NewChecker()
	}
	c := w.checker
	w.checkMu.Unlock()
	if c == nil {
		return check.Run(ctx, ix, opts)
	}
	return c.Run(ctx, ix, opts)
}

// KeepChecks makes every later check of the folder go through its
// check.Checker, the first one too: a process that knows it will check
// again and again (the language server) saves the first check's second
// pass.
func (w *Workspace) KeepChecks() {
	w.checkMu.Lock()
	defer w.checkMu.Unlock()
	if w.checker == nil {
		w.checker = check.NewChecker()
	}
}
