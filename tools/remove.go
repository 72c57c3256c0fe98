package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/defchange"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/remove"
)

// RemoveInput is the input of remove: a definition or a column by name,
// or a file by path (exactly one of them).
type RemoveInput struct {
	Name string `json:"name,omitempty"`
	Path string `json:"path,omitempty"`
}

func init() {
	register(Tool{
		Name:       "remove",
		Summary:    "Removes a definition, a column or a file, states it in removed, deletes its test data, lists the places left",
		Writes:     true,
		NewInput:   func() any { return new(RemoveInput) },
		Answer:     remove.Answer{},
		Idempotent: true,
		Local:      true,
		Run: func(ctx context.Context, w *Workspace, in any) (Answer, error) {
			return w.remove(ctx, *in.(*RemoveInput))
		},
	})
}

// Remove plans a removal on the workspace's index (package remove) and
// applies it (Apply). A file the index does not hold (a stylesheet, a
// README) is simply deleted.
func (w *Workspace) remove(ctx context.Context, in RemoveInput) (Answer, error) {
	if (in.Name == "") == (in.Path == "") {
		return Answer{}, diag.Errorf(diag.T9102, "bad input: remove takes a name or a path, one of them")
	}
	ix, err := w.Index(ctx)
	if err != nil {
		return Answer{}, err
	}
	var s *change.Set
	switch {
	case in.Name != "":
		s, err = remove.Plan(ix, in.Name)
	default:
		rel, rerr := w.Resolve(in.Path, true)
		if rerr != nil {
			return Answer{}, rerr
		}
		if info, err := w.state.FS().Lstat(rel); err == nil && info.IsDir() {
			return w.removeFolder(rel)
		}
		if ix.File(rel) != nil {
			s, err = remove.PlanFile(ix, rel)
		} else {
			s, err = w.planPlainFile(rel)
		}
	}
	if err != nil {
		return Answer{}, err
	}
	point, err := w.state.Apply(ctx, ix, s)
	if err != nil {
		return Answer{}, err
	}
	a, err := remove.NewAnswer(s)
	if err != nil {
		return Answer{}, err
	}
	a.Point = pointRef(point)
	a.Stated = bound(w.Options().Bounded, &a.More, "stated", a.Stated, 0, budgetLines, changedRest(point), false)
	a.Left = bound(w.Options().Bounded, &a.More, "left", a.Left, 0, budgetSites, leftRest(a.Removed), false)
	var b strings.Builder
	fmt.Fprintf(&b, "removed %s\n", a.Removed)
	for _, st := range a.Stated {
		fmt.Fprintf(&b, "stated in removed at %s:%d\n", st.Path, st.Line)
	}
	if len(a.Deleted) > 0 {
		fmt.Fprintf(&b, "deleted %s\n", strings.Join(a.Deleted, ", "))
	}
	writeLeft(&b, a.Left, a.Removed, "remove")
	writePoint(&b, point)
	writeMore(&b, a.More)
	return Answer{Text: b.String(), Data: a}, nil
}

// removeFolder removes an empty folder. The history keeps files, so an
// empty folder makes no point (there is nothing to put back); a folder
// with anything in it is refused, since remove removes one file at a time.
func (w *Workspace) removeFolder(rel string) (Answer, error) {
	if rel == "." {
		return Answer{}, diag.Errorf(diag.T9102, "remove does not remove the project folder").With("path", rel)
	}
	f, err := w.state.FS().Open(rel)
	if err != nil {
		return Answer{}, fmt.Errorf("remove %s: %w", rel, err)
	}
	names, err := f.Readdirnames(3)
	f.Close()
	if err != nil && !errors.Is(err, io.EOF) {
		return Answer{}, fmt.Errorf("remove %s: %w", rel, err)
	}
	if len(names) > 0 {
		return Answer{}, diag.Errorf(diag.T9102, "%s is a folder that holds %s; remove removes one file, or an empty folder", rel, strings.Join(names, ", ")).
			With("path", rel)
	}
	if err := w.state.FS().Remove(rel); err != nil {
		return Answer{}, fmt.Errorf("remove %s: %w", rel, err)
	}
	a := &remove.Answer{Removed: rel, Stated: []change.Line{}, Deleted: []string{rel}, Left: []change.Site{}}
	return Answer{Text: fmt.Sprintf("removed the empty folder %s (no point: the history keeps files)\n", rel), Data: a}, nil
}

// planPlainFile plans deleting a file that the index does not read.
func (w *Workspace) planPlainFile(rel string) (*change.Set, error) {
	info, err := w.state.FS().Lstat(rel)
	switch {
	case err != nil:
		return nil, diag.Errorf(diag.T9103, "no file %s", rel).With("path", rel)
	case info.IsDir():
		return nil, diag.Errorf(diag.T9102, "%s is a folder; remove removes one file", rel).With("path", rel)
	}
	return &change.Set{Action: change.ActionRemove, Kind: defchange.KindFile, Target: rel, Deletes: []string{rel}}, nil
}
