package tools

import (
	"context"
	"fmt"

	"github.com/tent-tools/tent-tools/check"
	"github.com/tent-tools/tent-tools/internal/words"
	"github.com/tent-tools/tent-tools/model"
)

// ModelInput is the input of model: none.
type ModelInput struct{}

func init() {
	register(Tool{
		Name:     "model",
		Summary:  "The app as data for a visual editor: tables with columns, indexes and rows, functions with what they read and write, flows with steps, screens with routes, findings' counts and ranges; what the change tool edits",
		NewInput: func() any { return new(ModelInput) },
		Answer:   model.Model{},
		ReadOnly: true,
		Local:    true,
		Run: func(ctx context.Context, w *Workspace, in any) (Answer, error) {
			return w.model(ctx)
		},
	})
}

// model answers the model of the project (package model, tent/model in
// the language server): its data is the model, ranges in UTF-16
// units as LSP counts by default. The version is the workspace's
// (workspace.Version).
func (w *Workspace) model(ctx context.Context) (Answer, error) {
	ix, err := w.Index(ctx)
	if err != nil {
		return Answer{}, err
	}
	version, err := w.Version(ctx)
	if err != nil {
		return Answer{}, err
	}
	m := model.Build(ix, model.Options{Version: version, Findings: model.CountFindings(w.CheckIndex(ctx, ix, check.Options{}))})
	name := "the project"
	if m.Project != nil && m.Project.Name != "" {
		name = m.Project.Name
	}
	text := fmt.Sprintf("%s (version %d): %s, %s, %s, %s; %s, %s\n", name, m.Version,
		words.Count(len(m.Tables), "table"), words.Count(len(m.Functions), "function"),
		words.Count(len(m.Flows), "flow"), words.Count(len(m.Screens), "screen"),
		words.Count(m.Findings.Errors, "error"), words.Count(m.Findings.Warnings, "warning"))
	return Answer{Text: text + "the model is the answer's data (the change tool edits it)\n", Data: m}, nil
}
