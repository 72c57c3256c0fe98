package workspace

import (
	"context"
	"fmt"
	"os"
	"sync"

	"github.com/tent-tools/tent-tools/runner"
	"github.com/tent-tools/tent-tools/shot"
)

// This file holds the handles a workspace keeps for its tools: the runner
// of app code on the test database, and the browser of shot's pictures.

// Runner answers the workspace's runner, made on the first call that
// needs one and kept until Close, so that a host that keeps the workspace
// runs warm: the test database and the run log stay open, the model stays
// migrated, the bundles stay compiled. Nothing it keeps goes stale as the
// index moves on: the runner reads the model again from each new snapshot
// it is given (a snapshot is immutable, a new one is a new pointer), and a
// bundle is used only while every file it was built from has the same
// content hash.
func (w *Workspace) Runner() (*runner.Runner, error) {
	w.runMu.Lock()
	defer w.runMu.Unlock()
	// The runner keeps its files in .tent/: it must be the project's own
	// folder, judged on every call (a link put there later is refused too).
	if _, err := w.stateDir(); err != nil {
		return nil, err
	}
	for _, name := range []string{runner.TestDBFile, runner.LogFile, runner.CacheDir} {
		if err := noLink(w.fsys, stateFolder+"/"+name); err != nil {
			return nil, err
		}
	}
	if w.run != nil {
		return w.run, nil
	}
	r, err := runner.New(w.Root(), runner.Config{Progress: w.opts.Progress, StateDir: w.heldState})
	if err != nil {
		return nil, err
	}
	w.run = r
	return r, nil
}

// heldState opens .tent/ (made where missing) one name at a time from the
// root, following no link, for the runner to open its databases through
// (runner.Config.StateDir).
func (w *Workspace) heldState() (*os.File, error) {
	d, err := w.openState()
	if err != nil {
		return nil, err
	}
	return d.f, nil
}

// Browser is the browser that shot's pictures are taken in: started by
// the first picture, kept until Close, each picture a tab of it. A
// workspace has one of its own; a host that keeps many workspaces (the
// workspaces handle) gives them one to share (Workspace.ShareBrowser), so
// its shots, in whichever workspace, are tabs of one browser. It is safe
// for concurrent use.
type Browser struct {
	mu      sync.Mutex
	running *shot.Browser
	closed  bool
}

// NewBrowser makes a Browser; nothing starts until the first picture.
func NewBrowser() *Browser { return &Browser{} }

// get answers the running browser, starting it where none runs; progress
// hears of the start.
func (s *Browser) get(ctx context.Context, progress Progress) (*shot.Browser, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, fmt.Errorf("shot: the browser is closed")
	}
	if s.running != nil {
		return s.running, nil
	}
	_, end := progress.Begin("starting the browser", 0)
	b, err := shot.Start(ctx, shot.Config{})
	end()
	if err != nil {
		return nil, err
	}
	s.running = b
	return b, nil
}

// Close stops the browser, if it runs, and every process it started; a
// closed Browser starts no other (a picture asked of it fails).
func (s *Browser) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.running == nil {
		return nil
	}
	err := s.running.Close()
	s.running = nil
	return err
}

// ShareBrowser makes the workspace's pictures tabs of b, which the caller
// keeps and closes; a browser of the workspace's own is closed.
func (w *Workspace) ShareBrowser(b *Browser) error {
	w.shotMu.Lock()
	defer w.shotMu.Unlock()
	var err error
	if w.shots != nil && w.ownsShots {
		err = w.shots.Close()
	}
	w.shots, w.ownsShots = b, false
	return err
}

// ShotBrowser answers the workspace's browser: a shared one, or its own, made
// by the first picture and closed by Close.
func (w *Workspace) ShotBrowser(ctx context.Context) (*shot.Browser, error) {
	w.shotMu.Lock()
	if w.shots == nil {
		w.shots, w.ownsShots = NewBrowser(), true
	}
	b := w.shots
	w.shotMu.Unlock()
	return b.get(ctx, w.opts.Progress)
}

// Running answers the browser where one runs, nil where none was started
// (or it is closed); it starts none.
func (s *Browser) Running() *shot.Browser {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.running
}

// RunningBrowser answers the browser the workspace's pictures are taken in
// where one runs, nil where none was started; it starts none.
func (w *Workspace) RunningBrowser() *shot.Browser {
	w.shotMu.Lock()
	b := w.shots
	w.shotMu.Unlock()
	if b == nil {
		return nil
	}
	return b.Running()
}
