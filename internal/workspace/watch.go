package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// This file watches a project folder in a long-lived process (the language
// server): where a one-shot command stats every file at every call, a
// watcher hears of each change as it happens (fsnotify), waits until the
// changes stop for a moment, and then refreshes the workspace once
// (Refresh): changes made outside the tools are recorded as their point,
// an editor's saves of a planned change as theirs (expect.go), and the
// subscribers hear of it (events.go).

// watchQuiet is how long the watcher waits after the last change it
// heard before it looks: a save, a git checkout, a tool's commit come as
// bursts of events.
const watchQuiet = 40 * time.Millisecond

// Refresh looks at the disk now, as a call does before it runs: a change
// cut short is finished, changes made outside the tools are recorded (and
// told to the subscribers, as are the points other processes recorded
// since the last look), and the index follows the disk. Where another
// process is writing, Refresh waits for it.
func (w *Workspace) Refresh(ctx context.Context) error {
	unlock, err := w.lockWrite()
	if err != nil {
		return err
	}
	v := &Workspace{folder: w.folder, opts: w.opts}
	err = v.settle(ctx)
	if err == nil {
		err = v.tellOthers(ctx)
	}
	unlock()
	if err != nil {
		return fmt.Errorf("refresh %s: %w", w.root, err)
	}
	if _, err := v.diskIndex(ctx); err != nil {
		return err
	}
	return nil
}

// Watcher watches one workspace's folder until Close.
type Watcher struct {
	w      *Workspace
	fsw    *fsnotify.Watcher
	cancel context.CancelFunc
	done   chan struct{}
	// OnError is told what a refresh failed with; nil drops it.
	onError func(error)
}

// Watch starts watching the workspace's folder (every folder of it but
// .tent/, .git/ and node_modules/, and new folders as they appear) and
// refreshes the workspace after each burst of changes. onError, where not
// nil, hears what a refresh failed with. Close stops it.
func (w *Workspace) Watch(onError func(error)) (*Watcher, error) {
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", w.root, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	wt := &Watcher{w: w, fsw: fsw, cancel: cancel, done: make(chan struct{}), onError: onError}
	if err := wt.addTree(w.root); err != nil {
		fsw.Close()
		cancel()
		return nil, err
	}
	go wt.listen(ctx)
	return wt, nil
}

// Close stops the watcher and waits for its goroutine to end.
func (wt *Watcher) Close() error {
	wt.cancel()
	err := wt.fsw.Close()
	<-wt.done
	return err
}

// addTree watches dir and every folder below it that the walk would enter.
func (wt *Watcher) addTree(dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return err
			}
			return nil // gone meanwhile, or unreadable
		}
		if !d.IsDir() {
			return nil
		}
		if p != dir && watchSkipped(d.Name()) {
			return filepath.SkipDir
		}
		if err := wt.fsw.Add(p); err != nil && p == dir {
			return fmt.Errorf("watch %s: %w", p, err)
		}
		return nil
	})
}

// watchSkipped reports whether a folder is never watched: the framework's
// state (which every call writes), git's, and installed packages.
func watchSkipped(name string) bool {
	return name == stateFolder || name == gitFolder || name == "node_modules"
}

// listen hears the events and refreshes after each quiet moment.
func (wt *Watcher) listen(ctx context.Context) {
	defer close(wt.done)
	var timer *time.Timer
	var fire <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			if timer != nil {
				timer.Stop()
			}
			return
		case ev, ok := <-wt.fsw.Events:
			if !ok {
				return
			}
			if !wt.relevant(ev) {
				continue
			}
			if ev.Has(fsnotify.Create) {
				wt.addTree(ev.Name) // a new folder: watch it and what it holds
			}
			if timer == nil {
				timer = time.NewTimer(watchQuiet)
			} else {
				timer.Reset(watchQuiet)
			}
			fire = timer.C
		case err, ok := <-wt.fsw.Errors:
			if !ok {
				return
			}
			wt.report(err)
		case <-fire:
			fire = nil
			if err := wt.w.Refresh(ctx); err != nil && !errors.Is(err, context.Canceled) {
				wt.report(err)
			}
			if wt.w.settlingSaves() {
				// A planned file was held back as a save perhaps under
				// way: look again once it has been still for long enough.
				timer.Reset(saveSettle)
				fire = timer.C
			}
		}
	}
}

// relevant reports whether an event is about the project's files (not
// the framework's state nor git's).
func (wt *Watcher) relevant(ev fsnotify.Event) bool {
	rel, err := filepath.Rel(wt.w.root, ev.Name)
	if err != nil {
		return false
	}
	first, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
	return !watchSkipped(first)
}

func (wt *Watcher) report(err error) {
	if wt.onError != nil {
		wt.onError(err)
	}
}
