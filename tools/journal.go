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
	"sync"
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
// point: the new texts into .tent/tmp/ (synced, in parallel) and, under
// the commit lock, the point as not done (with the contents undo needs and
// the file state it leaves); then the renames into place and the
// deletions; then the point done, with the files' stamps. Where a rename
// fails, what was done is put back and the point taken back.
//
// Where the history keeps every new text (none is over maxKept), the texts
// are synced while the point's commit is synced, at once: a crash that
// loses a text after the point is recorded is finished from the history.
// A larger text is synced, with its name, before the point is recorded.
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
				f.tmp = ""
			}
		}
	}
	kept := true
	for _, f := range st.files {
		if !f.gone {
			f.tmp = journalName(journal, f.rel)
			kept = kept && len(f.data) <= maxKept
		}
	}
	writeTexts := func() error {
		var g errgroup.Group
		g.SetLimit(8)
		for _, f := range st.files {
			if !f.gone {
				g.Go(func() error { return w.writeJournal(f) })
			}
		}
		return g.Wait()
	}
	if !kept {
		if err := writeTexts(); err != nil {
			cleanup()
			return 0, err
		}
		syncFolder(w.fsys, tmpFolder) // the only copy of a large text: its name must last
	}

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
			// Stamped when written (MarkDone); a large text is written already.
			next.Put = append(next.Put, history.FileState{Path: f.rel, Hash: fc.After, Size: f.stamp.Size, MTime: f.stamp.MTime, Inode: f.stamp.Inode})
		}
		p.Files = append(p.Files, fc)
	}

	unlock, err := w.lockCommit()
	if err != nil {
		cleanup()
		return 0, err
	}
	defer unlock()
	var textErr error
	var texts sync.WaitGroup
	if kept {
		texts.Go(func() { textErr = writeTexts() })
	}
	n, err := hs.Record(ctx, p, blobs, next)
	texts.Wait()
	if err != nil {
		cleanup()
		return 0, err
	}
	if textErr != nil {
		cleanup()
		if derr := hs.Drop(context.WithoutCancel(ctx), n, prev); derr != nil {
			return 0, fmt.Errorf("%w; and the point could not be taken back: %v", textErr, derr)
		}
		w.state.forget()
		return 0, textErr
	}
	if err := w.renameIntoPlace(st); err != nil {
		if derr := hs.Drop(context.WithoutCancel(ctx), n, prev); derr != nil {
			return 0, fmt.Errorf("%w; and the point could not be taken back: %v", err, derr)
		}
		w.state.forget()
		return 0, err
	}
	var stamps []history.FileState
	for i, f := range st.files {
		if !f.gone {
			s := f.stamp
			s.Path, s.Hash = f.rel, p.Files[i].After
			stamps = append(stamps, s)
		}
	}
	if err := hs.MarkDone(context.WithoutCancel(ctx), n, stamps); err != nil {
		return 0, err
	}
	w.state.recorded(ctx, hs, history.StateChange{Put: stamps, Delete: next.Delete})
	w.emitPoint(n, p.Files, changes)
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
			if err := w.finish(ctx, hs, p); err != nil {
				return fmt.Errorf("finish point %d, cut short: %w", p.N, err)
			}
			if err := hs.MarkDone(ctx, p.N, nil); err != nil {
				return err
			}
		}
		w.state.forget()
		w.index.forget()
	}
	return w.clearTmp()
}

// finish does what is left of one point's renames and deletions: a new
// text still waiting whole in .tent/tmp/ is renamed into place; where none
// waits (it was renamed before the crash, or it was cut short, or a power
// cut lost it), the file must hold the point's text, else it is written
// from the history.
func (w *Workspace) finish(ctx context.Context, hs *history.Store, p *history.Point) error {
	dirs := map[string]bool{}
	for _, f := range p.Files {
		dirs[dirOf(f.Path)] = true
		if f.After == "" {
			if err := w.fsys.Remove(f.Path); err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
				return err
			}
			continue
		}
		if err := w.fsys.MkdirAll(path.Dir(f.Path), 0o755); err != nil {
			return err
		}
		// The text waiting in .tent/tmp/ may be cut short: it is written
		// while the point is recorded. Only a whole one is renamed.
		tmp := journalName(p.Journal, f.Path)
		if text, err := w.fsys.ReadFile(tmp); err == nil && history.Hash(text) == f.After {
			if err := w.fsys.Rename(tmp, f.Path); err != nil {
				return err
			}
			continue
		}
		if cur, err := w.fsys.ReadFile(f.Path); err == nil && history.Hash(cur) == f.After {
			continue
		}
		data, ok, err := hs.Blob(ctx, f.After)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("the new text of %s is lost (too large for the history to keep)", f.Path)
		}
		if _, err := w.writeFile(f.Path, data); err != nil {
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
