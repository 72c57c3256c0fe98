package tools

import (
	"context"
	"fmt"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/outline"
)

// MapInput is the input of map. Path narrows the map to a file or the
// files under a folder ("" is the whole project); Budget is the size of
// the text in characters (0 is outline.DefaultBudget). Where the map is
// longer than the budget it is folded, the text and the data alike: what
// it leaves out is counted, and a narrower path or a larger budget asks
// for it.
type MapInput struct {
	Path   string `json:"path,omitempty"`
	Budget int    `json:"budget,omitempty"`
}

func init() {
	register(Tool{
		Name:     "map",
		Summary:  "The outline of the project: each file with its definitions, tables with their columns, functions with what they send and call, flows with their steps, screens with their paths",
		NewInput: func() any { return new(MapInput) },
		Answer:   outline.Map{},
		ReadOnly: true,
		Local:    true,
		Run: func(ctx context.Context, w *Workspace, in any) (Answer, error) {
			return w.projectMap(ctx, *in.(*MapInput))
		},
	})
}

// projectMap answers the outline of the project (or of the files under
// in.Path) from the workspace's index: the text folded to the budget, and
// as data the map of what the text shows, so the data is about the size
// of the text on any project.
func (w *Workspace) projectMap(ctx context.Context, in MapInput) (Answer, error) {
	if in.Budget < 0 {
		return Answer{}, diag.Errorf(diag.T9102, "bad input: budget is %d: give a number of characters, or 0 for the default %d", in.Budget, outline.DefaultBudget).With("field", "budget")
	}
	ix, err := w.Index(ctx)
	if err != nil {
		return Answer{}, err
	}
	// The outline of a snapshot is made once: a long-lived face's warm
	// call (the snapshot unchanged) answers from the workspace's memo.
	whole := w.state.Memo(ix, "map", func() any { return outline.Build(ix) }).(*outline.Map)
	key := fmt.Sprintf("map %q %d", in.Path, in.Budget)
	got := w.state.Memo(ix, key, func() any {
		m := whole.Under(in.Path)
		if len(m.Files) == 0 {
			return mapAnswer{}
		}
		text, shown := m.Bounded(in.Budget)
		return mapAnswer{text: text, shown: shown}
	}).(mapAnswer)
	if got.shown == nil {
		return Answer{}, diag.Errorf(diag.T9103, "no file of the map is at or under %s (map with no path lists the files)", in.Path).With("path", in.Path)
	}
	return Answer{Text: got.text, Data: got.shown}, nil
}

// mapAnswer is a map's answer as the memo keeps it: shown is nil where no
// file is at or under the path.
type mapAnswer struct {
	text  string
	shown *outline.Map
}
