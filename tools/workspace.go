// Package tools is the registry of the tools (Register, Call, strict JSON
// input, the schemas of inputs and answers) and the tools themselves, one
// file each (read.go, edit.go, rename.go, search.go, shell.go, shot.go, ...).
// Every face calls a tool through Call on a Workspace opened with Open.
//
// A tool holds no state of its own: the project's state (the path
// resolver, the index, overlays, events, locks, the journal, the change
// pipeline, the history) is package workspace's, and a tool reaches it
// only through that package's exported API. Every file a tool reads is
// opened through the workspace's os.Root after Resolve accepted its path;
// every change a tool makes goes through the workspace's pipeline (Apply,
// CommitStage).
package tools

import "github.com/tent-tools/tent-tools/workspace"

// Workspace is one project folder that tools act on, as one caller and
// agent see it: a view of the folder's state (package workspace) that the
// tools are methods of. Its methods are safe for concurrent use.
type Workspace struct {
	*workspace.Workspace
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
	return &Workspace{state}, nil
}

// With returns a view of the same folder with other options: another
// caller, agent, policy, turn or approver. The view shares the index, the
// locks and the history; closing either closes both.
func (w *Workspace) With(opts Options) *Workspace {
	return &Workspace{w.Workspace.With(opts)}
}

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
