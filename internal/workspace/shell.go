package workspace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"strings"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/history"
	"github.com/tent-tools/tent-tools/policy"
)

// This file judges what a command run in the project folder (the shell
// tool) changed: found by the same walk as changes made outside, judged
// after it ran as a tool's write is judged, and recorded as one point of
// the kind shell or put back.

// KeepCommandChanges finds the files a command run in the project folder
// (shell, labelled label) changed, judges them by the policy and records
// them as one point of the kind shell (0 and no files where it changed
// nothing). A refused change is put back from the history. noAsk refuses
// what the policy's ask names without asking (the call has ended). The
// view must hold the write lock and be settled (Enter), from before the
// command ran.
func (w *Workspace) KeepCommandChanges(ctx context.Context, label string, noAsk bool) (int, []string, error) {
	if !w.settled {
		return 0, nil, fmt.Errorf("keep a command's changes: the workspace was not settled before the command ran")
	}
	hs, err := w.HistoryStore(ctx)
	if err != nil {
		return 0, nil, err
	}
	disk, err := w.tracked(ctx)
	if err != nil {
		return 0, nil, err
	}
	known, _, err := w.state.load(ctx, hs, false)
	if err != nil {
		return 0, nil, err
	}
	seen := w.compareDisk(disk, known, nil)
	if seen.none() {
		return 0, nil, w.restamp(ctx, hs, seen.restamp)
	}
	p := &history.Point{Time: w.Now(), Who: w.opts.Caller, Agent: w.opts.Agent, Kind: history.KindShell,
		Turn: w.opts.Turn, Tool: "shell", Done: true, Call: w.opts.Call}
	blobs, state := w.outsidePoint(ctx, hs, p, seen)
	paths := seen.paths()
	p.Summary = "shell " + label + ": " + history.Summary(paths, 3)
	if err := w.judgeShell(ctx, label, paths, p, noAsk); err != nil {
		back, lost := w.putBack(ctx, hs, seen)
		var te *diag.ToolError
		if !errors.As(err, &te) {
			return 0, nil, err
		}
		te.Message = strings.TrimSuffix(te.Message, "; nothing was written")
		if len(lost) > 0 {
			te.Message += fmt.Sprintf("; the command's changes were put back from the history but %s, which could not be: %s",
				strings.Join(lost, ", "), "restore it from a copy of your own")
		} else {
			te.Message += "; the command's changes were put back from the history"
		}
		return 0, nil, te.With("putBack", back).With("notPutBack", lost)
	}
	n, err := w.recordSeen(ctx, hs, p, blobs, state)
	return n, paths, err
}

// judgeShell judges the files a command changed as a tool's write is
// judged: engine.ts only where also names engine, then the policy's
// rules, and the person where ask names them.
func (w *Workspace) judgeShell(ctx context.Context, label string, paths []string, p *history.Point, noAsk bool) error {
	if !w.opts.Policy.Lets(policy.AlsoEngine) {
		for _, f := range paths {
			if strings.EqualFold(f, engineFile) {
				return diag.Errorf(diag.T9105, "refused: the command changed %s, which only the policy's also %q lets; nothing was written", f, policy.AlsoEngine).With("path", f)
			}
		}
	}
	ask, err := w.opts.Policy.Judge(paths, p.Changes)
	if err != nil {
		return err
	}
	if len(ask) > 0 && noAsk {
		return diag.Errorf(diag.T3103, "the call ended before the person could be asked to keep what shell %s changed; nothing was written", label).With("asked", ask)
	}
	return w.approve(ctx, "keep what shell "+label+" changed", ask)
}

// putBack puts the files a refused command changed back as the history
// keeps them: changed and gone files get their contents back, new files
// are deleted. It returns the files put back and those it could not
// (their contents were too large to keep, or the disk refused).
func (w *Workspace) putBack(ctx context.Context, hs *history.Store, seen diskChanges) (back, lost []string) {
	back, lost = []string{}, []string{}
	restore := func(p string) {
		was := seen.known[p]
		data, ok, err := hs.Blob(ctx, was.Hash)
		if err != nil || !ok {
			lost = append(lost, p)
			return
		}
		if dir := path.Dir(p); dir != "." {
			if err := w.fsys.MkdirAll(dir, 0o755); err != nil {
				lost = append(lost, p)
				return
			}
		}
		// A link or folder the command put in the file's place goes first:
		// the file comes back as the file it was, not through a link.
		if info, err := w.fsys.Lstat(p); err == nil && !info.Mode().IsRegular() {
			if err := w.fsys.RemoveAll(p); err != nil {
				lost = append(lost, p)
				return
			}
		}
		if err := w.fsys.WriteFile(p, data, 0o644); err != nil {
			lost = append(lost, p)
			return
		}
		back = append(back, p)
	}
	for _, c := range seen.changed {
		p := c.state.Path
		if _, existed := seen.known[p]; existed {
			restore(p)
			continue
		}
		if err := w.fsys.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			lost = append(lost, p)
			continue
		}
		back = append(back, p)
	}
	for _, p := range seen.gone {
		restore(p)
	}
	return back, lost
}
