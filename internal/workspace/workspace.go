// Package workspace owns one project folder's state, as gopls's cache
// does, below the tools (package tools) that act on it: the folder handle
// and its one path resolver (Resolve, resolve.go; every write reached one
// folder at a time without following a link, dirfd.go), the walks of the
// project's files (walk.go, statwalk.go, on internal/projectfiles), the
// index and its cache .tent/index (index.go), an editor's overlays
// (overlay.go), watching the folder (watch.go), change events (events.go),
// the locks (locks.go), the journal (journal.go), changes made outside
// the tools and by a shell command (outside.go, shell.go), the change
// pipeline (Apply and CommitStage, apply.go; an editor's own saves,
// expect.go), the history, notes, runner and browser handles, and the
// Options a view carries.
//
// Its invariants, which every tool relies on:
//
//   - Every file is opened through the folder's os.Root (FS, ReadFile)
//     after Resolve has accepted its path; nothing opens a path of the
//     disk by itself.
//   - Every change of a project file reaches the disk through the
//     pipeline (Apply, CommitStage): staged in memory, read again as
//     definitions, judged by the agent's policy, asked of the person
//     where the policy says so, committed through the journal, recorded
//     as a point. A refusal writes nothing.
//   - Every call settles the workspace first (Enter): a change cut short
//     is finished, changes made outside are recorded; writes run one
//     after another and reads never see half of a change, also across
//     processes.
//   - The index is an immutable snapshot; a new one shares every file
//     that did not change.
package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tent-tools/tent-tools/check"
	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/history"
	"github.com/tent-tools/tent-tools/internal/sqlitefile"
	"github.com/tent-tools/tent-tools/notes"
	"github.com/tent-tools/tent-tools/runner"
)

// Workspace is one project folder that tools act on, as one caller and
// agent see it (its Options). Views of one folder made by With share
// everything but the options: the index, the locks, the history. Its
// methods are safe for concurrent use; tools that write run one after
// another, also across processes (Enter holds the workspace's write lock
// for them), and tools that only read never see half of a change.
type Workspace struct {
	*folder
	opts Options
	tool string // the tool that Enter made this view for, for its point
	// settled is set on the view Enter made for a tool that writes,
	// which holds the write lock and has settled the workspace (finished
	// a change cut short, recorded changes made outside) before the tool
	// runs.
	settled bool
	// historyQuiet is set by settle where nothing wrote the history since
	// the last whole Refresh asked it (quiet.go): the settle, and Refresh's
	// tellOthers, ask it nothing. stamps are the history's files as
	// settle found them, before it asked.
	historyQuiet bool
	stamps       historyStamps
	// scanned is the walk that settling made, which the index's look at
	// the disk in the same call takes instead of walking again.
	scanned map[string]history.FileState
	// scannedAt is when that walk began (Unix nanoseconds), scannedMark
	// the watchers' news then (news.go).
	scannedAt   int64
	scannedMark uint64
	// scannedWalk is the files of scanned where ColdStamps walked (with
	// the links it found and the .gitignore texts it followed), for the
	// index's build in the same call (definitions.Walked); nil otherwise.
	scannedWalk *definitions.Walked
	// startTexts are the texts of the files the index may hold that the
	// first call read to record the starting state (recordStart), after
	// the walk in scanned: the index's look in the same call takes them
	// instead of reading each file again.
	startTexts map[string][]byte
}

// folder is what the views of one project folder share.
type folder struct {
	root string   // the folder's absolute path, links resolved
	fsys *os.Root // every open goes through it: it cannot leave the folder
	// noExchange is set once the folder's filesystem refused to swap two
	// names (journal.go's putInPlace): its commits rename from then on.
	noExchange atomic.Bool

	index   indexCache
	overlay overlays     // an editor's unsaved texts (overlay.go)
	events  events       // who hears of every change (events.go)
	expect  expects      // changes planned for an editor to save (expect.go)
	news    news         // what the watchers heard, for a watched folder's looks (news.go)
	walks   atomic.Int64 // the stat walks of the whole folder made (statWalk), for tests
	memos   memo         // answers computed from the newest snapshot (memo.go)
	locks   locks
	state   stateCache
	quiet   historyQuiet // the history's stamps as the last whole Refresh found them (quiet.go)
	ops     FileOps      // renames and removals into place; nil: noFollow (tests fail them on purpose)

	rulesMu sync.Mutex
	rules   *ignores // the .gitignore rules that statWalk keeps between calls

	storeMu sync.Mutex
	points  *history.Store // .tent/history.db, opened on first use
	notes   *notes.Store   // .tent/notes.db, opened on first use

	runMu sync.Mutex
	run   *runner.Runner // runs, rows, logs and resets; made on first use

	shotMu    sync.Mutex
	shots     *Browser // the browser of shot's pictures (handles.go)
	ownsShots bool     // whether Close closes it: not where it is shared

	checkMu sync.Mutex
	checks  int            // the checks run on the folder so far
	checker *check.Checker // the incremental check, from the second check on (check.go)
}

// New makes the state of the project folder dir. The folder must exist.
// Nothing in it is read or written until a tool runs.
func New(dir string, opts Options) (*Workspace, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("open workspace %s: %w", dir, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("open workspace %s: no such folder", dir)
	}
	if err != nil {
		return nil, fmt.Errorf("open workspace %s: %w", dir, err)
	}
	info, err := os.Stat(real)
	if err != nil {
		return nil, fmt.Errorf("open workspace %s: %w", dir, err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("open workspace %s: not a folder", dir)
	}
	fsys, err := os.OpenRoot(real)
	if err != nil {
		return nil, fmt.Errorf("open workspace %s: %w", dir, err)
	}
	return &Workspace{folder: &folder{root: real, fsys: fsys}, opts: opts}, nil
}

// With returns a view of the same folder with other options: another
// caller, agent, policy, turn or approver. The view shares the index, the
// locks and the history; closing either closes both.
func (w *Workspace) With(opts Options) *Workspace {
	return &Workspace{folder: w.folder, opts: opts}
}

// Close writes the index cache where the index changed since it was last
// written, and releases the workspace's folder handle, its lock files,
// its databases and its runner's.
func (w *Workspace) Close() error {
	w.saveIndex()
	var errs []error
	w.runMu.Lock()
	if w.run != nil {
		errs = append(errs, w.run.Close())
		w.run = nil
	}
	w.runMu.Unlock()
	w.shotMu.Lock()
	if w.shots != nil && w.ownsShots {
		errs = append(errs, w.shots.Close())
	}
	w.shots = nil
	w.shotMu.Unlock()
	w.storeMu.Lock()
	defer w.storeMu.Unlock()
	if w.points != nil {
		errs = append(errs, w.points.Close())
		w.points = nil
	}
	if w.notes != nil {
		errs = append(errs, w.notes.Close())
		w.notes = nil
	}
	errs = append(errs, w.locks.close(), w.fsys.Close())
	return errors.Join(errs...)
}

// Root returns the project folder's absolute path, with links resolved.
func (w *Workspace) Root() string { return w.root }

// Options returns the options the workspace (this view) was opened with.
func (w *Workspace) Options() Options { return w.opts }

// Now is the time a point is recorded at.
func (w *Workspace) Now() time.Time {
	if w.opts.Now != nil {
		return w.opts.Now()
	}
	return time.Now()
}

// stateDir makes sure .tent/ is a real folder of the project (not a link
// that could lead the databases elsewhere: T9105, openState) and returns
// its path on the disk. Every use of .tent/ (the history, the notes, the
// locks, the runner's test database, run log and cache) passes here first.
func (w *Workspace) stateDir() (string, error) {
	d, err := w.openState()
	if err != nil {
		return "", err
	}
	d.Close()
	return filepath.Join(w.root, stateFolder), nil
}

// historyStarted reports whether the workspace's history is open or
// stands on the disk (.tent/history.db).
func (w *Workspace) historyStarted() bool {
	w.storeMu.Lock()
	open := w.points != nil
	w.storeMu.Unlock()
	if open {
		return true
	}
	_, err := w.fsys.Lstat(stateFolder + "/" + history.File)
	return err == nil
}

// HistoryStore returns the workspace's points, opening .tent/history.db on
// first use.
func (w *Workspace) HistoryStore(ctx context.Context) (*history.Store, error) {
	return openStateDB(ctx, w, &w.points, history.File, history.OpenIn)
}

// NoteStore returns the workspace's notes, opening .tent/notes.db on first use.
func (w *Workspace) NoteStore(ctx context.Context) (*notes.Store, error) {
	return openStateDB(ctx, w, &w.notes, notes.File, notes.OpenIn)
}

// openStateDB returns *held, the store of the database file of .tent/,
// opening it by open on first use. It is opened through the folder held
// open: a swap of .tent/ for a link after this cannot redirect the
// database (sqlitefile.OpenIn).
func openStateDB[S comparable](ctx context.Context, w *Workspace, held *S, file string,
	open func(ctx context.Context, dir *os.File, dirPath string) (S, error)) (S, error) {
	w.storeMu.Lock()
	defer w.storeMu.Unlock()
	var none S
	if *held != none {
		return *held, nil
	}
	if err := noLink(w.fsys, stateFolder+"/"+file); err != nil {
		return none, err
	}
	dir, err := w.openState()
	if err != nil {
		return none, err
	}
	s, err := open(ctx, dir.f, filepath.Join(w.root, stateFolder))
	dir.Close()
	if err != nil {
		return none, w.StateDBError(file, err)
	}
	*held = s
	return s, nil
}

// StateDBError turns the error of opening the database name of .tent/
// into the tool error it means: one made by a newer release is T9113 (it
// is left as it is); a damaged one is kept aside (name.damaged-TIME) and
// reported with T9112, never silently started over: the next call makes a
// new one. A file that cannot be written is T9110.
func (w *Workspace) StateDBError(name string, err error) error {
	rel := stateFolder + "/" + name
	switch {
	case errors.Is(err, sqlitefile.ErrRedirected):
		return refuse(stateFolder, "%s/ was swapped for a link while %s was opened (%v); the framework keeps its state in a real folder of the project: remove the link and run the tool again", stateFolder, rel, err)
	case errors.Is(err, sqlitefile.ErrNewer):
		return diag.Errorf(diag.T9113, "%s was %v; update tent-tools to use this project (the file is left as it is)", rel, err).With("path", rel)
	case errors.Is(err, sqlitefile.ErrDamaged):
		aside, kerr := sqlitefile.KeepAside(filepath.Join(w.root, rel), w.Now())
		if kerr != nil {
			return diag.Errorf(diag.T9112, "%s is damaged (%v), and it could not be kept aside: %v; move it away by hand to start anew", rel, err, kerr).With("path", rel)
		}
		kept, _ := filepath.Rel(w.root, aside)
		return diag.Errorf(diag.T9112, "%s is damaged (%v); it is kept as %s for you to look at or restore, and the next call starts it anew (empty)",
			rel, err, filepath.ToSlash(kept)).With("path", rel).With("kept", filepath.ToSlash(kept))
	case errors.Is(err, fs.ErrPermission), strings.Contains(err.Error(), "readonly"), strings.Contains(err.Error(), "read-only"):
		return diag.Errorf(diag.T9110, "%s may not be written (%v)", rel, err).With("path", rel)
	}
	return err
}

// noLink refuses a state file that is a link: the framework's databases
// are its own files, never a way out of the project.
func noLink(fsys *os.Root, rel string) error {
	info, err := fsys.Lstat(rel)
	if err == nil && info.Mode()&fs.ModeSymlink != 0 {
		return refuse(rel, "%s is a link; the framework keeps its state in its own files: remove the link (rm %s) and run the tool again", rel, rel)
	}
	return nil
}

// FS is the project folder as an os.Root: every open of a tool goes
// through it, after Resolve accepted the path.
func (w *Workspace) FS() *os.Root { return w.fsys }

// Enter begins one call of the tool named tool on the workspace and
// answers the view the tool runs on and the release to call when it ends.
//
// A tool that writes runs under the workspace's write lock, one after
// another also across processes, after the workspace is settled (a change
// a crash cut short is finished, changes made outside the tools are
// recorded as a point); entering a view that is settled already answers
// it as it is. A tool that only reads runs under the shared commit lock,
// so it never sees half of a change; it records what changed outside
// first where no write is under way (a write does it itself) and the
// history has started: reading a project (map, search, check) makes no
// .tent/history.db, and the first write records the files as it finds
// them.
func (w *Workspace) Enter(ctx context.Context, tool string, writes bool) (view *Workspace, release func(), err error) {
	if writes && w.settled {
		return w, func() {}, nil
	}
	view = &Workspace{folder: w.folder, opts: w.opts, tool: tool}
	if writes {
		unlock, err := w.lockWrite()
		if err != nil {
			return nil, nil, err
		}
		if err := view.settle(ctx); err != nil {
			unlock()
			return nil, nil, err
		}
		view.settled = true
		return view, unlock, nil
	}
	if view.historyStarted() {
		if unlock, ok := w.tryLockWrite(); ok {
			err := view.settle(ctx)
			unlock()
			// A reader of a folder it cannot write still reads, and one
			// of a history of a newer release (which it leaves as it
			// is); a damaged history, just kept aside, is the reader's
			// error too, never read past as if it were empty.
			if te := (*diag.ToolError)(nil); errors.As(err, &te) && te.Code == diag.T9112 {
				return nil, nil, err
			}
		}
	}
	unlock, err := w.lockRead()
	if err != nil {
		return nil, nil, err
	}
	return view, unlock, nil
}

// SetFileOps makes the commits of every view of the folder rename and
// delete files through ops; nil puts back the folder's own. It is for
// tests that fail or slow a commit on purpose, to see a change put back
// whole or a crash between two renames finished by the next call.
func (w *Workspace) SetFileOps(ops FileOps) { w.ops = ops }
