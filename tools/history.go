package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/tent-tools/tent-tools/defchange"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/history"
)

// HistoryInput is the input of history: how many points, newest first (20
// where left out).
type HistoryInput struct {
	Newest int `json:"newest,omitempty"`
}

// HistoryAnswer is the data answer of history.
type HistoryAnswer struct {
	Points []PointAnswer `json:"points"`
}

// PointAnswer is one point as history answers it (docs/pages/history.md):
// its facts, its files and changes, and its undo links.
type PointAnswer struct {
	PointFacts
	Files   []string        `json:"files"`
	Changes []ChangeSummary `json:"changes"`
	UndoLinks
	// More, in an agent's bounded answer, says what Files and Changes
	// left out beyond their budgets and how to ask for it.
	More []diag.More `json:"more,omitempty"`
}

// ChangeSummary is one definition change of a point: its field paths,
// without their texts (compare has them).
type ChangeSummary struct {
	Definition string           `json:"definition"`
	Kind       defchange.Kind   `json:"kind"`
	Action     defchange.Action `json:"action"`
	To         string           `json:"to,omitempty"`
	Fields     []string         `json:"fields"`
}

// defaultNewest is how many points history answers where newest is left out.
const defaultNewest = 20

func init() {
	register(Tool{
		Name:     "history",
		Summary:  "The points (changes of tools, undos, changes made outside), newest first (20 where newest is left out), and what each changed",
		NewInput: func() any { return new(HistoryInput) },
		Answer:   HistoryAnswer{},
		ReadOnly: true,
		Local:    true,
		Run: func(ctx context.Context, w *Workspace, in any) (Answer, error) {
			return w.history(ctx, *in.(*HistoryInput))
		},
	})
}

// History answers the newest points.
func (w *Workspace) history(ctx context.Context, in HistoryInput) (Answer, error) {
	if in.Newest < 0 {
		return Answer{}, diag.Errorf(diag.T9102, "bad input: newest must be 1 or more").With("field", "newest")
	}
	n := in.Newest
	if n == 0 {
		n = defaultNewest
	}
	hs, err := w.state.HistoryStore(ctx)
	if err != nil {
		return Answer{}, err
	}
	points, err := hs.Newest(ctx, n)
	if err != nil {
		return Answer{}, err
	}
	a := HistoryAnswer{Points: []PointAnswer{}}
	var b strings.Builder
	if len(points) == 0 {
		b.WriteString("no points yet: nothing was changed since the history began\n")
	}
	var undoneBy map[int]int
	if len(points) > 0 {
		undos, err := hs.UndoMarks(ctx)
		if err != nil {
			return Answer{}, err
		}
		undoneBy = history.UndoneBy(undos)
	}
	for _, p := range points {
		pa := answerPoint(p)
		pa.UndoneBy = undoneBy[p.N]
		rest := fmt.Sprintf("compare with from %d and to %d answers every change of the point", p.N-1, p.N)
		pa.Files = bound(w.Options().Bounded, &pa.More, "files", pa.Files, 0, budgetPointItems, rest, false)
		pa.Changes = bound(w.Options().Bounded, &pa.More, "changes", pa.Changes, 0, budgetPointItems, rest, false)
		a.Points = append(a.Points, pa)
		writePointLine(&b, pa.PointFacts, w.Options().TextZone)
		writeUndoLines(&b, pa.UndoLinks)
		if len(pa.Files) > 0 {
			shown := pa.Files[:min(len(pa.Files), textFilesShown)]
			fmt.Fprintf(&b, "  files: %s", strings.Join(shown, ", "))
			if cut := len(pa.Files) - len(shown) + moreOf(pa.More, "files"); cut > 0 {
				fmt.Fprintf(&b, " and %d more", cut)
			}
			b.WriteString("\n")
		}
		written, cut := 0, 0
		for _, c := range pa.Changes {
			if c.Kind == defchange.KindFile {
				continue
			}
			if written == textChangesShown {
				cut++
				continue
			}
			written++
			fmt.Fprintf(&b, "  %s:%s %s", c.Action, c.Kind, c.Definition)
			if c.To != "" {
				fmt.Fprintf(&b, " -> %s", c.To)
			}
			if len(c.Fields) > 0 {
				fmt.Fprintf(&b, " (%s)", strings.Join(c.Fields, ", "))
			}
			b.WriteString("\n")
		}
		switch cut += moreOf(pa.More, "changes"); {
		case cut > 0 && len(pa.More) > 0:
			fmt.Fprintf(&b, "  and %d more changes (compare with from %d and to %d has them all)\n", cut, pa.Point-1, pa.Point)
		case cut > 0:
			fmt.Fprintf(&b, "  and %d more changes (the data answer has them all)\n", cut)
		}
	}
	return Answer{Text: b.String(), Data: a}, nil
}

// A point's text lists this many files and definition changes at most, so
// that a rename across hundreds of files stays readable for a model; the
// data answer lists them all.
const (
	textFilesShown   = 10
	textChangesShown = 20
)

// answerPoint makes a point's answer.
func answerPoint(p *history.Point) PointAnswer {
	pa := PointAnswer{PointFacts: pointFacts(p), Files: []string{}, Changes: []ChangeSummary{}, UndoLinks: UndoLinks{Undid: p.Undid}}
	for _, f := range p.Files {
		pa.Files = append(pa.Files, f.Path)
	}
	for _, c := range p.Changes {
		cs := ChangeSummary{Definition: c.Definition, Kind: c.Kind, Action: c.Action, To: c.To, Fields: []string{}}
		for _, f := range c.Fields {
			cs.Fields = append(cs.Fields, f.Path)
		}
		pa.Changes = append(pa.Changes, cs)
	}
	return pa
}

// pointAt returns a point by its number; T9109 where there is none.
func pointAt(ctx context.Context, hs *history.Store, n int) (*history.Point, error) {
	p, err := hs.At(ctx, n)
	if history.IsNoPoint(err) {
		last, _ := hs.Last(ctx)
		return nil, diag.Errorf(diag.T9109, "no point %d; the points are 1 to %d (history lists them)", n, last).With("point", n)
	}
	return p, err
}

// moreOf is how many items of the list name a bounded answer left out.
func moreOf(more []diag.More, name string) int {
	for _, m := range more {
		if m.List == name {
			return m.Cut
		}
	}
	return 0
}
