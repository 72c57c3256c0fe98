package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/words"
	"github.com/tent-tools/tent-tools/runner"
)

// RowsInput is the input of rows: a table, and how many rows at most (100
// where left out; 1 or more where given, limitOf).
type RowsInput struct {
	Table string `json:"table"`
	Limit *int   `json:"limit,omitempty"`
}

func init() {
	register(Tool{
		Name:     "rows",
		Summary:  "Rows of a table of the test database (100 where limit is left out), without its private columns, which it names",
		NewInput: func() any { return new(RowsInput) },
		Answer:   runner.Rows{},
		ReadOnly: true,
		Local:    true,
		Run: func(ctx context.Context, w *Workspace, in any) (Answer, error) {
			return w.rows(ctx, *in.(*RowsInput))
		},
	})
}

// Rows answers rows of the test database (docs/pages/rows.md), built or
// migrated first as a run would.
func (w *Workspace) rows(ctx context.Context, in RowsInput) (Answer, error) {
	limit, err := limitOf(in.Limit, runner.DefaultRowsLimit)
	if err != nil {
		return Answer{}, err
	}
	r, err := w.state.Runner()
	if err != nil {
		return Answer{}, err
	}
	// As run: from the app snapshot where the files fit it (run.go).
	var rows *runner.Rows
	read := false
	if w.state.ColdStampsWanted() {
		r.Prefetch()
		if stamps := w.state.ColdStamps(ctx); stamps != nil {
			rows, read, err = r.RowsStamped(ctx, stamps, in.Table, limit)
		}
	}
	if !read {
		ix, ierr := w.appIndex(ctx)
		if ierr != nil {
			return Answer{}, ierr
		}
		rows, err = r.Rows(ctx, ix, in.Table, limit)
		if stamps := w.state.IndexStamps(ix); stamps != nil {
			r.KeepApp(ix, stamps)
		}
	}
	if err != nil {
		return Answer{}, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d of %s\n", rows.Table, len(rows.Rows), words.Count(rows.Total, "row"))
	for _, row := range rows.Rows {
		fmt.Fprintf(&b, "  %s\n", row)
	}
	if len(rows.Hidden) > 0 {
		fmt.Fprintf(&b, "private columns left out: %s\n", strings.Join(rows.Hidden, ", "))
	}
	return Answer{Text: b.String(), Data: rows}, nil
}

// limitOf is the limit a tool's input gives: def where it is left out, the
// number given where it is 1 or more. 0 is refused as -1 is (T9102), not
// taken to mean the default: an agent that asks for no hits has made a
// slip, and one that wants how many there are asks for a count.
func limitOf(given *int, def int) (int, error) {
	switch {
	case given == nil:
		return def, nil
	case *given < 1:
		return 0, diag.Errorf(diag.T9102, "bad input: limit %d: give 1 or more, or leave it out for %d", *given, def).With("field", "limit")
	}
	return *given, nil
}
