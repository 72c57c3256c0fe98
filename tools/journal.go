package tools

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"

	"golang.org/x/sync/errgroup"

	"github.com/tent-tools/tent-tools/defchange"
	"github.com/tent-tools/tent-tools/history"
)

// The journal of a change is its point, recorded as not done before any
// file is touched, and the new texts written beside it in .tent/tmp/, named
// by the point's journal id and each file's path. This file writes
// changes through it and finishes the changes a crash cut short.

// tmpFolder holds new texts between their write and their rename into place.
const tmpFolder = stateFolder + "/tmp"

// maxKept bounds the contents the history keeps (for undo): what write
// writes at most. A larger file's change is recorded by its hash alone.
const maxKept = MaxText

// journalName is where a file's new text waits in .tent/tmp/.
func journalName(journal, rel string) string {
	sum := sha256.Sum256([]byte(rel))
	return tmpFolder + "/" + journal + "." + hex.EncodeToString(sum[:8])
}

// newJournalID returns a new random journal id.
func newJournalID() (string, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("journal: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// commitFiles writes a judged stage through the journal and records its
// point: the new texts into .tent/tmp/ (synced, in parallel); then, under
// the commit lock, the point as not done (with the contents undo needs and
// the file state it leaves); the renames into place and the deletions; the
// point done. Where a rename fails, what was done is put back and the point
// taken back.
func (w *Workspace) commitFiles(ctx context.Context, st *stage, changes []defchange.DefChange) (int, error) {
	hs, err := w.history(ctx)
	if err != nil {
		return 0, err
	}
	journal, err := newJournalID()
	if err != nil {
		return 0, err
	}
	if err := w.fsys.MkdirAll(tmpFolder, 0o755); err != nil {
		return 0, fmt.Errorf("journal: %w", err)
	}
	cleanup := func() {
		for _, f := range st.files {
			if f.tmp != "" {
				w.fsys.Remove(f.tmp)
			}
		}
	}
	var g errgroup.Group
	g.SetLimit(8)
	for _, f := range st.files {
		if f.gone {
			continue
		}
		f.tmp = journalName(journal, f.rel)
		g.Go(func() error { return w.writeJournal(f) })
	}
	if err := g.Wait(); err != nil {
		cleanup()
		return 0, err
	}
	syncFolder(w.fsys, tmpFolder) // the texts must outlast a crash once the point says so

	p := &history.Point{
		Time: w.now(), Who: w.opts.Caller, Agent: w.opts.Agent, Kind: st.kind, Turn: w.opts.Turn,
		Tool: w.tool, Summary: st.summary, Changes: changes, Undid: st.undid, Journal: journal,
	}
	if p.Kind == "" {
		p.Kind = history.KindCommand
	}
	blobs := map[string][]byte{}
	var next, prev history.StateChange
	known, _ := w.knownState(ctx, hs)
	for _, f := range st.files {
		fc := history.FileChange{Path: f.rel}
		if f.existed {
			fc.Before = history.Hash(f.old)
			if len(f.old) <= maxKept {
				blobs[fc.Before] = f.old
			}
			if s, ok := known[f.rel]; ok {
				prev.Put = append(prev.Put, s)
			} else {
				prev.Delete = append(prev.Delete, f.rel)
			}
		} else {
			prev.Delete = append(prev.Delete, f.rel)
		}
		if f.gone {
			next.Delete = append(next.Delete, f.rel)
		} else {
			fc.After = history.Hash(f.data)
			if len(f.data) <= maxKept {
				blobs[fc.After] = f.data
			}
			f.stamp.Path, f.stamp.Hash = f.rel, fc.After
			next.Put = append(next.Put, f.stamp)
		}
		p.Files = append(p.Files, fc)
	}

	unlock, err := w.lockCommit()
	if err != nil {
		cleanup()
		return 0, err
	}
	defer unlock()
	n, err := hs.Record(ctx, p, blobs, next)
	if err != nil {
		cleanup()
		return 0, err
	}
	if err := w.renameIntoPlace(st); err != nil {
		if derr := hs.Drop(context.WithoutCancel(ctx), n, prev); derr != nil {
			return 0, fmt.Errorf("%w; and the point could not be taken back: %v", err, derr)
		}
		w.state.forget()
		return 0, err
	}
	if err := hs.MarkDone(context.WithoutCancel(ctx), n); err != nil {
		return 0, err
	}
	w.state.recorded(ctx, hs, next)
	return n, nil
}

// writeJournal writes a file's new text into .tent/tmp/, synced, with the
// file's mode, and stamps it (a rename keeps the stamp).
func (w *Workspace) writeJournal(f *stagedFile) error {
	mode := f.mode
	if mode == 0 {
		mode = 0o644
	}
	out, err := w.fsys.OpenFile(f.tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return fmt.Errorf("write %s: %w", f.rel, err)
	}
	defer out.Close()
	if _, err := out.Write(f.data); err != nil {
		return fmt.Errorf("write %s: %w", f.rel, err)
	}
	if err := out.Chmod(mode); err != nil { // the umask may have cut the mode
		return fmt.Errorf("write %s: %w", f.rel, err)
	}
	if err := out.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", f.rel, err)
	}
	info, err := out.Stat()
	if err != nil {
		return fmt.Errorf("write %s: %w", f.rel, err)
	}
	f.stamp = stateOf(f.rel, info)
	return nil
}

// fileOps is what renameIntoPlace does to the disk: the workspace's
// os.Root, or in tests one that fails on purpose.
type fileOps interface {
	Rename(oldname, newname string) error
	Remove(name string) error
}

// renameIntoPlace renames the stage's new texts over their paths and
// deletes the files it deletes; then syncs the folders. A failure puts back
// what was done from the old texts in memory.
func (w *Workspace) renameIntoPlace(st *stage) error {
	if w.ops != nil {
		return w.renameWith(st, w.ops)
	}
	return w.renameWith(st, w.fsys)
}

func (w *Workspace) renameWith(st *stage, ops fileOps) error {
	var done []*stagedFile
	putBack := func(cause error) error {
		var failed []string
		for i := len(done) - 1; i >= 0; i-- {
			f := done[i]
			var err error
			if f.existed {
				_, err = w.writeFile(f.rel, f.old)
				if err == nil {
					w.fsys.Chmod(f.rel, f.mode)
				}
			} else {
				err = w.fsys.Remove(f.rel)
			}
			if err != nil {
				failed = append(failed, f.rel)
			}
		}
		for _, f := range st.files {
			if f.tmp != "" {
				w.fsys.Remove(f.tmp)
			}
		}
		if len(failed) > 0 {
			return fmt.Errorf("apply: %w; putting back failed for %s", cause, strings.Join(failed, ", "))
		}
		return fmt.Errorf("apply: %w; nothing was changed", cause)
	}
	dirs := map[string]bool{}
	// New texts first, deletions after: a moved file is never missing from
	// both of its paths.
	for _, f := range st.files {
		if f.gone {
			continue
		}
		if err := w.fsys.MkdirAll(dirOf(f.rel), 0o755); err != nil {
			return putBack(fmt.Errorf("write %s: %w", f.rel, err))
		}
		if err := ops.Rename(f.tmp, f.rel); err != nil {
			return putBack(fmt.Errorf("write %s: %w", f.rel, err))
		}
		f.tmp = ""
		done = append(done, f)
		dirs[dirOf(f.rel)] = true
	}
	for _, f := range st.files {
		if !f.gone {
			continue
		}
		if err := ops.Remove(f.rel); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return putBack(fmt.Errorf("remove %s: %w", f.rel, err))
		}
		done = append(done, f)
		dirs[dirOf(f.rel)] = true
	}
	for d := range dirs {
		syncFolder(w.fsys, d)
	}
	return nil
}

// finishPending finishes the changes that a crash cut short: for each
// point recorded but not done, every new text still waiting in .tent/tmp/
// is renamed into place and every file it deletes is deleted; the point is
// then done. (A change cut short before its point was recorded touched no
// file: its texts in .tent/tmp/ are only removed.) It runs under the write
// lock, before anything else.
func (w *Workspace) finishPending(ctx context.Context, hs *history.Store) error {
	pending, err := hs.Pending(ctx)
	if err != nil {
		return err
	}
	if len(pending) > 0 {
		unlock, err := w.lockCommit()
		if err != nil {
			return err
		}
		defer unlock()
		for _, p := range pending {
			if err := w.finish(p); err != nil {
				return fmt.Errorf("finish point %d, cut short: %w", p.N, err)
			}
			if err := hs.MarkDone(ctx, p.N); err != nil {
				return err
			}
		}
		w.state.forget()
		w.index.forget()
	}
	return w.clearTmp()
}

// finish does what is left of one point's renames and deletions.
func (w *Workspace) finish(p *history.Point) error {
	dirs := map[string]bool{}
	for _, f := range p.Files {
		dirs[dirOf(f.Path)] = true
		if f.After == "" {
			if err := w.fsys.Remove(f.Path); err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
				return err
			}
			continue
		}
		tmp := journalName(p.Journal, f.Path)
		if _, err := w.fsys.Lstat(tmp); err != nil {
			continue // renamed into place before the crash
		}
		if err := w.fsys.MkdirAll(path.Dir(f.Path), 0o755); err != nil {
			return err
		}
		if err := w.fsys.Rename(tmp, f.Path); err != nil {
			return err
		}
	}
	for d := range dirs {
		syncFolder(w.fsys, d)
	}
	return nil
}

// clearTmp removes what is left in .tent/tmp/: texts of changes that never
// recorded their point.
func (w *Workspace) clearTmp() error {
	entries, err := fs.ReadDir(w.fsys.FS(), tmpFolder)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	for _, e := range entries {
		if err := w.fsys.Remove(tmpFolder + "/" + e.Name()); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("journal: %w", err)
		}
	}
	return nil
}
