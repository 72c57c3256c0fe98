package tools

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tent-tools/tent-tools/defchange"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/history"
	"github.com/tent-tools/tent-tools/internal/words"
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

// PointAnswer is one point as history answers it (docs/pages/history.md).
type PointAnswer struct {
	Point   int             `json:"point"`
	Time    string          `json:"time"`
	Who     string          `json:"who"`
	Agent   string          `json:"agent"`
	Kind    string          `json:"kind"`
	Turn    *int            `json:"turn,omitempty"`
	Tool    string          `json:"tool"`
	Summary string          `json:"summary"`
	Files   []string        `json:"files"`
	Changes []ChangeSummary `json:"changes"`
	// Undid, on an undo point, lists the points it put back.
	Undid []int `json:"undid,omitempty"`
	// UndoneBy, on a point whose change is not in effect, is the undo
	// point that put it back (0, left out, where it is in effect).
	UndoneBy int `json:"undoneBy,omitempty"`
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
		marks, err := hs.Marks(ctx)
		if err != nil {
			return Answer{}, err
		}
		undoneBy = history.UndoneBy(marks)
	}
	for _, p := range points {
		pa := answerPoint(p)
		pa.UndoneBy = undoneBy[p.N]
		rest := fmt.Sprintf("compare with from %d and to %d answers every change of the point", p.N-1, p.N)
		pa.Files = bound(w.Options().Bounded, &pa.More, "files", pa.Files, 0, budgetPointItems, rest, false)
		pa.Changes = bound(w.Options().Bounded, &pa.More, "changes", pa.Changes, 0, budgetPointItems, rest, false)
		a.Points = append(a.Points, pa)
		writePointLine(&b, pa, w.Options().TextZone)
		writeUndoLines(&b, pa)
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
	pa := PointAnswer{
		Point: p.N, Time: p.Time.UTC().Format(time.RFC3339), Who: p.Who, Agent: p.Agent, Kind: p.Kind,
		Tool: p.Tool, Summary: p.Summary, Files: []string{}, Changes: []ChangeSummary{}, Undid: p.Undid,
	}
	if p.Turn > 0 {
		turn := p.Turn
		pa.Turn = &turn
	}
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

// textTime writes utc, a time of a data answer (RFC 3339, UTC), in zone
// (nil: as it is), in seconds with the zone's offset.
func textTime(utc string, zone *time.Location) string {
	t, err := time.Parse(time.RFC3339, utc)
	if zone == nil || err != nil {
		return utc
	}
	return t.In(zone).Format(time.RFC3339)
}

// writePointLine writes a point's first line: number, time (in zone, nil:
// UTC), who, kind, turn, tool and summary.
func writePointLine(b *strings.Builder, pa PointAnswer, zone *time.Location) {
	fmt.Fprintf(b, "point %d  %s  %s", pa.Point, textTime(pa.Time, zone), pa.Kind)
	if pa.Who != "" {
		fmt.Fprintf(b, " by %s", pa.Who)
	}
	if pa.Agent != "" {
		fmt.Fprintf(b, " (agent %s)", pa.Agent)
	}
	if pa.Turn != nil {
		fmt.Fprintf(b, ", turn %d", *pa.Turn)
	}
	if pa.Tool != "" {
		fmt.Fprintf(b, ", %s", pa.Tool)
	}
	fmt.Fprintf(b, ": %s\n", pa.Summary)
}

// writeUndoLines writes which points an undo point put back, and which
// undo put back a point no longer in effect.
func writeUndoLines(b *strings.Builder, pa PointAnswer) {
	if len(pa.Undid) > 0 {
		fmt.Fprintf(b, "  undid %s %s\n", words.Plural(len(pa.Undid), "point"), pointRuns(pa.Undid))
	}
	if pa.UndoneBy > 0 {
		fmt.Fprintf(b, "  undone by point %d\n", pa.UndoneBy)
	}
}

// pointRuns writes point numbers in order, a run of three or more as its
// ends: "1 to 6, 9".
func pointRuns(points []int) string {
	ns := slices.Clone(points)
	slices.Sort(ns)
	ns = slices.Compact(ns)
	var each []string
	for i := 0; i < len(ns); {
		j := i
		for j+1 < len(ns) && ns[j+1] == ns[j]+1 {
			j++
		}
		switch {
		case j-i >= 2:
			each = append(each, fmt.Sprintf("%d to %d", ns[i], ns[j]))
		case j > i:
			each = append(each, strconv.Itoa(ns[i]), strconv.Itoa(ns[j]))
		default:
			each = append(each, strconv.Itoa(ns[i]))
		}
		i = j + 1
	}
	return strings.Join(each, ", ")
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
