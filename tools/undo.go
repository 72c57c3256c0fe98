package tools

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/tent-tools/tent-tools/defchange"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/history"
	"github.com/tent-tools/tent-tools/internal/words"
	"github.com/tent-tools/tent-tools/internal/workspace"
)

// UndoInput is the input of undo: a point to go back to before, or
// nothing for the newest change still in effect.
type UndoInput struct {
	Point int `json:"point,omitempty"`
}

// UndoAnswer is the data answer of undo: the points it put back, those
// back in effect (a redo), the files it wrote, and the point of the kind
// undo it recorded.
type UndoAnswer struct {
	Undid []int `json:"undid"`
	// Redid lists the points in effect again because an undo among Undid
	// had put them back (left out where none is): undo of an undo is a
	// redo. It is history's rule (history.UndoneBy) before and after.
	Redid []int    `json:"redid,omitempty"`
	Files []string `json:"files"`
	Point *int     `json:"point"`
	// More, in an agent's bounded answer, says what Undid and Files left
	// out beyond their budgets and how to ask for it.
	More []diag.More `json:"more,omitempty"`
}

func init() {
	register(Tool{
		Name:     "undo",
		Summary:  "Puts the project back as it was before the newest change still in effect (or before a given point), and records that as a point of the kind undo, itself undoable",
		Writes:   true,
		NewInput: func() any { return new(UndoInput) },
		Answer:   UndoAnswer{},
		Local:    true,
		Run: func(ctx context.Context, w *Workspace, in any) (Answer, error) {
			return w.undo(ctx, *in.(*UndoInput))
		},
	})
}

// Undo puts files back from the contents the history keeps, through the
// change pipeline (so the policy judges it like any write), and records a
// point of the kind undo.
//
// Without a point it undoes the newest point in effect that is no undo:
// undo twice undoes two changes. With a point it puts every file back as
// it was before that point, undoing it and every point after it; given an
// undo's point, it undoes that undo (a redo).
func (w *Workspace) undo(ctx context.Context, in UndoInput) (Answer, error) {
	if in.Point < 0 {
		return Answer{}, diag.Errorf(diag.T9102, "bad input: point must be 1 or more").With("field", "point")
	}
	hs, err := w.state.HistoryStore(ctx)
	if err != nil {
		return Answer{}, err
	}
	var targets []*history.Point // oldest first
	var summary string
	undos, err := hs.UndoMarks(ctx)
	if err != nil {
		return Answer{}, err
	}
	undone := history.UndoneBy(undos)
	if in.Point == 0 {
		n, err := hs.NewestInEffect(ctx, undone)
		if err != nil {
			return Answer{}, err
		}
		if n == 0 {
			return Answer{}, diag.Errorf(diag.T9109, "nothing to undo: no change is in effect (history lists the points; undo {point} undoes an undo)")
		}
		p, err := pointAt(ctx, hs, n)
		if err != nil {
			return Answer{}, err
		}
		targets = []*history.Point{p}
		summary = fmt.Sprintf("undo point %d (%s)", n, p.Summary)
	} else {
		if _, err := pointAt(ctx, hs, in.Point); err != nil {
			return Answer{}, err
		}
		last, err := hs.Last(ctx)
		if err != nil {
			return Answer{}, err
		}
		if targets, err = hs.Range(ctx, in.Point-1, last); err != nil {
			return Answer{}, err
		}
		summary = fmt.Sprintf("undo back to before point %d (%s)", in.Point, words.Count(len(targets), "point"))
	}
	st := &workspace.Stage{Summary: summary, Kind: history.KindUndo, RecordEmpty: true, PruneFolders: true}
	back := map[string]string{} // path -> the hash it goes back to ("" : no file)
	past := map[string]int{}    // path -> the point whose earlier content that is
	for _, p := range targets {
		st.Undid = append(st.Undid, p.N)
		for _, f := range p.Files {
			if _, ok := back[f.Path]; !ok {
				back[f.Path], past[f.Path] = f.Before, p.N
			}
		}
	}
	paths := make([]string, 0, len(back))
	for p := range back {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if err := w.stageBack(ctx, hs, st, p, back[p], past[p]); err != nil {
			return Answer{}, err
		}
	}
	undoRenames(st, targets)
	point, err := w.state.CommitStage(ctx, nil, st)
	if err != nil {
		return Answer{}, err
	}
	a := UndoAnswer{Point: pointRef(point)}
	redid, err := redone(ctx, hs, undone)
	if err != nil {
		return Answer{}, err
	}
	bounded := w.Options().Bounded
	a.Undid = bound(bounded, &a.More, "undid", st.Undid, 0, budgetUndo, "history lists the points undone (each names this undo)", false)
	if len(redid) > 0 {
		a.Redid = bound(bounded, &a.More, "redid", redid, 0, budgetUndo, "history lists the points in effect again", false)
	}
	a.Files = bound(bounded, &a.More, "files", st.Paths(), 0, budgetUndo, fmt.Sprintf("compare with from %d and to %d says what the undo did, definition by definition; read shows the files", point-1, point), false)
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", strings.Replace(summary, "undo", "undid", 1))
	if in.Point != 0 {
		// The summary names the first point only; which points that put
		// back, and which an undo among them had put back, are said here.
		fmt.Fprintf(&b, "undid %s %s%s\n", words.Plural(len(st.Undid), "point"), pointRuns(a.Undid), cutNote(a.More, "undid"))
	}
	if len(a.Redid) > 0 {
		fmt.Fprintf(&b, "in effect again: %s %s%s\n", words.Plural(len(redid), "point"), pointRuns(a.Redid), cutNote(a.More, "redid"))
	}
	if len(a.Files) == 0 {
		b.WriteString("the files already were as they were then: nothing to write\n")
	} else {
		fmt.Fprintf(&b, "put back %s\n", strings.Join(a.Files, ", "))
	}
	writePoint(&b, point)
	writeMore(&b, a.More)
	return Answer{Text: b.String(), Data: a}, nil
}

// redone answers the points in effect after the undo point that were not
// before it (undone, UndoneBy's answer before it), in order: those an undo
// it put back had put back.
func redone(ctx context.Context, hs *history.Store, undone map[int]int) ([]int, error) {
	undos, err := hs.UndoMarks(ctx)
	if err != nil {
		return nil, err
	}
	now := history.UndoneBy(undos)
	var back []int
	for n := range undone {
		if _, still := now[n]; !still {
			back = append(back, n)
		}
	}
	sort.Ints(back)
	return back, nil
}

// cutNote says how many items of the list name a bounded answer left out
// (" and 3 more"), "" where none.
func cutNote(more []diag.More, name string) string {
	if n := moreOf(more, name); n > 0 {
		return fmt.Sprintf(" and %d more", n)
	}
	return ""
}

// undoRenames tells the stage the renames and moves it takes back: the
// net renames of the points undone (of definitions, columns and files),
// each the other way, so that the undo's point records them as renames
// back (and compare folds a change and its undo into nothing) where a
// diff of the texts alone would see a name removed and another added.
func undoRenames(st *workspace.Stage, targets []*history.Point) {
	var lists [][]defchange.DefChange
	for _, p := range targets {
		lists = append(lists, p.Changes)
	}
	for _, c := range defchange.Compose(lists...) {
		if c.Action != defchange.Rename {
			continue
		}
		if c.Kind == defchange.KindFile {
			st.Moved(c.To, c.Definition)
		} else {
			st.Renamed(c.To, c.Definition)
		}
	}
}

// stageBack stages one file going back to the content of a hash ("": the
// file did not exist), the one it had before point n. A content the
// history does not keep is T9140, nothing written: too large to keep, or
// never recorded (the file changed outside the tools before any tool read
// it; the starting state keeps hashes only, docs/pages/undo.md).
func (w *Workspace) stageBack(ctx context.Context, hs *history.Store, st *workspace.Stage, path, hash string, n int) error {
	rel, err := w.Resolve(path, true)
	if err != nil {
		return err
	}
	cur, info, err := w.state.ReadFile(rel, MaxFile, func(n int64) error {
		return diag.Errorf(diag.T9104, "%s is %s, larger than undo puts back", rel, words.Bytes(n)).With("path", rel)
	})
	existed := err == nil
	if err != nil && !isCode(err, diag.T9103) {
		return err
	}
	if hash == "" {
		if existed {
			st.Delete(rel, cur, info.Mode().Perm())
		}
		return nil
	}
	data, ok, err := hs.Blob(ctx, hash)
	if err != nil {
		return err
	}
	if !ok {
		return diag.Errorf(diag.T9140, "cannot undo past point %d: %s's earlier content was never recorded (it was larger than %s, "+
			"or it changed outside the tools before any tool read it); nothing was written: undo a later point, or restore the file from a copy of your own",
			n, rel, words.Bytes(workspace.MaxKept)).With("point", n).With("path", rel)
	}
	if existed {
		st.Put(rel, cur, true, info.Mode().Perm(), data)
	} else {
		st.Put(rel, nil, false, 0o644, data)
	}
	return nil
}
