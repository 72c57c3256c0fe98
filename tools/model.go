package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/tent-tools/tent-tools/check"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/words"
	"github.com/tent-tools/tent-tools/model"
)

// ModelInput is the input of model: one definition to keep to (its
// name, of any kind), and how many of each list to skip (an agent's
// answer holds budgetModelItems of each, and its more says the from of
// the next ones).
type ModelInput struct {
	Name string `json:"name,omitempty"`
	From int    `json:"from,omitempty"`
}

func init() {
	register(Tool{
		Name:     "model",
		Summary:  "The app as data for a visual editor: tables with columns, indexes and rows, functions with what they read and write, flows with steps, screens with routes, findings' counts and ranges; what the change tool edits",
		NewInput: func() any { return new(ModelInput) },
		Answer:   model.Model{},
		ReadOnly: true,
		Local:    true,
		Run: func(ctx context.Context, w *Workspace, in any) (Answer, error) {
			return w.model(ctx, *in.(*ModelInput))
		},
	})
}

// model answers the model of the project (package model, tent/model in
// the language server): its data is the model, ranges in UTF-16
// units as LSP counts by default. The version is the workspace's
// (workspace.Version).
func (w *Workspace) model(ctx context.Context, in ModelInput) (Answer, error) {
	if in.From < 0 {
		return Answer{}, diag.Errorf(diag.T9102, "bad input: from %d: give 0 or more", in.From).With("field", "from")
	}
	ix, err := w.Index(ctx)
	if err != nil {
		return Answer{}, err
	}
	version, err := w.Version(ctx)
	if err != nil {
		return Answer{}, err
	}
	m := model.Build(ix, model.Options{Version: version, Findings: model.CountFindings(w.CheckIndex(ctx, ix, check.Options{}))})
	if in.Name != "" {
		m.Tables = named(m.Tables, in.Name, func(t model.Table) string { return t.Name })
		m.Functions = named(m.Functions, in.Name, func(f model.Function) string { return f.Name })
		m.Flows = named(m.Flows, in.Name, func(f model.Flow) string { return f.Name })
		m.Screens = named(m.Screens, in.Name, func(s model.Screen) string { return s.Name })
	}
	bounded := w.Options().Bounded
	rest := fmt.Sprintf("model with from %d shows the next of each list; name keeps to one definition; map is the whole app in brief", in.From+budgetModelItems)
	m.Tables = nonNilList(bound(bounded, &m.More, "tables", m.Tables, in.From, budgetModelItems, rest, true))
	m.Functions = nonNilList(bound(bounded, &m.More, "functions", m.Functions, in.From, budgetModelItems, rest, true))
	m.Flows = nonNilList(bound(bounded, &m.More, "flows", m.Flows, in.From, budgetModelItems, rest, true))
	m.Screens = nonNilList(bound(bounded, &m.More, "screens", m.Screens, in.From, budgetModelItems, rest, true))
	name := "the project"
	if m.Project != nil && m.Project.Name != "" {
		name = m.Project.Name
	}
	text := fmt.Sprintf("%s (version %d): %s, %s, %s, %s; %s, %s\n", name, m.Version,
		words.Count(len(m.Tables), "table"), words.Count(len(m.Functions), "function"),
		words.Count(len(m.Flows), "flow"), words.Count(len(m.Screens), "screen"),
		words.Count(m.Findings.Errors, "error"), words.Count(m.Findings.Warnings, "warning"))
	var b strings.Builder
	b.WriteString(text + "the model is the answer's data (the change tool edits it)\n")
	writeMore(&b, m.More)
	return Answer{Text: b.String(), Data: m}, nil
}

// named keeps the items of list whose name is name.
func named[T any](list []T, name string, nameOf func(T) string) []T {
	var out []T
	for _, x := range list {
		if nameOf(x) == name {
			out = append(out, x)
		}
	}
	return out
}

// nonNilList is list, or an empty list for nil: the model's lists are
// never null.
func nonNilList[T any](list []T) []T {
	if list == nil {
		return []T{}
	}
	return list
}
