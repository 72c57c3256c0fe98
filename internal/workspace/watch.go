package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
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
	if err == nil {
		// Asked all (or nothing had written since the last time it was):
		// a later settle that finds these stamps asks nothing.
		w.quiet.keep(v.stamps)
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
	// dirs are the folders watched, by resolved path: one of them gone
	// (removed or moved away) takes its files with it unheard of.
	dirs map[string]bool
	// rescan is how often the folder is walked whole anyway
	// (safetyRescan; tests shorten it).
	rescan time.Duration
	// drop, where set (tests), makes the watcher miss the events it
	// answers true for, as a filesystem that tells nothing of a write.
	drop func(rel string) bool
	// told, for a watcher by the editor (WatchByEditor; fsw is nil),
	// wakes the goroutine after Heard: it refreshes after a quiet moment.
	told chan struct{}
}

// WatchByEditor is Watch for a face whose editor watches the folder and
// tells of each change (the language server's
// workspace/didChangeWatchedFiles): no watcher of its own, the paths the
// editor tells of (Heard) are what a call looks at, and the folder is
// walked whole at the first look, after the editor told of a folder or
// a .gitignore, and every minute anyway (an editor's watcher may leave
// out what its settings exclude). Close stops it.
func (w *Workspace) WatchByEditor(onError func(error)) *Watcher {
	ctx, cancel := context.WithCancel(context.Background())
	wt := &Watcher{w: w, cancel: cancel, done: make(chan struct{}), onError: onError,
		rescan: safetyRescan, told: make(chan struct{}, 1)}
	w.news.watching(+1)
	w.news.distrust()
	go wt.listen(ctx)
	return wt
}

// Heard tells a watcher by the editor of the files the editor saw change
// (resolved project paths or absolute ones under the folder), before the
// call that follows looks: a file is heard; a folder, a .gitignore, or a
// gone path that names no file (a folder taken away with its files)
// makes the next look walk the folder whole. A watcher of its own
// (Watch) ignores it: it hears for itself.
func (wt *Watcher) Heard(paths ...string) {
	if wt.told == nil {
		return
	}
	for _, p := range paths {
		rel := filepath.ToSlash(p)
		if filepath.IsAbs(p) {
			r, err := filepath.Rel(wt.w.root, p)
			if err != nil || strings.HasPrefix(r, "..") {
				continue
			}
			rel = filepath.ToSlash(r)
		}
		first, _, _ := strings.Cut(rel, "/")
		switch info, err := wt.w.fsys.Lstat(rel); {
		case rel == "." || rel == "":
			wt.w.news.distrust()
		case watchSkipped(first):
		case err == nil && info.IsDir(), path.Base(rel) == ".gitignore", err != nil && path.Ext(rel) == "":
			wt.w.news.distrust()
		default:
			wt.w.news.heard(rel)
		}
	}
	select {
	case wt.told <- struct{}{}:
	default:
	}
}

// Watch starts watching the workspace's folder (every folder of it but
// .tent/, .git/ and node_modules/, and new folders as they appear) and
// refreshes the workspace after each burst of changes. onError, where not
// nil, hears what a refresh failed with. Close stops it.
//
// While it watches, the workspace trusts it (news.go): a call looks only
// at the files the watcher heard of since the last look, not at every
// file of the project; the folder is walked whole at the first look,
// after the watcher lost events, after a folder or a .gitignore changed,
// and every minute anyway.
func (w *Workspace) Watch(onError func(error)) (*Watcher, error) {
	return w.watch(onError, safetyRescan, nil)
}

// watch is Watch with the period of the safety rescan and the events to
// miss (drop, for tests; nil misses none).
func (w *Workspace) watch(onError func(error), rescan time.Duration, drop func(string) bool) (*Watcher, error) {
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", w.root, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	wt := &Watcher{w: w, fsw: fsw, cancel: cancel, done: make(chan struct{}), onError: onError,
		dirs: map[string]bool{}, rescan: rescan, drop: drop}
	// Counted in before the folders are added: a look from now on walks
	// once more (the news is distrusted until then), and a change made
	// while the folders are added is heard or found by that walk.
	w.news.watching(+1)
	w.news.distrust()
	if err := wt.addTree(w.root); err != nil {
		fsw.Close()
		cancel()
		w.news.watching(-1)
		return nil, err
	}
	go wt.listen(ctx)
	return wt, nil
}

// Close stops the watcher and waits for its goroutine to end. The
// folder's looks walk it again from then on, where no other watcher
// watches it.
func (wt *Watcher) Close() error {
	wt.cancel()
	var err error
	if wt.fsw != nil {
		err = wt.fsw.Close()
	}
	<-wt.done
	wt.w.news.watching(-1)
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
		if err := wt.fsw.Add(p); err != nil {
			if p == dir {
				return fmt.Errorf("watch %s: %w", p, err)
			}
			// A folder that cannot be watched (the watches ran out):
			// the news cannot be trusted for it.
			wt.w.news.distrust()
			return nil
		}
		wt.dirs[p] = true
		return nil
	})
}

// watchSkipped reports whether a folder is never watched: the framework's
// state (which every call writes), git's, and installed packages.
func watchSkipped(name string) bool {
	return name == stateFolder || name == gitFolder || name == "node_modules"
}

// listen hears the events and refreshes after each quiet moment, and
// walks the folder whole every rescan.
func (wt *Watcher) listen(ctx context.Context) {
	defer close(wt.done)
	var timer *time.Timer
	var fire <-chan time.Time
	soon := func() {
		if timer == nil {
			timer = time.NewTimer(watchQuiet)
		} else {
			timer.Reset(watchQuiet)
		}
		fire = timer.C
	}
	safety := time.NewTicker(wt.rescan)
	defer safety.Stop()
	var events <-chan fsnotify.Event
	var errs <-chan error
	if wt.fsw != nil {
		events, errs = wt.fsw.Events, wt.fsw.Errors
	}
	for {
		select {
		case <-ctx.Done():
			if timer != nil {
				timer.Stop()
			}
			return
		case <-wt.told:
			soon()
		case ev, ok := <-events:
			if !ok {
				return
			}
			if !wt.relevant(ev) {
				continue
			}
			wt.hear(ev)
			soon()
		case err, ok := <-errs:
			if !ok {
				return
			}
			// Events lost (the kernel's queue overflowed) or a watch
			// failed: what changed meanwhile is found by a walk.
			wt.w.news.distrust()
			soon()
			if !errors.Is(err, fsnotify.ErrEventOverflow) {
				wt.report(err)
			}
		case <-safety.C:
			wt.w.news.distrust()
			soon()
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

// hear tells the folder's news of an event (news.go): a file's path is
// heard; a folder that appears (watched from now on), a watched folder
// that goes or a .gitignore that changes distrusts the news, so that the
// next look walks the folder whole.
func (wt *Watcher) hear(ev fsnotify.Event) {
	rel, err := filepath.Rel(wt.w.root, ev.Name)
	if err != nil || rel == "." {
		wt.w.news.distrust()
		return
	}
	rel = filepath.ToSlash(rel)
	if wt.drop != nil && wt.drop(rel) {
		return
	}
	if ev.Has(fsnotify.Create) {
		if info, err := os.Lstat(ev.Name); err == nil && info.IsDir() {
			wt.addTree(ev.Name) // a new folder: watch it and what it holds
			wt.w.news.distrust()
			return
		}
	}
	if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
		if wt.dirs[ev.Name] {
			for d := range wt.dirs {
				if d == ev.Name || strings.HasPrefix(d, ev.Name+string(filepath.Separator)) {
					delete(wt.dirs, d)
				}
			}
			wt.w.news.distrust()
			return
		}
	}
	if path.Base(rel) == ".gitignore" {
		wt.w.news.distrust()
		return
	}
	wt.w.news.heard(rel)
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
