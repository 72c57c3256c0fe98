package tools

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/internal/words"
	"github.com/tent-tools/tent-tools/rename"
)

// RenameInput is the input of rename: a definition or a column
// ("orders.buyer") and its new name.
type RenameInput struct {
	Name string `json:"name"`
	To   string `json:"to"`
}

func init() {
	register(Tool{
		Name:       "rename",
		Summary:    "Renames a definition or a column (orders.buyer): the name, its was, every plain place; lists the code sites left",
		Writes:     true,
		NewInput:   func() any { return new(RenameInput) },
		Answer:     rename.Answer{},
		Additive:   true,
		Idempotent: true,
		Local:      true,
		Run: func(ctx context.Context, w *Workspace, in any) (Answer, error) {
			return w.rename(ctx, *in.(*RenameInput))
		},
	})
}

// Rename plans a rename on the workspace's index (package rename) and
// applies it (Apply). It answers the lines changed and the code sites left.
func (w *Workspace) rename(ctx context.Context, in RenameInput) (Answer, error) {
	ix, err := w.Index(ctx)
	if err != nil {
		return Answer{}, err
	}
	s, err := rename.Plan(ctx, ix, in.Name, in.To)
	if err != nil {
		return Answer{}, err
	}
	point, err := w.state.Apply(ctx, ix, s)
	if err != nil {
		return Answer{}, err
	}
	a, err := rename.NewAnswer(s)
	if err != nil {
		return Answer{}, err
	}
	a.Point = pointRef(point)
	a.Changed = bound(w.Options().Bounded, &a.More, "changed", a.Changed, 0, budgetLines, changedRest(point), false)
	a.Left = bound(w.Options().Bounded, &a.More, "left", a.Left, 0, budgetSites, leftRest(a.Name), false)
	var b strings.Builder
	fmt.Fprintf(&b, "renamed %s to %s", a.Name, a.To)
	if len(a.Was) > 0 {
		fmt.Fprintf(&b, " (was: %s)", strings.Join(a.Was, ", "))
	}
	b.WriteString("\n")
	writeChanged(&b, a.Changed)
	writeLeft(&b, a.Left, a.Name, "rename")
	writePoint(&b, point)
	writeMore(&b, a.More)
	return Answer{Text: b.String(), Data: a}, nil
}

// changedRest is how a bounded refactor's answer says to ask for the
// changed lines it left out: the point's changes, definition by
// definition, and the files themselves.
func changedRest(point int) string {
	if point == 0 {
		return "read shows the files"
	}
	return fmt.Sprintf("compare with from %d and to %d lists what the change did, definition by definition; read shows the files", point-1, point)
}

// leftRest is how a bounded refactor's answer says to ask for the code
// sites it left out: they still name name as text.
func leftRest(name string) string {
	return fmt.Sprintf("search for %q finds every place that names it; check finds those that broke", name)
}

// writeChanged writes the changed lines, grouped by file.
func writeChanged(b *strings.Builder, lines []change.Line) {
	if len(lines) == 0 {
		return
	}
	var files []string
	byFile := map[string][]string{}
	for _, l := range lines {
		if _, ok := byFile[l.Path]; !ok {
			files = append(files, l.Path)
		}
		if l.Line > 0 {
			byFile[l.Path] = append(byFile[l.Path], fmt.Sprint(l.Line))
		} else {
			byFile[l.Path] = append(byFile[l.Path], "moved here")
		}
	}
	fmt.Fprintf(b, "changed %s:\n", words.Count(len(files), "file"))
	for _, f := range files {
		fmt.Fprintf(b, "  %s: %s\n", f, strings.Join(byFile[f], ", "))
	}
}

// writeLeft writes the sites a refactor left, with what to do about them.
func writeLeft(b *strings.Builder, left []change.Site, name, action string) {
	if len(left) == 0 {
		fmt.Fprintf(b, "nothing left that names %s\n", name)
		return
	}
	fmt.Fprintf(b, "left %s that may still name %s (the %s did not change them; fix them with edit, then run check):\n",
		words.Count(len(left), "place"), name, action)
	// Written piece by piece: a column's rename may list thousands.
	for _, s := range left {
		b.WriteString("  ")
		b.WriteString(s.Path)
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(s.Line))
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(s.Col))
		b.WriteByte(' ')
		b.WriteString(s.Mark)
		b.WriteByte(' ')
		b.WriteString(s.Why)
		b.WriteString(": ")
		b.WriteString(strings.TrimSpace(s.Text))
		b.WriteByte('\n')
	}
}
