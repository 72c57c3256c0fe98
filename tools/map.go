package tools

import (
	"context"

	"github.com/tent-tools/tent-tools/outline"
)

// MapInput is the input of map: none.
type MapInput struct{}

func init() {
	register(Tool{
		Name:     "map",
		Summary:  "The outline of the project: each file with its definitions, tables with their columns, functions with what they send and call, flows with their steps, screens with their paths",
		NewInput: func() any { return new(MapInput) },
		Answer:   outline.Map{},
		ReadOnly: true,
		Local:    true,
		Run: func(ctx context.Context, w *Workspace, in any) (Answer, error) {
			return w.projectMap(ctx)
		},
	})
}

// Map answers the outline of the project from the workspace's index: the
// text folded to outline.DefaultBudget characters, and the whole map as data.
func (w *Workspace) projectMap(ctx context.Context) (Answer, error) {
	ix, err := w.Index(ctx)
	if err != nil {
		return Answer{}, err
	}
	m := outline.Build(ix)
	return Answer{Text: m.Text(0), Data: m}, nil
}
