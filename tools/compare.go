package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/tent-tools/tent-tools/defchange"
	"github.com/tent-tools/tent-tools/diag"
)

// CompareInput is the input of compare: two points (to is the present
// where left out; from 0 is the starting state), one definition or
// column to keep to, and how many of the changes to skip (an agent's
// answer holds 100, and its more says the skip of the next ones).
type CompareInput struct {
	From int    `json:"from"`
	To   *int   `json:"to,omitempty"`
	Name string `json:"name,omitempty"`
	Skip int    `json:"skip,omitempty"`
}

// CompareAnswer is the data answer of compare (docs/pages/compare.md).
type CompareAnswer struct {
	From    int                   `json:"from"`
	To      int                   `json:"to"`
	Changes []defchange.DefChange `json:"changes"`
	// More, in an agent's bounded answer, says what the changes, their
	// fields and the fields' texts left out, and how to ask for it.
	More []diag.More `json:"more,omitempty"`
}

func init() {
	register(Tool{
		Name:     "compare",
		Summary:  "What changed between two points (to is the present where left out), for the whole app or one definition, from the changes kept with the points",
		NewInput: func() any { return new(CompareInput) },
		Answer:   CompareAnswer{},
		ReadOnly: true,
		Local:    true,
		Run: func(ctx context.Context, w *Workspace, in any) (Answer, error) {
			return w.compare(ctx, *in.(*CompareInput))
		},
	})
}

// Compare answers the net change of the points after From up to To,
// composed from the changes kept with them (never parsing old versions).
func (w *Workspace) compare(ctx context.Context, in CompareInput) (Answer, error) {
	hs, err := w.state.HistoryStore(ctx)
	if err != nil {
		return Answer{}, err
	}
	last, err := hs.Last(ctx)
	if err != nil {
		return Answer{}, err
	}
	to := last
	if in.To != nil {
		to = *in.To
	}
	for _, n := range []int{in.From, to} {
		if n < 0 || n > last {
			return Answer{}, diag.Errorf(diag.T9109, "no point %d; the points are 1 to %d (0 is the starting state)", n, last).With("point", n)
		}
	}
	if in.From > to {
		return Answer{}, diag.Errorf(diag.T9102, "bad input: from (%d) must not come after to (%d)", in.From, to).With("field", "from")
	}
	if in.Skip < 0 {
		return Answer{}, diag.Errorf(diag.T9102, "bad input: skip %d: give 0 or more", in.Skip).With("field", "skip")
	}
	points, err := hs.Range(ctx, in.From, to)
	if err != nil {
		return Answer{}, err
	}
	var lists [][]defchange.DefChange
	for _, p := range points {
		lists = append(lists, p.Changes)
	}
	changes := defchange.Compose(lists...)
	if in.Name != "" {
		changes = keepTo(changes, in.Name)
	}
	total := len(changes)
	var more []diag.More
	bounded := w.Options().Bounded
	changes = bound(bounded, &more, "changes", changes, in.Skip, budgetChanges,
		fmt.Sprintf("compare with skip %d shows the next; name keeps to one definition", in.Skip+budgetChanges), false)
	changes = boundFields(bounded, &more, changes, "compare with name (a definition, or TABLE.COLUMN for one column's fields) keeps to fewer; the CLI's compare answers every field whole")
	if changes == nil {
		changes = []defchange.DefChange{}
	}
	var b strings.Builder
	what := "the app"
	if in.Name != "" {
		what = in.Name
	}
	fmt.Fprintf(&b, "from point %d to point %d, %s:\n", in.From, to, what)
	switch {
	case total == 0 && in.Name != "":
		// A name the project does not know now (and no point between
		// changed) is most often a typo: say what there is instead.
		note := ""
		if ix, err := w.Index(ctx); err == nil {
			if _, _, te := ix.Lookup(in.Name); te != nil {
				note = "; " + te.Message
			}
		}
		fmt.Fprintf(&b, "  nothing changed%s\n", note)
	case total == 0:
		b.WriteString("  nothing changed\n")
	case len(changes) == 0:
		fmt.Fprintf(&b, "  no changes from skip %d: there are %d\n", in.Skip, total)
	}
	for _, c := range changes {
		writeChange(&b, c)
	}
	writeMore(&b, more)
	return Answer{Text: b.String(), Data: CompareAnswer{From: in.From, To: to, Changes: changes, More: more}}, nil
}

// shown writes a field's text for the text answer: "(none)" for nothing,
// code on one line.
func shown(s string) string {
	if s == "" {
		return "(none)"
	}
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}

// keepTo keeps the changes of one definition (and its columns), or of one
// column (and its table's fields of that column), by the name it had
// before or after.
func keepTo(changes []defchange.DefChange, name string) []defchange.DefChange {
	var out []defchange.DefChange
	table, column, isColumn := strings.Cut(name, ".")
	named := func(c defchange.DefChange, n string) bool { return c.Definition == n || c.To == n }
	for _, c := range changes {
		switch {
		case c.Kind == defchange.KindFile:
			if named(c, name) {
				out = append(out, c)
			}
		case !isColumn:
			if named(c, name) || c.Kind == defchange.KindColumn && (strings.HasPrefix(c.Definition, name+".") || strings.HasPrefix(c.To, name+".")) {
				out = append(out, c)
			}
		case c.Kind == defchange.KindColumn:
			if named(c, name) {
				out = append(out, c)
			}
		case named(c, table):
			// The table's fields of that column only, by any name it had.
			var fields []defchange.Field
			for _, f := range c.Fields {
				for _, col := range columnNames(changes, name, column) {
					prefix := "columns." + col
					if f.Path == prefix || strings.HasPrefix(f.Path, prefix+".") {
						fields = append(fields, f)
						break
					}
				}
			}
			if len(fields) > 0 {
				c.Fields = fields
				out = append(out, c)
			}
		}
	}
	return out
}

// columnNames lists the names a column had in composed changes: its name,
// and the other side of a rename of it.
func columnNames(changes []defchange.DefChange, name, column string) []string {
	names := []string{column}
	for _, c := range changes {
		if c.Kind != defchange.KindColumn || c.To == "" {
			continue
		}
		switch name {
		case c.Definition:
			_, to, _ := strings.Cut(c.To, ".")
			names = append(names, to)
		case c.To:
			_, from, _ := strings.Cut(c.Definition, ".")
			names = append(names, from)
		}
	}
	return names
}

// writeChange writes one definition's change as compare and changedBy show
// it: its action, kind and name (and new name), then a line per field.
func writeChange(b *strings.Builder, c defchange.DefChange) {
	fmt.Fprintf(b, "  %s:%s %s", c.Action, c.Kind, c.Definition)
	if c.To != "" {
		fmt.Fprintf(b, " -> %s", c.To)
	}
	b.WriteString("\n")
	for _, f := range c.Fields {
		fmt.Fprintf(b, "    %s: %s -> %s\n", f.Path, shown(f.Old), shown(f.New))
	}
}
