package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/check"
	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
)

// FixInput names a finding and the text its fix replaces: the finding's
// code and file, and the fix's place as the finding gave it (byte
// offsets) with the text it expects to stand there. The fix applied is
// the one the check offers now; where the text moved or the finding is
// gone, nothing is written (T9126).
type FixInput struct {
	Code string `json:"code"`
	Path string `json:"path"`
	// Start and End are the byte offsets of the text the fix replaces.
	Start int `json:"start"`
	End   int `json:"end"`
	// Old is the text the fix expects between Start and End ("" for a
	// fix that only inserts).
	Old string `json:"old"`
}

// FixAnswer is the data answer of fix: the finding fixed, the lines its
// fix changed, and the point recorded.
type FixAnswer struct {
	Code    string        `json:"code"`
	Path    string        `json:"path"`
	Title   string        `json:"title"`
	Changed []change.Line `json:"changed"`
	Point   *int          `json:"point"`
}

func init() {
	register(Tool{
		Name:       "fix",
		Summary:    "Applies a finding's certain fix, named by its code, file, place and the text it replaces; refused (T9126) where that text moved",
		Writes:     true,
		NewInput:   func() any { return new(FixInput) },
		Answer:     FixAnswer{},
		Additive:   true,
		Idempotent: true, // again, its text is gone: refused, nothing more changes
		Local:      true,
		Run: func(ctx context.Context, w *Workspace, in any) (Answer, error) {
			return w.fix(ctx, *in.(*FixInput))
		},
	})
}

// Fix applies a finding's fix (the fix tool).
func (w *Workspace) Fix(ctx context.Context, in FixInput) (*FixAnswer, error) {
	return typed[FixAnswer](ctx, w, "fix", &in)
}

// PlanFix plans the fix named by in on the snapshot ix, judged by nothing
// and written nowhere: the change set of the fix the check offers now,
// or T9126 where the text at its place is not in.Old or no finding of
// in.Code offers a fix there. For a face whose editor applies the edit
// itself (PlanChange judges it); the fix tool applies the same set.
func (w *Workspace) PlanFix(ctx context.Context, ix *definitions.Index, in FixInput) (*change.Set, *diag.Fix, error) {
	f := ix.File(in.Path)
	if f == nil {
		return nil, nil, diag.Errorf(diag.T9103, "%s is not a file of the project's index", in.Path).With("path", in.Path)
	}
	moved := func(why string) error {
		return diag.Errorf(diag.T9126, "the fix of %s in %s no longer applies: %s; nothing was written; check again for the fix of the text as it is now", in.Code, in.Path, why).
			With("path", in.Path).With("code", in.Code)
	}
	if in.Start < 0 || in.End < in.Start || in.End > len(f.Src) {
		return nil, nil, moved(fmt.Sprintf("the file is %d bytes now, and the fix's place is %d to %d", len(f.Src), in.Start, in.End))
	}
	if now := string(f.Src[in.Start:in.End]); now != in.Old {
		return nil, nil, moved(fmt.Sprintf("the text there is %q, not %q", shortText(now), shortText(in.Old)))
	}
	var found *diag.Finding
	for _, fd := range w.state.CheckIndex(ctx, ix, check.Options{}) {
		if fd.Code == in.Code && fd.Fix != nil && fd.Fix.Path == in.Path && fd.Fix.Start == in.Start && fd.Fix.End == in.End {
			found = &fd
			break
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	if found == nil {
		return nil, nil, moved("the check finds no " + in.Code + " with a fix at that place")
	}
	set, _, err := fixSet(ix, []diag.Finding{*found})
	if err != nil {
		return nil, nil, err
	}
	if set == nil {
		return nil, nil, moved("its fix falls outside the file")
	}
	return set, found.Fix, nil
}

// shortText shortens a text for a message, at a character.
func shortText(s string) string {
	for i := range s {
		if i >= 60 {
			return s[:i] + "…"
		}
	}
	return s
}

// fix plans the fix on the workspace's index (with an editor's buffers)
// and applies it through the pipeline.
func (w *Workspace) fix(ctx context.Context, in FixInput) (Answer, error) {
	ix, err := w.Index(ctx)
	if err != nil {
		return Answer{}, err
	}
	set, fix, err := w.PlanFix(ctx, ix, in)
	if err != nil {
		return Answer{}, err
	}
	point, err := w.state.Apply(ctx, ix, set)
	if err != nil {
		return Answer{}, err
	}
	changed, err := set.Changed()
	if err != nil {
		return Answer{}, err
	}
	if changed == nil {
		changed = []change.Line{}
	}
	a := FixAnswer{Code: in.Code, Path: in.Path, Title: fix.Title, Changed: changed, Point: pointRef(point)}
	var b strings.Builder
	fmt.Fprintf(&b, "fixed %s in %s: %s\n", in.Code, in.Path, fix.Title)
	writeChanged(&b, changed)
	writePoint(&b, point)
	return Answer{Text: b.String(), Data: a}, nil
}
