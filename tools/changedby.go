package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/tent-tools/tent-tools/defchange"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/history"
)

// ChangedByInput is the input of changedBy: a definition or a column
// ("orders", "orders.buyer"), and one field of it by its path
// ("columns.buyer.type"; for a column, "type").
type ChangedByInput struct {
	Name string `json:"name"`
	Path string `json:"path,omitempty"`
}

// ChangedByAnswer is the data answer of changedBy (docs/pages/changedBy.md): the
// newest point that changed it (its facts and undo links, as history
// answers them), and the change.
type ChangedByAnswer struct {
	PointFacts
	// Change is the point's change of what was asked: for a column or a
	// path, only the fields under it (as the text shows them).
	Change defchange.DefChange `json:"change"`
	UndoLinks
	// More, in an agent's bounded answer, says what the change's fields
	// and their texts left out, and how to ask for it.
	More []diag.More `json:"more,omitempty"`
}

func init() {
	register(Tool{
		Name:     "changedBy",
		Summary:  "The newest point that changed a definition or a column, or one field of it by its path, with its time, who made it, its kind and its turn",
		NewInput: func() any { return new(ChangedByInput) },
		Answer:   ChangedByAnswer{},
		ReadOnly: true,
		Local:    true,
		Run: func(ctx context.Context, w *Workspace, in any) (Answer, error) {
			return w.changedBy(ctx, *in.(*ChangedByInput))
		},
	})
}

// ChangedBy walks the points from the newest back and answers the first
// whose changes touch the name (and the field path). It follows renames
// back: before the point that renamed orders to purchases, purchases was
// orders (and columns.customer, before its rename, columns.buyer).
func (w *Workspace) changedBy(ctx context.Context, in ChangedByInput) (Answer, error) {
	if in.Name == "" {
		return Answer{}, diag.Errorf(diag.T9102, "bad input: name is empty").With("field", "name")
	}
	hs, err := w.state.HistoryStore(ctx)
	if err != nil {
		return Answer{}, err
	}
	q := query{name: in.Name, path: in.Path}
	for p, err := range hs.Older(ctx) {
		if err != nil {
			return Answer{}, err
		}
		for _, c := range p.Changes {
			if q.matches(c) {
				undos, err := hs.UndoMarks(ctx)
				if err != nil {
					return Answer{}, err
				}
				return w.changedByAnswer(p, c, q.fieldPrefix(c), history.UndoneBy(undos)[p.N]), nil
			}
		}
		// A point's column renames name columns by their new table's name,
		// so they are followed before the table's own rename.
		for _, c := range p.Changes {
			if c.Kind == defchange.KindColumn {
				q.follow(c)
			}
		}
		for _, c := range p.Changes {
			if c.Kind != defchange.KindColumn {
				q.follow(c)
			}
		}
	}
	what := in.Name
	if in.Path != "" {
		what += " " + in.Path
	}
	// A name the project does not know now (and no point ever changed)
	// is most often a typo: say what there is instead, as rename does.
	msg := "no point changed " + what + " (history lists the points)"
	if ix, err := w.Index(ctx); err == nil {
		if _, _, te := ix.Lookup(in.Name); te != nil {
			msg += "; " + te.Message
		}
	}
	return Answer{}, diag.Errorf(diag.T9103, "%s", msg).With("name", in.Name)
}

// changedByAnswer answers the point p's change c of what was asked: its
// fields under prefix (every field where prefix is ""), the same in the
// text and the data, within their budgets where bounded; undoneBy is the
// undo that put p back (0: p is in effect).
func (w *Workspace) changedByAnswer(p *history.Point, c defchange.DefChange, prefix string, undoneBy int) Answer {
	var fields []defchange.Field
	for _, f := range c.Fields {
		if prefix == "" || f.Path == prefix || strings.HasPrefix(f.Path, prefix+".") {
			fields = append(fields, f)
		}
	}
	c.Fields = fields
	var more []diag.More
	c = boundFields(w.Options().Bounded, &more, []defchange.DefChange{c},
		fmt.Sprintf("compare with from %d, to %d and name (TABLE.COLUMN for one column) keeps to fewer; the CLI's changed-by answers every field whole", p.N-1, p.N))[0]
	if c.Fields == nil {
		c.Fields = []defchange.Field{}
	}
	a := ChangedByAnswer{PointFacts: pointFacts(p), Change: c, UndoLinks: UndoLinks{Undid: p.Undid, UndoneBy: undoneBy}, More: more}
	var b strings.Builder
	writePointLine(&b, a.PointFacts, w.Options().TextZone)
	writeUndoLines(&b, a.UndoLinks)
	writeChange(&b, c)
	writeMore(&b, more)
	return Answer{Text: b.String(), Data: a}
}

// query is what changedBy looks for, by the names it had at the point
// being looked at.
type query struct {
	name string // "orders" or "orders.buyer"
	path string // a field path, or ""
}

// matches reports whether a change touches the query's name and path.
func (q *query) matches(c defchange.DefChange) bool {
	if c.Kind == defchange.KindFile {
		return false
	}
	table, column, isColumn := strings.Cut(q.name, ".")
	hasField := func(prefix string) bool {
		for _, f := range c.Fields {
			if f.Path == prefix || strings.HasPrefix(f.Path, prefix+".") {
				return true
			}
		}
		return false
	}
	if isColumn {
		if c.Kind == defchange.KindColumn && c.Name() == q.name {
			return q.path == "" || hasField(q.path)
		}
		if c.Kind != defchange.KindColumn && c.Name() == table {
			prefix := "columns." + column
			if q.path != "" {
				prefix += "." + q.path
			}
			return hasField(prefix)
		}
		return false
	}
	if c.Kind == defchange.KindColumn || c.Name() != q.name {
		return false
	}
	return q.path == "" || hasField(q.path)
}

// fieldPrefix is the field path, in the change c that matches, of what
// the query names: its path, or where a column's change came as its
// table's, columns.COLUMN and the path below it ("" for every field).
func (q *query) fieldPrefix(c defchange.DefChange) string {
	_, column, isColumn := strings.Cut(q.name, ".")
	if !isColumn || c.Kind == defchange.KindColumn {
		return q.path
	}
	prefix := "columns." + column
	if q.path != "" {
		prefix += "." + q.path
	}
	return prefix
}

// follow steps the query back over a change: where the change renamed
// what the query names (or its table, or a column its path names), the
// query names it as it was before.
func (q *query) follow(c defchange.DefChange) {
	if c.Action != defchange.Rename {
		return
	}
	table, column, isColumn := strings.Cut(q.name, ".")
	switch {
	case c.Kind == defchange.KindColumn && isColumn && c.To == q.name:
		q.name = c.Definition
	case c.Kind == defchange.KindColumn && !isColumn:
		// A column of the table the query names, named by its path.
		_, oldCol, _ := strings.Cut(c.Definition, ".")
		_, newCol, _ := strings.Cut(c.To, ".")
		newPrefix := "columns." + newCol
		if strings.HasPrefix(c.To, q.name+".") && (q.path == newPrefix || strings.HasPrefix(q.path, newPrefix+".")) {
			q.path = "columns." + oldCol + q.path[len(newPrefix):]
		}
	case c.Kind != defchange.KindColumn && c.To == table:
		if isColumn {
			q.name = c.Definition + "." + column
		} else {
			q.name = c.Definition
		}
	}
}
