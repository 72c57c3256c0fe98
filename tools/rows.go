package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/tent-tools/tent-tools/internal/words"
	"github.com/tent-tools/tent-tools/runner"
)

// RowsInput is the input of rows: a table, and how many rows at most (100
// where left out).
type RowsInput struct {
	Table string `json:"table"`
	Limit int    `json:"limit,omitempty"`
}

func init() {
	Register(Tool{
		Name:     "rows",
		Summary:  "Rows of a table of the test database (100 where limit is left out), without its private columns, which it names",
		NewInput: func() any { return new(RowsInput) },
		Run: func(ctx context.Context, w *Workspace, in any) (Answer, error) {
			return w.Rows(ctx, *in.(*RowsInput))
		},
	})
}

// Rows answers rows of the test database (tools.md §5, rows), built or
// migrated first as a run would.
func (w *Workspace) Rows(ctx context.Context, in RowsInput) (Answer, error) {
	r, err := w.Runner()
	if err != nil {
		return Answer{}, err
	}
	// As run: from the app snapshot where the files fit it (run.go).
	var rows *runner.Rows
	read := false
	if w.ColdStampsWanted() {
		r.Prefetch()
		if stamps := w.ColdStamps(ctx); stamps != nil {
			rows, read, err = r.RowsStamped(ctx, stamps, in.Table, in.Limit)
		}
	}
	if !read {
		ix, ierr := w.appIndex(ctx)
		if ierr != nil {
			return Answer{}, ierr
		}
		rows, err = r.Rows(ctx, ix, in.Table, in.Limit)
		if stamps := w.IndexStamps(ix); stamps != nil {
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
