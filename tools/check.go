package tools

import (
	"context"

	"github.com/tent-tools/tent-tools/check"
	"github.com/tent-tools/tent-tools/runner"
)

// CheckInput is the input of check: nothing.
type CheckInput struct{}

func init() {
	register(Tool{
		Name:     "check",
		Summary:  "The findings of the check (format.md §7), errors first: broken references, code and test data that do not fit the definitions",
		NewInput: func() any { return new(CheckInput) },
		Answer:   check.Answer{},
		ReadOnly: true,
		Local:    true,
		Run: func(ctx context.Context, w *Workspace, in any) (Answer, error) {
			return w.check(ctx)
		},
	})
}

// Check answers the findings of the check on the workspace's index, with
// T2011 for what the test database has that no definition names (where
// there is a test database). The data answer is {"findings": [...]}.
func (w *Workspace) check(ctx context.Context) (Answer, error) {
	ix, err := w.Index(ctx)
	if err != nil {
		return Answer{}, err
	}
	fs := w.CheckIndex(ctx, ix, check.Options{Extra: runner.Drift(ctx, ix, runner.TestDBPath(w.Root()))})
	return Answer{Text: check.Text(fs), Data: check.NewAnswer(fs)}, nil
}
