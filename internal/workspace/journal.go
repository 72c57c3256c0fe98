package workspace

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"
	"golang.org/x/sys/unix"

	"github.com/tent-tools/tent-tools/defchange"
	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/history"
	"github.com/tent-tools/tent-tools/internal/durable"
)

// The journal of a change is its point, recorded as not done before any
// file is touched, and the new texts written beside it in .tent/tmp/, named
// by the point's journal id and each file's path. This file writes
// changes through it and finishes the changes a crash cut short.

// tmpFolder holds new texts between their write and their rename into place.
const tmpFolder = stateFolder + "/tmp"

// MaxKept bounds the contents the history keeps (for undo): what write
// writes at most. A larger file's change is recorded by its hash alone.
const MaxKept = MaxText

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
// Where the history keeps every new text (none is over MaxKept), the texts
// are synced while the point's commit is synced, at once: a crash that
// loses a text after the point is recorded is finished from the history.
// A larger text is synced, with its name, before the point is recorded.
// Either way every text is durable before the first rename (syncTexts):
// a rename that reached the disk before its text would leave a file that
// holds neither text.
func (w *Workspace) commitFiles(ctx context.Context, st *Stage, changes []defchange.DefChange) (int, error) {
	hs, err := w.HistoryStore(ctx)
	if err != nil {
		return 0, err
	}
	journal, err := newJournalID()
	if err != nil {
		return 0, err
	}
	tmpDir, err := w.openState("tmp")
	if err != nil {
		return 0, fmt.Errorf("journal: %w", err)
	}
	defer tmpDir.Close()
	cleanup := func() {
		for _, f := range st.files {
			if f.tmp != "" {
				tmpDir.remove(path.Base(f.tmp))
				f.tmp = ""
			}
		}
	}
	kept := true
	for _, f := range st.files {
		if !f.gone {
			f.tmp = journalName(journal, f.rel)
			kept = kept && len(f.data) <= MaxKept
		}
	}
	whole := len(st.files) >= syncFSFrom && syncWholeFS()
	spares := listSpares(tmpDir)
	writeTexts := func() error {
		var g errgroup.Group
		g.SetLimit(8)
		for _, f := range st.files {
			if !f.gone {
				g.Go(func() error { return writeJournal(tmpDir, spares, f, !whole) })
			}
		}
		if err := g.Wait(); err != nil {
			return err
		}
		return syncTexts(tmpDir, st, whole)
	}
	if !kept {
		if err := writeTexts(); err != nil {
			cleanup()
			return 0, err
		}
		if !whole {
			tmpDir.sync() // the only copy of a large text: its name must last
		}
	}

	p := &history.Point{
		Time: w.Now(), Who: w.opts.Caller, Agent: w.opts.Agent, Kind: st.Kind, Turn: w.opts.Turn,
		Tool: w.tool, Summary: st.Summary, Changes: changes, Undid: st.Undid, Journal: journal,
		Call: w.opts.Call,
	}
	if p.Kind == "" {
		p.Kind = history.KindCommand
	}
	blobs := map[string][]byte{}
	var next, prev history.StateChange
	known, err := w.knownState(ctx, hs)
	if err != nil {
		cleanup()
		return 0, err
	}
	for _, f := range st.files {
		fc := history.FileChange{Path: f.rel}
		if f.existed {
			fc.Before = history.Hash(f.old)
			if len(f.old) <= MaxKept {
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
			if len(f.data) <= MaxKept {
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
	if err := w.renameIntoPlace(st, spares); err != nil {
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

// syncWholeFS says the journal may sync its texts, and the folders it
// renames them into, by one syncfs of their filesystem (durable.SyncFS)
// rather than one fsync each; a benchmark turns it off to compare.
var syncWholeFS = durable.WholeFS

// syncFSFrom is the number of files from which a change syncs by syncfs:
// a smaller change syncs each file, which costs a few fsyncs and does not
// wait for other programs' writes on the same filesystem (syncfs does).
const syncFSFrom = 16

// syncTexts makes the stage's new texts in .tent/tmp/ (the folder tmpDir)
// durable with their names: where whole, by one syncfs of the filesystem
// that holds them (the files were written unsynced; where the call fails,
// each is synced after all); otherwise writeJournal synced each.
func syncTexts(tmpDir *dirHandle, st *Stage, whole bool) error {
	if !whole {
		return nil
	}
	if err := durable.SyncFS(tmpDir.f); err == nil {
		return nil
	}
	var names []string
	for _, f := range st.files {
		if !f.gone {
			names = append(names, path.Base(f.tmp))
		}
	}
	if err := durable.SyncEach(names, func(name string) (*os.File, error) { return tmpDir.openFile(name, os.O_RDONLY, 0) }); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	tmpDir.sync()
	return nil
}

// writeJournal writes a file's new text into .tent/tmp/ (the folder
// tmpDir), into a spare of the pool where one serves (spares.go) or a new
// file, with the file's mode, synced where sync is set (else syncTexts
// syncs them all), and stamps it (a rename or an exchange keeps the
// stamp).
func writeJournal(tmpDir *dirHandle, spares *sparePool, f *stagedFile, sync bool) error {
	mode := f.mode
	if mode == 0 {
		mode = 0o644
	}
	out := spares.open(path.Base(f.tmp))
	reused := out != nil
	if !reused {
		var err error
		out, err = tmpDir.openFile(path.Base(f.tmp), os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
		if err != nil {
			return fmt.Errorf("write %s: %w", f.rel, err)
		}
	}
	defer out.Close()
	if _, err := out.Write(f.data); err != nil {
		return fmt.Errorf("write %s: %w", f.rel, err)
	}
	if reused { // a spare's old text may be longer
		if err := out.Truncate(int64(len(f.data))); err != nil {
			return fmt.Errorf("write %s: %w", f.rel, err)
		}
	}
	if err := out.Chmod(mode); err != nil { // the umask may have cut the mode
		return fmt.Errorf("write %s: %w", f.rel, err)
	}
	if sync {
		if err := out.Sync(); err != nil {
			return fmt.Errorf("write %s: %w", f.rel, err)
		}
	}
	info, err := out.Stat()
	if err != nil {
		return fmt.Errorf("write %s: %w", f.rel, err)
	}
	f.stamp = stateOf(f.rel, info)
	return nil
}

// FileOps is what a commit does to the disk when it renames the new texts
// into place and deletes files: by default the folder's own, which reach
// each folder without following a link; tests set one that fails or
// pauses on purpose (SetFileOps).
type FileOps interface {
	Rename(oldname, newname string) error
	Remove(name string) error
}

// Exchanger is a FileOps that can also swap two files, each taking the
// other's name, where the platform can (Linux's renameat2 with
// RENAME_EXCHANGE): a commit swaps each new text with the file it
// replaces and keeps the old file as a spare (spares.go), instead of
// renaming over it. Its error, where it cannot (no file at newname, a
// filesystem that refuses), makes the commit rename.
type Exchanger interface {
	Exchange(oldname, newname string) error
}

// DiskOps returns the FileOps a commit uses by default, which reaches each
// folder without following a link and swaps where the platform can
// (Exchanger): for a test's FileOps to wrap.
func (w *Workspace) DiskOps() FileOps { return noFollow{w} }

// noFollow renames and removes the workspace's files by resolved paths,
// reaching each one's folder without following a link (openDir), so that
// a folder swapped for a link since Resolve makes the write fail instead of
// landing elsewhere.
type noFollow struct{ w *Workspace }

// Rename renames the file at the resolved path from to the resolved path
// to, whose folders are made where missing.
func (o noFollow) Rename(from, to string) error {
	h := newHeldDirs(o.w) // its folders reached anew, for this one
	defer h.Close()
	return h.Rename(from, to)
}

// Exchange swaps the files at the resolved paths from and to, whose
// folders must exist.
func (o noFollow) Exchange(from, to string) error {
	h := newHeldDirs(o.w) // its folders reached anew, for this one
	defer h.Close()
	return h.Exchange(from, to)
}

// Remove removes the file at the resolved path rel; a file (or folder on
// the way) already missing is no error.
func (o noFollow) Remove(rel string) error {
	dir, name := splitRel(rel)
	d, err := o.w.openDir(dir, false)
	if isCode(err, diag.T9103) || isCode(err, diag.T9102) {
		return nil
	}
	if err != nil {
		return err
	}
	defer d.Close()
	return d.remove(name)
}

// syncDir makes the renames in the resolved folder rel durable; best effort.
func (w *Workspace) syncDir(rel string) {
	if d, err := w.openDir(rel, false); err == nil {
		d.sync()
		d.Close()
	}
}

// syncDirs makes the renames and removals in the resolved folders dirs
// durable, for a change of files files; best effort. Where syncfs serves
// (syncWholeFS, at least syncFSFrom files), one syncfs of the project
// root's filesystem covers every folder on it, and only a folder on
// another filesystem (a mount inside the project) is synced by itself;
// otherwise each folder is.
func (w *Workspace) syncDirs(dirs map[string]bool, files int) {
	if len(dirs) == 0 {
		return
	}
	if files < syncFSFrom || !syncWholeFS() {
		for d := range dirs {
			w.syncDir(d)
		}
		return
	}
	root, err := w.openDir(".", false)
	if err != nil {
		return
	}
	defer root.Close()
	var rootStat unix.Stat_t
	if unix.Fstat(root.fd(), &rootStat) != nil || durable.SyncFS(root.f) != nil {
		for d := range dirs {
			w.syncDir(d)
		}
		return
	}
	for rel := range dirs {
		d, err := w.openDir(rel, false)
		if err != nil {
			continue
		}
		var st unix.Stat_t
		if unix.Fstat(d.fd(), &st) != nil || st.Dev != rootStat.Dev {
			d.sync()
		}
		d.Close()
	}
}

// renameIntoPlace puts the stage's new texts in place of their paths
// (putInPlace: swapped with the old files, which the pool spares keeps,
// or renamed over them) and deletes the files it deletes; then syncs the
// folders. A failure puts back what was done from the old texts in
// memory.
func (w *Workspace) renameIntoPlace(st *Stage, spares *sparePool) error {
	if w.ops != nil {
		return w.renameWith(st, w.ops, spares)
	}
	held := newHeldDirs(w)
	defer held.Close()
	return w.renameWith(st, held, spares)
}

// heldDirs is noFollow for the renames of one commit: each folder is
// reached once, without following a link, and its handle kept until the
// commit's renames are done, where noFollow reached each folder again
// for every file (a rename of hundreds of files opened thousands of
// folders). A folder swapped for a link after it was reached does not
// lead the renames elsewhere: they go into the folder that was reached.
type heldDirs struct {
	w    *Workspace
	dirs map[string]*dirHandle // by resolved path
}

// newHeldDirs returns the folders of w, none reached yet.
func newHeldDirs(w *Workspace) *heldDirs {
	return &heldDirs{w: w, dirs: map[string]*dirHandle{}}
}

// dir returns the folder rel, reached on first use (and made where
// missing, where mkdir is set).
func (h *heldDirs) dir(rel string, mkdir bool) (*dirHandle, error) {
	if d, ok := h.dirs[rel]; ok {
		return d, nil
	}
	d, err := h.w.openDir(rel, mkdir)
	if err != nil {
		return nil, err
	}
	h.dirs[rel] = d
	return d, nil
}

// Rename renames the file at the resolved path from to the resolved path
// to, as noFollow.Rename does.
func (h *heldDirs) Rename(from, to string) error {
	return h.between(from, to, true, func(src *dirHandle, fromName string, dst *dirHandle, toName string) error {
		return src.rename(fromName, dst, toName)
	})
}

// Exchange swaps the files at the resolved paths from and to, as
// noFollow.Exchange does.
func (h *heldDirs) Exchange(from, to string) error {
	return h.between(from, to, false, exchange)
}

// between reaches the folders of the resolved paths from and to (the
// second made where missing, where mkdir is set) and does op with them and
// the two names.
func (h *heldDirs) between(from, to string, mkdir bool, op func(src *dirHandle, fromName string, dst *dirHandle, toName string) error) error {
	fromDir, fromName := splitRel(from)
	toDir, toName := splitRel(to)
	src, err := h.dir(fromDir, false)
	if err != nil {
		return err
	}
	dst, err := h.dir(toDir, mkdir)
	if err != nil {
		return err
	}
	return op(src, fromName, dst, toName)
}

// Remove removes the file at the resolved path rel, as noFollow.Remove does.
func (h *heldDirs) Remove(rel string) error {
	return noFollow{h.w}.Remove(rel)
}

// Close closes the folders reached.
func (h *heldDirs) Close() {
	for _, d := range h.dirs {
		d.Close()
	}
}

func (w *Workspace) renameWith(st *Stage, ops FileOps, spares *sparePool) error {
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
				err = noFollow{w}.Remove(f.rel)
			}
			if err != nil {
				failed = append(failed, f.rel)
			}
		}
		for _, f := range st.files {
			if f.tmp != "" {
				noFollow{w}.Remove(f.tmp)
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
		if !dirs[dirOf(f.rel)] { // made where missing, once a folder
			if d, err := w.openDir(dirOf(f.rel), true); err != nil {
				return putBack(fmt.Errorf("write %s: %w", f.rel, err))
			} else {
				d.Close()
			}
		}
		if err := w.putInPlace(ops, spares, f); err != nil {
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
	w.syncDirs(dirs, len(st.files))
	return nil
}

// putInPlace puts the new text of f, waiting at its journal name, in place
// of f's path. Where ops can swap two files (Exchanger) and the workspace's
// filesystem has not refused to, the two are swapped: the journal name
// then holds the old file, which spares keeps or removes (keep). Where
// there is no file to swap with (a new file), or the swap fails otherwise,
// the new text is renamed over the path, as a platform without the swap
// does; a filesystem that cannot swap (exchangeUnsupported) is not asked
// again. A folder found swapped out is swapped back: a new text never
// replaces a folder.
func (w *Workspace) putInPlace(ops FileOps, spares *sparePool, f *stagedFile) error {
	ex, ok := ops.(Exchanger)
	if ok && !w.noExchange.Load() {
		err := ex.Exchange(f.tmp, f.rel)
		if err == nil {
			name := path.Base(f.tmp)
			var st unix.Stat_t
			if unix.Fstatat(spares.dir.fd(), name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFDIR {
				if err := ex.Exchange(f.tmp, f.rel); err != nil {
					return fmt.Errorf("%s is a folder, and putting it back failed: %w", f.rel, err)
				}
				return diag.Errorf(diag.T9102, "%s is a folder, not a file", f.rel).With("path", f.rel)
			}
			spares.keep(name)
			return nil
		}
		if exchangeUnsupported(err) {
			w.noExchange.Store(true)
		}
	}
	return ops.Rename(f.tmp, f.rel)
}

// finishPending finishes the changes that a crash cut short: for each
// point recorded but not done, every new text still waiting in .tent/tmp/
// is renamed into place and every file it deletes is deleted; the point is
// then done. (A change cut short before its point was recorded touched no
// file: its texts in .tent/tmp/ are only removed.) It runs under the write
// lock, before anything else.
//
// The history is a file on the disk, and a planted point must not become a
// way to write what no tool may: every pending point is verified whole
// before anything is written (verifyPending), and one that cannot be is
// refused with T9111, nothing written.
func (w *Workspace) finishPending(ctx context.Context, hs *history.Store) error {
	pending, err := hs.Pending(ctx)
	if err != nil {
		return err
	}
	tmpDir, err := w.openState("tmp")
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	defer tmpDir.Close()
	if len(pending) > 0 {
		unlock, err := w.lockCommit()
		if err != nil {
			return err
		}
		defer unlock()
		plans := make([][]finishStep, len(pending))
		for i, p := range pending {
			if plans[i], err = w.verifyPending(ctx, hs, tmpDir, p); err != nil {
				return err
			}
			if err := w.judgePending(ctx, p, plans[i]); err != nil {
				return err
			}
		}
		for i, p := range pending {
			if err := w.finish(tmpDir, plans[i]); err != nil {
				return fmt.Errorf("finish point %d, cut short: %w", p.N, err)
			}
			if err := hs.MarkDone(ctx, p.N, nil); err != nil {
				return err
			}
		}
		w.state.forget()
		w.index.forget()
		w.news.distrust() // the walks see what the finished change wrote
	}
	return clearTmp(tmpDir)
}

// finishStep is what is left to do for one file of a point cut short.
type finishStep struct {
	rel    string
	remove bool   // the point deletes the file
	tmp    string // the name of its whole new text waiting in .tent/tmp/
	data   []byte // else its new text from the history, where the file does not hold it

	existed bool   // the file is on the disk now
	old     []byte // its text now, where it is still to be written or removed
	text    []byte // the new text still to be written (tmp's or data)
}

// verifyPending checks a point found not done before anything of it is
// written, and says what is left to do. Every path must be one that a tool
// may write (Resolve for a write: no link on the way, not .tent/ or .git/,
// no framework file, engine.ts only where the policy's also names engine),
// and every file must hold the text the point found or the one it wrote;
// a new text must be at hand whole (waiting in .tent/tmp/ or kept by the
// history, its hash checked). Otherwise T9111.
func (w *Workspace) verifyPending(ctx context.Context, hs *history.Store, tmpDir *dirHandle, p *history.Point) ([]finishStep, error) {
	refused := func(format string, args ...any) error {
		return diag.Errorf(diag.T9111, "the change cut short at point %d (%s) cannot be finished: %s; nothing was written. "+
			"If no tool of yours made it, .tent/history.db was changed by hand: move it aside (the history starts over)",
			p.N, p.Summary, fmt.Sprintf(format, args...)).With("point", p.N)
	}
	var steps []finishStep
	for _, f := range p.Files {
		rel, err := w.Resolve(f.Path, true)
		if err != nil {
			return nil, refused("%v", err)
		}
		if rel != f.Path {
			return nil, refused("%s leads to %s through a link", f.Path, rel)
		}
		cur, _, err := w.ReadFile(rel, MaxFile, func(int64) error { return errTooLarge })
		exists := err == nil
		if err != nil && !isCode(err, diag.T9103) {
			return nil, refused("%s cannot be read: %v", rel, err)
		}
		curHash := ""
		if exists {
			curHash = history.Hash(cur)
		}
		if curHash != f.Before && curHash != f.After {
			return nil, refused("%s holds neither the text the point found nor the one it wrote", rel)
		}
		step := finishStep{rel: rel, existed: exists}
		if exists {
			step.old = cur
		}
		switch {
		case f.After == "":
			step.remove = exists
		case curHash == f.After:
			// Renamed into place before the crash.
			step.old = nil
		default:
			tmp := journalName(p.Journal, f.Path)
			if text, err := readIn(tmpDir, path.Base(tmp)); err == nil && history.Hash(text) == f.After {
				step.tmp, step.text = path.Base(tmp), text
				break
			}
			data, ok, err := hs.Blob(ctx, f.After)
			if err != nil {
				return nil, err
			}
			if !ok || history.Hash(data) != f.After {
				return nil, refused("the new text of %s is lost (too large for the history to keep, or not the text recorded)", rel)
			}
			step.data, step.text = data, data
		}
		steps = append(steps, step)
	}
	return steps, nil
}

// judgePending holds what is left of a point cut short against the
// policy, as its tool's write was held: the files still to write and the
// definition changes their texts make (computed here, never taken from
// the point, which may have been planted), deny refusing (T9111, nothing
// written) and ask asking the person again. The point keeps the author,
// agent and time it recorded: finishing it is not a new change.
func (w *Workspace) judgePending(ctx context.Context, p *history.Point, steps []finishStep) error {
	var paths []string
	oldTexts, newTexts := map[string][]byte{}, map[string][]byte{}
	var fileChanges []defchange.DefChange
	for _, s := range steps {
		if !s.remove && s.tmp == "" && s.data == nil {
			continue // its file holds the new text already
		}
		paths = append(paths, s.rel)
		action := defchange.Change
		switch {
		case s.remove:
			action = defchange.Remove
		case !s.existed:
			action = defchange.Add
		}
		if indexCandidate(s.rel) {
			if s.existed {
				oldTexts[s.rel] = s.old
			}
			if !s.remove {
				newTexts[s.rel] = s.text
			}
		}
		fileChanges = append(fileChanges, defchange.DefChange{Definition: s.rel, Kind: defchange.KindFile, Action: action, Fields: []defchange.Field{}})
	}
	if len(paths) == 0 {
		return nil
	}
	before := definitions.FromFiles(ctx, oldTexts).Files()
	after := definitions.FromFiles(ctx, newTexts).Files()
	changes := append(defchange.Diff(before, after, nil), fileChanges...)
	summary := fmt.Sprintf("finish the change cut short at point %d (%s)", p.N, p.Summary)
	ask, err := w.opts.Policy.Judge(paths, changes)
	if err != nil {
		why := err.Error()
		var te *diag.ToolError
		if errors.As(err, &te) {
			why = strings.TrimSuffix(te.Message, "; nothing was written")
		}
		return diag.Errorf(diag.T9111, "the change cut short at point %d (%s) cannot be finished: %s; nothing was written. "+
			"If no tool of yours made it, .tent/history.db was changed by hand: move it aside (the history starts over)",
			p.N, p.Summary, why).With("point", p.N)
	}
	return w.approve(ctx, summary, ask)
}

// readIn reads the whole file name in the folder d, following no link.
func readIn(d *dirHandle, name string) ([]byte, error) {
	f, err := d.openFile(name, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, MaxFile+1))
}

// finish does what verifyPending found left of one point: a new text
// waiting whole in .tent/tmp/ is renamed into place, a text kept by the
// history is written, a deleted file is deleted.
func (w *Workspace) finish(tmpDir *dirHandle, steps []finishStep) error {
	dirs := map[string]bool{}
	for _, s := range steps {
		dirs[dirOf(s.rel)] = true
		switch {
		case s.remove:
			if err := (noFollow{w}).Remove(s.rel); err != nil {
				return err
			}
		case s.tmp != "":
			dirRel, name := splitRel(s.rel)
			dst, err := w.openDir(dirRel, true)
			if err != nil {
				return err
			}
			err = tmpDir.rename(s.tmp, dst, name)
			dst.Close()
			if err != nil {
				return err
			}
		case s.data != nil:
			if _, err := w.writeFile(s.rel, s.data); err != nil {
				return err
			}
		}
	}
	w.syncDirs(dirs, len(steps))
	return nil
}

// clearTmp removes what is left in .tent/tmp/ (the folder tmpDir) but the
// spares (clearSpares): texts of changes that never recorded their point,
// journal names a crash left. It removes files only, and a link as a
// link; a folder there is T9112, for a person to look at.
func clearTmp(tmpDir *dirHandle) error {
	if _, err := tmpDir.f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	entries, err := tmpDir.f.ReadDir(-1)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	for _, e := range entries {
		if e.IsDir() {
			rel := tmpFolder + "/" + e.Name()
			return diag.Errorf(diag.T9112, "%s is a folder; the journal keeps only files in %s/ and wrote none there: remove it (rm -r %s) and run the tool again",
				rel, tmpFolder, rel).With("path", rel)
		}
	}
	for _, name := range clearSpares(entries) {
		if err := tmpDir.remove(name); err != nil {
			return fmt.Errorf("journal: %w", err)
		}
	}
	return nil
}
