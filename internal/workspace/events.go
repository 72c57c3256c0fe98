package workspace

import (
	"context"
	"sync"

	"github.com/tent-tools/tent-tools/defchange"
	"github.com/tent-tools/tent-tools/history"
)

// Event is one change of the project's files, from any source: a tool's
// point, an undo, a change made outside the tools (an editor, git, the
// CLI of another process) once it is recorded, or an editor's saves that
// bring the disk to a change it was planned (expect.go). Point is the
// point recorded (0 where none was: a part of a planned change that waits
// for the rest). Files are the paths it changed, added or deleted;
// Definitions the definitions and columns it changed ("orders",
// "orders.buyer"), both sorted. Version is the folder's version after the
// change (see Version).
type Event struct {
	Point       int      `json:"point"`
	Files       []string `json:"files"`
	Definitions []string `json:"definitions"`
	Version     int      `json:"version"`
}

// events are the subscribers of one folder, shared by its views.
type events struct {
	mu   sync.Mutex
	next int
	subs map[int]func(Event)
	// seen is the newest point told (or found at the first look, primed):
	// points other processes recorded after it are told at the next look.
	seen   int
	primed bool
	// version grows with every event told (Version).
	version int
}

// Version is a number that grows with every change of the project that
// this process makes or records, from any source (a tool's point, an
// undo, an editor's saves, a change made outside once it is seen): the
// version a visual editor's model carries (tent/model) and each Event
// tells. It starts at the newest point of the history the first look
// found, and each change makes it at least the change's point and at
// least one more than before, so it never goes back, also where a change
// records no point yet. The first look at a folder whose history stands
// on the disk reads the newest point (as the watcher's first look does),
// so that a new process never answers a version below the history's.
func (w *Workspace) Version(ctx context.Context) (int, error) {
	e := &w.events
	e.mu.Lock()
	primed := e.primed
	e.mu.Unlock()
	if !primed && w.historyStarted() {
		if err := w.prime(ctx); err != nil {
			return 0, err
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.version, nil
}

// prime notes where the history stands, as the first look does.
func (w *Workspace) prime(ctx context.Context) error {
	hs, err := w.HistoryStore(ctx)
	if err != nil {
		return err
	}
	last, err := hs.Last(ctx)
	if err != nil {
		return err
	}
	e := &w.events
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.primed {
		e.primed, e.seen = true, last
		e.version = max(e.version, last)
	}
	return nil
}

// Subscribe calls fn with every change of the project that this process
// makes or records, from any view of the folder, until cancel is called.
// fn runs on the goroutine that recorded the change, after the change is
// whole on the disk, and must not call back into the workspace's writes;
// hand the event to a goroutine of your own for long work.
func (w *Workspace) Subscribe(fn func(Event)) (cancel func()) {
	e := &w.events
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.subs == nil {
		e.subs = map[int]func(Event){}
	}
	id := e.next
	e.next++
	e.subs[id] = fn
	return func() {
		e.mu.Lock()
		delete(e.subs, id)
		e.mu.Unlock()
	}
}

// emit tells every subscriber of a change.
func (w *Workspace) emit(ev Event) {
	e := &w.events
	e.mu.Lock()
	e.version = max(e.version+1, ev.Point)
	ev.Version = e.version
	subs := make([]func(Event), 0, len(e.subs))
	for _, id := range sortedKeys(e.subs) {
		subs = append(subs, e.subs[id])
	}
	e.mu.Unlock()
	for _, fn := range subs {
		fn(ev)
	}
}

// emitPoint tells the subscribers of a point just recorded.
func (w *Workspace) emitPoint(n int, files []history.FileChange, changes []defchange.DefChange) {
	w.events.mu.Lock()
	w.events.seen = max(w.events.seen, n)
	w.events.mu.Unlock()
	paths := make([]string, 0, len(files))
	for _, f := range files {
		paths = append(paths, f.Path)
	}
	w.emit(newEvent(n, paths, changes))
}

// newEvent makes an event with its lists sorted and without repeats.
func newEvent(n int, paths []string, changes []defchange.DefChange) Event {
	files := map[string]bool{}
	for _, p := range paths {
		files[p] = true
	}
	defs := map[string]bool{}
	for _, c := range changes {
		if c.Kind == defchange.KindFile {
			files[c.Definition] = true
			if c.To != "" {
				files[c.To] = true
			}
			continue
		}
		defs[c.Definition] = true
		if c.To != "" {
			defs[c.To] = true
		}
	}
	return Event{Point: n, Files: sortedKeys(files), Definitions: sortedKeys(defs)}
}

// tellOthers tells the subscribers of the points that other processes
// recorded since the last look (a CLI command, an agent's tool in another
// process). The first look only notes where the history stands.
func (w *Workspace) tellOthers(ctx context.Context) error {
	if w.historyQuiet {
		return nil // nothing wrote the history since the last look told
	}
	hs, err := w.HistoryStore(ctx)
	if err != nil {
		return err
	}
	last, err := hs.Last(ctx)
	if err != nil {
		return err
	}
	e := &w.events
	e.mu.Lock()
	from := e.seen
	if !e.primed {
		e.primed, e.seen = true, last
		e.version = max(e.version, last)
		e.mu.Unlock()
		return nil
	}
	e.mu.Unlock()
	if last <= from {
		return nil
	}
	points, err := hs.Range(ctx, from, last)
	if err != nil {
		return err
	}
	for _, p := range points {
		w.emitPoint(p.N, p.Files, p.Changes)
	}
	return nil
}
