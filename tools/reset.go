package tools

import (
	"context"
)

// ResetInput is the input of reset: nothing.
type ResetInput struct{}

// ResetAnswer is the data answer of reset.
type ResetAnswer struct {
	Reset bool `json:"reset"`
}

func init() {
	register(Tool{
		Name:       "reset",
		Summary:    "Rebuilds the test database from the test data, on purpose: every row that runs wrote is gone",
		NewInput:   func() any { return new(ResetInput) },
		Answer:     ResetAnswer{},
		Idempotent: true,
		Local:      true,
		Run: func(ctx context.Context, w *Workspace, in any) (Answer, error) {
			return w.reset(ctx)
		},
	})
}

// Reset rebuilds the test database from testdata/*.json. Nothing else
// ever rebuilds it: runs migrate it by was and removed.
func (w *Workspace) reset(ctx context.Context) (Answer, error) {
	ix, err := w.appIndex(ctx)
	if err != nil {
		return Answer{}, err
	}
	r, err := w.state.Runner()
	if err != nil {
		return Answer{}, err
	}
	if err := r.Reset(ctx, ix); err != nil {
		return Answer{}, err
	}
	return Answer{Text: "the test database is rebuilt from the test data\n", Data: ResetAnswer{Reset: true}}, nil
}
