// Package tools is the engine's one door: the registry of the tools (Call,
// strict JSON input, the schemas of inputs and answers, each tool's facts)
// and the tools themselves, one file each (read.go, edit.go, rename.go,
// search.go, shell.go, shot.go, ...). Every face calls a tool through Call
// or a typed method (typed.go) on a Workspace opened with Open.
//
// A tool holds no state of its own: the project's state (the path
// resolver, the index, overlays, events, locks, the journal, the change
// pipeline, the history) is package internal/workspace's, and a tool
// reaches it only through that package's exported API. Every file a tool
// reads is opened through the workspace's os.Root after Resolve accepted
// its path; every change a tool makes goes through the workspace's
// pipeline (Apply, CommitStage).
//
// Architecture invariant: no exported name of this package lets a host
// write a project file but a tool. Workspace holds the state in an
// unexported field; what it exports reads the state, or keeps an editor's
// buffers and watching, and never writes the folder.
package tools

import (
	"context"
	"io"

	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/check"
	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/workspace"
)

// Workspace is one project folder that tools act on, as one caller and
// agent see it. It holds a view of the folder's state (package
// internal/workspace); the tools are its typed methods (typed.go), each
// run as Call runs it. Its methods are safe for concurrent use.
type Workspace struct {
	state *workspace.Workspace
	// log is where a tool's recovered panic is logged with its stack; nil
	// means stderr (a test alone sets it).
	log io.Writer
}

// Open opens the project folder dir as a workspace. The folder must exist.
// Nothing in it is read or written until a tool runs. (Each layer opens
// under its own name: workspace.New makes the state this holds, host.Open
// a host's folder of many workspaces.)
func Open(dir string, opts Options) (*Workspace, error) {
	state, err := workspace.New(dir, opts)
	if err != nil {
		return nil, err // it names the folder and what is wrong with it
	}
	return &Workspace{state: state}, nil
}

// With returns a view of the same folder with other options: another
// caller, agent, policy, turn or approver. The view shares the index, the
// locks and the history; closing either closes both.
func (w *Workspace) With(opts Options) *Workspace {
	return &Workspace{state: w.state.With(opts), log: w.log}
}

// Close writes the index cache where the index changed since it was last
// written, and releases the folder handle, the lock files, the databases
// and the runner's.
func (w *Workspace) Close() error { return w.state.Close() }

// Root is the project folder's absolute path, with links resolved.
func (w *Workspace) Root() string { return w.state.Root() }

// Options are the options this view was opened with.
func (w *Workspace) Options() Options { return w.state.Options() }

// Index is the project's index now: the disk's files as they are, with an
// editor's overlays (SetOverlay) in place of their files. An index is an
// immutable snapshot.
func (w *Workspace) Index(ctx context.Context) (*definitions.Index, error) {
	return w.state.Index(ctx)
}

// DiskIndex is the index of the disk's files, without the overlays.
func (w *Workspace) DiskIndex(ctx context.Context) (*definitions.Index, error) {
	return w.state.DiskIndex(ctx)
}

// WatchedIndex is Index for a face that watches the folder (Watch): the
// files the watcher saw change are read again, the others trusted.
func (w *Workspace) WatchedIndex(ctx context.Context) (*definitions.Index, error) {
	return w.state.WatchedIndex(ctx)
}

// CheckIndex answers the check's findings of a snapshot, through the
// folder's incremental checker once it keeps one (KeepChecks).
func (w *Workspace) CheckIndex(ctx context.Context, ix *definitions.Index, opts check.Options) []diag.Finding {
	return w.state.CheckIndex(ctx, ix, opts)
}

// KeepChecks makes the folder keep its incremental checker from the next
// check on, for a face that checks on every keystroke.
func (w *Workspace) KeepChecks() { w.state.KeepChecks() }

// Refresh records changes made outside the tools since the last call (a
// point of the kind outside), as the next tool would.
func (w *Workspace) Refresh(ctx context.Context) error { return w.state.Refresh(ctx) }

// SetOverlay holds an editor's unsaved text of a project file in place of
// its file: the index, check and read see it, and a tool's write of the
// file is refused while it differs from the disk (T9120). It answers the
// path as the workspace names it. The file itself is not written.
func (w *Workspace) SetOverlay(path string, text []byte) (string, error) {
	return w.state.SetOverlay(path, text)
}

// DropOverlay forgets an editor's text of a file (its buffer closed).
func (w *Workspace) DropOverlay(path string) { w.state.DropOverlay(path) }

// Subscribe tells fn of each change of the project (Event) until cancel.
func (w *Workspace) Subscribe(fn func(Event)) (cancel func()) { return w.state.Subscribe(fn) }

// Watch watches the folder for changes made outside the tools, for a
// long-lived face; onError hears what the watcher could not watch.
func (w *Workspace) Watch(onError func(error)) (*Watcher, error) { return w.state.Watch(onError) }

// WatchByEditor is Watch for a face whose editor watches the folder and
// tells of each change (Watcher.Heard): a call looks only at the files
// told of, and walks the folder whole now and then.
func (w *Workspace) WatchByEditor(onError func(error)) *Watcher {
	return w.state.WatchByEditor(onError)
}

// Resolve holds a path to the workspace's one path resolver (T9105 where
// it is refused; forWrite adds the rules of writing: framework files,
// engine.ts) and answers it as the workspace names it. It opens nothing.
func (w *Workspace) Resolve(p string, forWrite bool) (string, error) {
	return w.state.Resolve(p, forWrite)
}

// PlanChange runs a change set through the pipeline up to the judgement
// (the policy, the person asked) on the texts it was planned on, and
// writes nothing: the editor applies the plan and saves, and its saves
// are recorded as one point. For a face whose editor writes its files.
func (w *Workspace) PlanChange(ctx context.Context, ix *definitions.Index, s *change.Set) (*Plan, error) {
	return w.state.PlanChange(ctx, ix, s)
}

// Version is the workspace's version: it grows with every change of the
// project (a tool's, an editor's saves, one made outside once seen) and
// never goes back; a visual editor's model carries it.
func (w *Workspace) Version(ctx context.Context) (int, error) { return w.state.Version(ctx) }

// ShareBrowser makes the workspace take its pictures (shot) in b, which
// the caller closes; its own browser, if it started one, is closed.
func (w *Workspace) ShareBrowser(b *Browser) error { return w.state.ShareBrowser(b) }

// NewTurn starts a turn of an agent (the points of its tools carry the
// turn's number) and answers its number.
func (w *Workspace) NewTurn(ctx context.Context, caller, agent string) (int, error) {
	return w.state.NewTurn(ctx, caller, agent)
}

// Plan is a change judged and not written (PlanChange): what the editor
// must apply.
type Plan = workspace.Plan

// PlannedFile is one file of a Plan.
type PlannedFile = workspace.PlannedFile

// Progress hears how far a piece of long work has come (package
// workspace), named here for the faces that show it.
type Progress = workspace.Progress

// Browser is the browser that shot's pictures are taken in (package
// workspace), named here for a host that shares one among workspaces.
type Browser = workspace.Browser

// NewBrowser makes a Browser; nothing starts until the first picture.
func NewBrowser() *Browser { return workspace.NewBrowser() }

// Event is one change of the project told to a subscriber (package
// workspace), named here for the long-lived faces that listen.
type Event = workspace.Event

// Watcher watches the project folder for a long-lived face (package
// workspace).
type Watcher = workspace.Watcher
