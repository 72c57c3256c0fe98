package tools

import (
	"context"
	"fmt"

	"github.com/tent-tools/tent-tools/check"
	"github.com/tent-tools/tent-tools/model"
	"github.com/tent-tools/tent-tools/outline"
	"github.com/tent-tools/tent-tools/remove"
	"github.com/tent-tools/tent-tools/rename"
	"github.com/tent-tools/tent-tools/runner"
)

// The typed calls of a Go host: one method per tool, taking the tool's
// input and answering its data (the JSON answer of each tool's page in docs/pages/ as
// a Go value). Each runs as Call runs the tool: the same registration,
// the same locks and settling (a tool that writes under the write lock, one
// that reads under the shared commit lock), the same panic guard. Where a
// host wants the text for a model as well, Call answers both.

// The answers named by the tools of other packages.
type (
	// CheckAnswer is check's answer: the findings, counted by severity.
	CheckAnswer = check.Answer
	// MapAnswer is map's answer: the outline of the project.
	MapAnswer = outline.Map
	// RenameAnswer is rename's answer: what was renamed, the lines
	// changed, the code sites left, the point.
	RenameAnswer = rename.Answer
	// RemoveAnswer is remove's answer: what was removed, the lines
	// changed, the files deleted, the code sites left, the point.
	RemoveAnswer = remove.Answer
	// ModelAnswer is model's answer: the app as data for a visual editor.
	ModelAnswer = model.Model
	// RunAnswer is run's answer: the function's or flow's result, its
	// logs and what it wrote.
	RunAnswer = runner.Result
	// RowsAnswer is rows's answer: a table's rows in the test database.
	RowsAnswer = runner.Rows
	// LogsAnswer is logs's answer: the run log's entries.
	LogsAnswer = runner.Logs
	// EditAnswer is edit's answer: the file, its changed lines, the point.
	EditAnswer = Changed
	// WriteAnswer is write's answer: the file, its changed lines, whether
	// it was created, the point.
	WriteAnswer = Changed
)

// ShotAnswer is shot's answer: the picture, or with HTML the page (the
// other is nil).
type ShotAnswer struct {
	Picture *ShotPicture
	Page    *ShotPage
}

// typed runs the registered tool name on the input in (a pointer of its
// NewInput's type) and answers its data as an A.
func typed[A any](ctx context.Context, w *Workspace, name string, in any) (*A, error) {
	t, ok := Lookup(name)
	if !ok {
		return nil, fmt.Errorf("tools: no tool %s is registered", name) // a bug of this file
	}
	ans, err := w.invoke(ctx, t, in)
	if err != nil {
		return nil, err
	}
	return dataOf[A](name, ans.Data)
}

// dataOf is a tool's data answer as an A, whether the tool answered the
// value or a pointer to it.
func dataOf[A any](name string, data any) (*A, error) {
	switch d := data.(type) {
	case *A:
		return d, nil
	case A:
		return &d, nil
	}
	return nil, fmt.Errorf("tools: %s answered a %T, not a %T", name, data, *new(A))
}

// ChangedBy answers the point that last changed a line or a definition
// (the changedBy tool).
func (w *Workspace) ChangedBy(ctx context.Context, in ChangedByInput) (*ChangedByAnswer, error) {
	return typed[ChangedByAnswer](ctx, w, "changedBy", &in)
}

// Change edits the app by operations, all or none, as one point (the
// change tool).
func (w *Workspace) Change(ctx context.Context, in ChangeInput) (*ChangeAnswer, error) {
	return typed[ChangeAnswer](ctx, w, "change", &in)
}

// Check answers the project's findings (the check tool).
func (w *Workspace) Check(ctx context.Context, in CheckInput) (*CheckAnswer, error) {
	return typed[CheckAnswer](ctx, w, "check", &in)
}

// Compare answers what changed in the definitions between two points
// (the compare tool).
func (w *Workspace) Compare(ctx context.Context, in CompareInput) (*CompareAnswer, error) {
	return typed[CompareAnswer](ctx, w, "compare", &in)
}

// Docs answers a page of the shipped docs (the docs tool).
func (w *Workspace) Docs(ctx context.Context, in DocsInput) (*DocsAnswer, error) {
	return typed[DocsAnswer](ctx, w, "docs", &in)
}

// Edit replaces texts in a file (the edit tool).
func (w *Workspace) Edit(ctx context.Context, in EditInput) (*EditAnswer, error) {
	return typed[EditAnswer](ctx, w, "edit", &in)
}

// History answers the points of the history (the history tool).
func (w *Workspace) History(ctx context.Context, in HistoryInput) (*HistoryAnswer, error) {
	return typed[HistoryAnswer](ctx, w, "history", &in)
}

// Keys answers the keys of the agent's notes (the keys tool).
func (w *Workspace) Keys(ctx context.Context, in KeysInput) (*KeysAnswer, error) {
	return typed[KeysAnswer](ctx, w, "keys", &in)
}

// List answers the entries of a folder (the list tool).
func (w *Workspace) List(ctx context.Context, in ListInput) (*ListAnswer, error) {
	return typed[ListAnswer](ctx, w, "list", &in)
}

// Logs answers the run log (the logs tool).
func (w *Workspace) Logs(ctx context.Context, in LogsInput) (*LogsAnswer, error) {
	return typed[LogsAnswer](ctx, w, "logs", &in)
}

// Map answers the outline of the project (the map tool).
func (w *Workspace) Map(ctx context.Context, in MapInput) (*MapAnswer, error) {
	return typed[MapAnswer](ctx, w, "map", &in)
}

// Model answers the app as data for a visual editor (the model tool).
func (w *Workspace) Model(ctx context.Context, in ModelInput) (*ModelAnswer, error) {
	return typed[ModelAnswer](ctx, w, "model", &in)
}

// Move moves a file and the imports that name it (the move tool).
func (w *Workspace) Move(ctx context.Context, in MoveInput) (*MoveAnswer, error) {
	return typed[MoveAnswer](ctx, w, "move", &in)
}

// Read answers lines of a file (the read tool).
func (w *Workspace) Read(ctx context.Context, in ReadInput) (*ReadAnswer, error) {
	return typed[ReadAnswer](ctx, w, "read", &in)
}

// Recall answers a note of the agent (the recall tool).
func (w *Workspace) Recall(ctx context.Context, in RecallInput) (*RecallAnswer, error) {
	return typed[RecallAnswer](ctx, w, "recall", &in)
}

// Remember keeps a note of the agent (the remember tool).
func (w *Workspace) Remember(ctx context.Context, in RememberInput) (*RememberAnswer, error) {
	return typed[RememberAnswer](ctx, w, "remember", &in)
}

// Remove removes a definition, a column or a file (the remove tool).
func (w *Workspace) Remove(ctx context.Context, in RemoveInput) (*RemoveAnswer, error) {
	return typed[RemoveAnswer](ctx, w, "remove", &in)
}

// Rename renames a definition or a column (the rename tool).
func (w *Workspace) Rename(ctx context.Context, in RenameInput) (*RenameAnswer, error) {
	return typed[RenameAnswer](ctx, w, "rename", &in)
}

// Reset rebuilds the test database from the test data (the reset tool).
func (w *Workspace) Reset(ctx context.Context, in ResetInput) (*ResetAnswer, error) {
	return typed[ResetAnswer](ctx, w, "reset", &in)
}

// Rows answers a table's rows in the test database (the rows tool).
func (w *Workspace) Rows(ctx context.Context, in RowsInput) (*RowsAnswer, error) {
	return typed[RowsAnswer](ctx, w, "rows", &in)
}

// Run runs a function or a flow on the test database (the run tool).
func (w *Workspace) Run(ctx context.Context, in RunInput) (*RunAnswer, error) {
	return typed[RunAnswer](ctx, w, "run", &in)
}

// Search answers the lines that hold a text or a pattern (the search
// tool).
func (w *Workspace) Search(ctx context.Context, in SearchInput) (*SearchAnswer, error) {
	return typed[SearchAnswer](ctx, w, "search", &in)
}

// Shell runs a command in the project folder, its changes judged and
// recorded (the shell tool).
func (w *Workspace) Shell(ctx context.Context, in ShellInput) (*ShellAnswer, error) {
	return typed[ShellAnswer](ctx, w, "shell", &in)
}

// Shot takes a picture of a screen, or with HTML answers its page (the
// shot tool).
func (w *Workspace) Shot(ctx context.Context, in ShotInput) (*ShotAnswer, error) {
	t, ok := Lookup("shot")
	if !ok {
		return nil, fmt.Errorf("tools: no tool shot is registered")
	}
	ans, err := w.invoke(ctx, t, &in)
	if err != nil {
		return nil, err
	}
	if page, err := dataOf[ShotPage]("shot", ans.Data); err == nil {
		return &ShotAnswer{Page: page}, nil
	}
	pic, err := dataOf[ShotPicture]("shot", ans.Data)
	if err != nil {
		return nil, err
	}
	return &ShotAnswer{Picture: pic}, nil
}

// Undo puts back the newest change, or the change of a point (the undo
// tool).
func (w *Workspace) Undo(ctx context.Context, in UndoInput) (*UndoAnswer, error) {
	return typed[UndoAnswer](ctx, w, "undo", &in)
}

// Write writes a file's whole text (the write tool).
func (w *Workspace) Write(ctx context.Context, in WriteInput) (*WriteAnswer, error) {
	return typed[WriteAnswer](ctx, w, "write", &in)
}
