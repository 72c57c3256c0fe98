package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/tent-tools/tent-tools/diag"
	"strings"

	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/internal/words"
	"github.com/tent-tools/tent-tools/ops"
)

// ChangeInput is the input of change: the operations, in order, and
// whether only to plan them.
type ChangeInput struct {
	Ops    []json.RawMessage `json:"ops"`
	DryRun bool              `json:"dryRun,omitempty"`
	// From, with DryRun, starts the diff at that file (0-based, in the
	// diff's order): an agent's answer holds the files of 400 diff
	// lines, and its more says the from of the next ones.
	From int `json:"from,omitempty"`
}

// ChangeAnswer is the data answer of change. Point is null where nothing
// was recorded (a dry run, a change that changes nothing, or one the
// editor writes itself); Diff is given by a dry run only.
type ChangeAnswer struct {
	Version int           `json:"version"`
	Point   *int          `json:"point"`
	Changed []change.Line `json:"changed"`
	Left    []change.Site `json:"left"`
	DryRun  bool          `json:"dryRun,omitempty"`
	Diff    string        `json:"diff,omitempty"`
	// More, in an agent's bounded answer, says what Changed, Left and
	// Diff left out beyond their budgets and how to ask for it.
	More []diag.More `json:"more,omitempty"`
}

func init() {
	register(Tool{
		Name:     "change",
		Summary:  "Edits the app by operations (addTable, addColumn, setColumn, moveColumn, rename, remove, addIndex, addStep, moveStep, addRow, setRow, ...): all or none, one point, in each file's own style",
		Writes:   true,
		NewInput: func() any { return new(ChangeInput) },
		Answer:   ChangeAnswer{},
		Local:    true,
		Run: func(ctx context.Context, w *Workspace, in any) (Answer, error) {
			return w.change(ctx, *in.(*ChangeInput))
		},
	})
}

// PlanOps plans the operations of a change on ix (package ops): the one
// change set every face applies, the language server's client mode too.
func (w *Workspace) PlanOps(ctx context.Context, ix *definitions.Index, in ChangeInput) (*ops.Result, error) {
	list, err := ops.Decode(in.Ops)
	if err != nil {
		return nil, err
	}
	return ops.Plan(ctx, ix, list)
}

// change plans the operations on the workspace's index and applies them
// as one change set (Apply): judged by the policy, asked of the person
// where ask names what they do, one point. A dry run answers the diff and
// writes nothing.
func (w *Workspace) change(ctx context.Context, in ChangeInput) (Answer, error) {
	switch {
	case in.From < 0:
		return Answer{}, diag.Errorf(diag.T9102, "bad input: from %d: give 0 or more", in.From).With("field", "from")
	case in.From > 0 && !in.DryRun:
		return Answer{}, diag.Errorf(diag.T9102, "bad input: from pages a dry run's diff; give it with dryRun").With("field", "from")
	}
	ix, err := w.Index(ctx)
	if err != nil {
		return Answer{}, err
	}
	res, err := w.PlanOps(ctx, ix, in)
	if err != nil {
		return Answer{}, err
	}
	a := &ChangeAnswer{DryRun: in.DryRun, Left: res.Set.Left}
	if in.DryRun {
		a.Diff, err = boundDiff(w.Options().Bounded, &a.More, res.Set, func(p string) []byte {
			if f := ix.File(p); f != nil {
				return f.Src
			}
			return nil
		}, in.From, func(from int) string {
			return fmt.Sprintf("change with the same ops, dryRun and from %d shows the diff of the next files", from)
		}, "the CLI's dry run (tent-tools call change) answers a file's diff whole; read shows the file once applied", true)
		if err != nil {
			return Answer{}, err
		}
	} else {
		point, err := w.state.Apply(ctx, ix, res.Set)
		if err != nil {
			return Answer{}, err
		}
		a.Point = pointRef(point)
	}
	if a.Changed, err = res.Set.Changed(); err != nil {
		return Answer{}, err
	}
	point := 0
	if a.Point != nil {
		point = *a.Point
	}
	rest := changedRest(point)
	if in.DryRun {
		rest = "the dry run's diff holds every change (from pages it)"
	}
	a.Changed = bound(w.Options().Bounded, &a.More, "changed", a.Changed, 0, budgetLines, rest, false)
	a.Left = bound(w.Options().Bounded, &a.More, "left", a.Left, 0, budgetSites, "search for the old names finds every place that names them; check finds those that broke", false)
	if a.Version, err = w.Version(ctx); err != nil {
		return Answer{}, err
	}
	return Answer{Text: changeText(a, len(in.Ops)), Data: a}, nil
}

// changeText is the text answer of change.
func changeText(a *ChangeAnswer, n int) string {
	var b strings.Builder
	switch {
	case a.DryRun:
		fmt.Fprintf(&b, "planned %s (a dry run: nothing was written)\n", words.Count(n, "operation"))
	case len(a.Changed) == 0:
		fmt.Fprintf(&b, "%s changed nothing\n", words.Count(n, "operation"))
	default:
		fmt.Fprintf(&b, "applied %s\n", words.Count(n, "operation"))
	}
	writeChanged(&b, a.Changed)
	if a.DryRun {
		b.WriteString(a.Diff)
	}
	if len(a.Left) > 0 {
		writeLeft(&b, a.Left, "what the operations renamed or removed", "change")
	}
	if a.Point != nil {
		writePoint(&b, *a.Point)
	}
	writeMore(&b, a.More)
	return b.String()
}
