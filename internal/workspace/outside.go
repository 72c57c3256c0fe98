package workspace

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"runtime"
	"slices"
	"sort"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/tent-tools/tent-tools/defchange"
	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/history"
)

// This file finds the changes made to the project's files by anything but
// a tool (an editor, git, a script) and records them as points of the kind
// outside (docs/pages/history.md), at the next call. The first call records the
// starting state. Each call stats every file (a walk, as list does) and
// reads only those whose stat changed since the history last saw them.

// stateCache keeps the file state of the history in memory while its
// version stays the same, so that a call reads no row it read before.
type stateCache struct {
	mu      sync.Mutex
	version int64
	files   map[string]history.FileState
	// log is the paths each change this process folded in changed, by
	// the version it made, oldest first, consecutive, ending at version
	// (at most maxStateLog steps and maxStateLogPaths paths, logPaths
	// between them): what a waiting plan judges again once the state
	// moved on (changedSince).
	log      []stateStep
	logPaths int
}

// stateStep is one change of the state: the version it made and the
// paths it put or deleted.
type stateStep struct {
	version int64
	paths   []string
}

// maxStateLog and maxStateLogPaths bound stateCache.log: a plan that
// last looked more changes ago (or more paths: the commits of a few
// renames of a hub) judges all its paths again.
const (
	maxStateLog      = 256
	maxStateLogPaths = 1 << 14
)

// forget drops the cache: the next look reads the state again.
func (c *stateCache) forget() {
	c.mu.Lock()
	c.files, c.version, c.log, c.logPaths = nil, 0, nil, 0
	c.mu.Unlock()
}

// withCached runs f on the state as last read or recorded by this
// process and its version (nil and 0: none), under the cache's lock,
// without asking the history whether it moved on.
func (c *stateCache) withCached(f func(files map[string]history.FileState, version int64)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.files == nil {
		f(nil, 0)
		return
	}
	f(c.files, c.version)
}

// changedSince answers the paths whose state changed from version from
// to version to, where the cache can tell (ok): to is its version and
// its log holds every change after from.
func (c *stateCache) changedSince(from, to int64) (paths []string, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if from == 0 || c.files == nil || c.version != to || from > to {
		return nil, false
	}
	if from == to {
		return nil, true
	}
	i := len(c.log)
	for i > 0 && c.log[i-1].version > from {
		i--
	}
	if i == len(c.log) || c.log[i].version != from+1 {
		return nil, false // a change the log no longer (or never) held
	}
	for _, s := range c.log[i:] {
		paths = append(paths, s.paths...)
	}
	return paths, true
}

// recorded folds a state change this process just recorded into the
// cache, where nothing else changed the state meanwhile.
func (c *stateCache) recorded(ctx context.Context, hs *history.Store, change history.StateChange) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, err := hs.Version(ctx)
	if err != nil || c.files == nil || v != c.version+1 {
		c.files, c.version, c.log, c.logPaths = nil, 0, nil, 0
		return
	}
	c.fold(v, change)
}

// fold applies the state change that made version v to the cache and
// logs its paths (c.mu held).
func (c *stateCache) fold(v int64, change history.StateChange) {
	step := stateStep{version: v, paths: make([]string, 0, len(change.Put)+len(change.Delete))}
	for _, f := range change.Put {
		c.files[f.Path] = f
		step.paths = append(step.paths, f.Path)
	}
	for _, p := range change.Delete {
		delete(c.files, p)
		step.paths = append(step.paths, p)
	}
	c.version = v
	c.log = append(c.log, step)
	c.logPaths += len(step.paths)
	drop := 0
	for drop < len(c.log)-1 && (len(c.log)-drop > maxStateLog || c.logPaths > maxStateLogPaths) {
		c.logPaths -= len(c.log[drop].paths)
		drop++
	}
	if len(c.log) == drop+1 && c.logPaths > maxStateLogPaths {
		c.log, c.logPaths = nil, 0 // one change larger than the bound: none kept
	} else if drop > 0 {
		c.log = slices.Delete(c.log, 0, drop)
	}
}

// knownState returns the history's file state and its version (0: the
// starting state was never recorded).
func (w *Workspace) knownState(ctx context.Context, hs *history.Store) (map[string]history.FileState, error) {
	files, _, err := w.state.load(ctx, hs, false)
	return files, err
}

// load returns the state and its version, read again where the history's
// version moved on; quiet (nothing wrote the history since the state was
// read: quiet.go) trusts the state in memory without asking.
func (c *stateCache) load(ctx context.Context, hs *history.Store, quiet bool) (map[string]history.FileState, int64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if quiet && c.files != nil {
		return c.files, c.version, nil
	}
	v, err := hs.Version(ctx)
	if err != nil {
		return nil, 0, err
	}
	if c.files != nil && v == c.version {
		return c.files, v, nil
	}
	files, v, err := hs.State(ctx)
	if err != nil {
		return nil, 0, err
	}
	c.files, c.version, c.log, c.logPaths = files, v, nil, 0
	return files, v, nil
}

// stateOf stamps a file: its size, modification time and inode (and its
// change time, for the index).
func stateOf(rel string, info fs.FileInfo) history.FileState {
	s := history.FileState{Path: rel, Size: info.Size(), MTime: info.ModTime().UnixNano()}
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		s.Inode, s.CTime = st.Ino, ctimeOf(st)
	}
	return s
}

// settle readies the workspace for a call, under the write lock: it
// finishes the changes a crash cut short, then records what changed
// outside the tools since the history last looked.
func (w *Workspace) settle(ctx context.Context) error {
	hs, err := w.HistoryStore(ctx)
	if err != nil {
		return err
	}
	w.stamps = w.historyStamps()
	w.historyQuiet = w.quiet.holds(w.stamps)
	if !w.historyQuiet {
		if err := w.finishPending(ctx, hs); err != nil {
			return err
		}
	}
	return w.noticeOutside(ctx, hs)
}

// tracked stamps the files whose changes the history records: every
// regular file that list would show, but the framework's own files. The
// walk is kept on the view (scanned), so that the index's look at the
// disk in the same call needs no walk of its own.
func (w *Workspace) tracked(ctx context.Context) (map[string]history.FileState, error) {
	all := map[string]history.FileState{}
	mark := w.news.mark()
	start := time.Now().UnixNano()
	if err := w.statWalk(ctx, nil, func(p string, st history.FileState) { all[p] = st }); err != nil {
		return nil, fmt.Errorf("look at %s: %w", w.root, err)
	}
	w.news.walked(newsHistory, mark)
	w.scanned, w.scannedAt, w.scannedMark = all, start, mark
	files := make(map[string]history.FileState, len(all))
	for p, st := range all {
		if !isFrameworkFile(p) {
			files[p] = st
		}
	}
	return files, nil
}

// noticeOutside compares the files on the disk with the history's state
// and records a point of the kind outside for what changed; the first
// look records the starting state instead.
func (w *Workspace) noticeOutside(ctx context.Context, hs *history.Store) error {
	if heard, ok := w.news.take(newsHistory); ok {
		return w.noticeHeard(ctx, hs, heard)
	}
	// The history's state is read while the walk stamps the disk: the
	// two share nothing, and each keeps one core busy (on the 1,000-table
	// project, reading 3,641 rows about 8 ms of CPU, the walk about 20).
	var known map[string]history.FileState
	var version int64
	var stateErr error
	read := make(chan struct{})
	go func() {
		defer close(read)
		known, version, stateErr = w.state.load(ctx, hs, w.historyQuiet)
	}()
	disk, err := w.tracked(ctx)
	<-read
	if err != nil {
		return err
	}
	if stateErr != nil {
		return stateErr
	}
	if version == 0 {
		return w.recordStart(ctx, hs, disk)
	}
	seen := w.compareDisk(disk, known, nil)
	seen.version = version
	return w.recordOutside(ctx, hs, seen)
}

// noticeHeard is noticeOutside in a watched folder that trusts its
// watcher (news.go): only the paths heard since the last look are
// stamped and compared with the history's state. A path this look cannot
// settle (unreadable now, a planned file held back) is looked at again
// at the next look.
func (w *Workspace) noticeHeard(ctx context.Context, hs *history.Store, heard []string) error {
	known, version, err := w.state.load(ctx, hs, w.historyQuiet)
	if err != nil {
		w.news.again(newsHistory, heard...)
		return err
	}
	if version == 0 { // no starting state yet: the first look records it
		w.news.distrust()
		return w.noticeOutside(ctx, hs)
	}
	ig := w.walkRules()
	disk := map[string]history.FileState{}
	for _, p := range heard {
		if isFrameworkFile(p) {
			continue
		}
		if st, ok := w.statHeard(ig, p); ok {
			disk[p] = st
		}
	}
	seen := w.compareDisk(disk, known, heard)
	seen.version = version
	return w.recordOutside(ctx, hs, seen)
}

// recordOutside records what a look at the disk found (compareDisk) as a
// point of the kind outside, after an editor's saves of a change planned
// for it are taken out as its own point (expect.go).
func (w *Workspace) recordOutside(ctx context.Context, hs *history.Store, seen diskChanges) error {
	changed, gone := seen.changed, seen.gone
	var err error
	if seen.changed, seen.gone, err = w.claimExpected(ctx, hs, seen.known, seen.version, changed, gone); err != nil {
		return err
	}
	// What a planned change holds back is looked at again, as is what
	// could not be read: a watched look would not hear of it again.
	w.news.again(newsHistory, seen.retry...)
	w.news.again(newsHistory, heldBack(changed, gone, seen.changed, seen.gone)...)
	if seen.none() {
		return w.restamp(ctx, hs, seen.restamp)
	}
	p := &history.Point{Time: w.Now(), Kind: history.KindOutside, Done: true}
	blobs, state := w.outsidePoint(ctx, hs, p, seen)
	p.Summary = "changed outside the tools: " + history.Summary(seen.paths(), 3)
	_, err = w.recordSeen(ctx, hs, p, blobs, state)
	return err
}

// heldBack are the paths of changed and gone that are in neither of what
// claimExpected left (restChanged, restGone) nor recorded by a plan's
// point: those it held back for a later look. A path a plan's point
// recorded is held back too by this count; looking at it again finds its
// stamp the history's, and nothing to do.
func heldBack(changed []fileSeen, gone []string, restChanged []fileSeen, restGone []string) []string {
	if len(restChanged) == len(changed) && len(restGone) == len(gone) {
		return nil
	}
	rest := map[string]bool{}
	for _, c := range restChanged {
		rest[c.state.Path] = true
	}
	for _, p := range restGone {
		rest[p] = true
	}
	var out []string
	for _, c := range changed {
		if !rest[c.state.Path] {
			out = append(out, c.state.Path)
		}
	}
	for _, p := range gone {
		if !rest[p] {
			out = append(out, p)
		}
	}
	return out
}

// diskChanges is what a look at the disk found against the history's
// state: files whose content differs or that are new, files gone, and
// files whose stamp alone changed.
type diskChanges struct {
	known   map[string]history.FileState
	version int64 // known's version
	changed []fileSeen
	gone    []string
	restamp []history.FileState
	retry   []string // files that could not be read now
}

// none reports whether no file's content changed.
func (d diskChanges) none() bool { return len(d.changed) == 0 && len(d.gone) == 0 }

// paths are the files changed and gone, sorted.
func (d diskChanges) paths() []string {
	var paths []string
	for _, c := range d.changed {
		paths = append(paths, c.state.Path)
	}
	paths = append(paths, d.gone...)
	sort.Strings(paths)
	return paths
}

// compareDisk reads the files whose stamp differs from the history's and
// sorts them into changed, gone and restamped. heard, where not nil, are
// the only paths looked at (disk stamps those of them that are there); nil
// compares the whole disk.
func (w *Workspace) compareDisk(disk, known map[string]history.FileState, heard []string) diskChanges {
	d := diskChanges{known: known}
	for p, now := range disk {
		was, ok := known[p]
		if ok && was.SameStamp(now) {
			continue
		}
		seen, err := w.look(p, now)
		if err != nil {
			d.retry = append(d.retry, p) // unreadable now: the next look tries again
			continue
		}
		if ok && seen.state.Hash == was.Hash {
			d.restamp = append(d.restamp, seen.state)
			continue
		}
		d.changed = append(d.changed, seen)
	}
	if heard != nil {
		for _, p := range heard {
			if _, ok := disk[p]; !ok {
				if _, was := known[p]; was {
					d.gone = append(d.gone, p)
				}
			}
		}
		return d
	}
	for p := range known {
		if _, ok := disk[p]; !ok {
			d.gone = append(d.gone, p)
		}
	}
	return d
}

// restamp records new stamps of files whose content did not change.
func (w *Workspace) restamp(ctx context.Context, hs *history.Store, restamp []history.FileState) error {
	if len(restamp) == 0 {
		return nil
	}
	if err := hs.Restamp(ctx, restamp); err != nil {
		return err
	}
	w.state.recorded(ctx, hs, history.StateChange{Put: restamp})
	return nil
}

// fileSeen is a file read for its hash: its state, and its text where it
// is small enough to keep.
type fileSeen struct {
	state history.FileState
	data  []byte // nil where larger than MaxKept
}

// look reads a file for its hash, keeping its text where it is small
// enough. The stamp is the one the walk saw: a change after it is seen at
// the next look.
func (w *Workspace) look(rel string, st history.FileState) (fileSeen, error) {
	f, err := w.fsys.Open(rel)
	if err != nil {
		return fileSeen{}, err
	}
	defer f.Close()
	h := sha256.New()
	var data []byte
	if st.Size <= MaxKept {
		if data, err = io.ReadAll(io.LimitReader(f, MaxKept+1)); err != nil {
			return fileSeen{}, err
		}
		if len(data) > MaxKept {
			return fileSeen{}, fmt.Errorf("%s grew while read", rel)
		}
		h.Write(data)
	} else if _, err := io.Copy(h, f); err != nil {
		return fileSeen{}, err
	}
	st.Hash = hex.EncodeToString(h.Sum(nil))
	if data == nil && st.Size <= MaxKept {
		data = []byte{}
	}
	return fileSeen{state: st, data: data}, nil
}

// recordStart records the files as the first call finds them: by hash
// and stamp only, read in parallel, no content kept (docs/pages/history.md).
// A point keeps the earlier content of each file it changes when it
// changes it (commitFiles reads it from the disk); an outside change of a
// file never kept takes it from the index cache where that still holds
// it (earlierText).
func (w *Workspace) recordStart(ctx context.Context, hs *history.Store, disk map[string]history.FileState) error {
	paths := make([]string, 0, len(disk))
	for p := range disk {
		paths = append(paths, p)
	}
	hashed := make([]history.FileState, len(paths))
	texts := make([][]byte, len(paths))
	r := definitions.NewReader(w.fsys)
	var g errgroup.Group
	g.SetLimit(max(2, runtime.GOMAXPROCS(0)))
	for i, p := range paths {
		g.Go(func() error {
			if st, data, err := w.hashFile(r, p, disk[p]); err == nil {
				hashed[i] = st
				if indexCandidate(p) {
					texts[i] = data
				}
			} // unreadable: the next look finds it new
			return nil
		})
	}
	g.Wait()
	r.Close()
	files := hashed[:0]
	w.startTexts = map[string][]byte{}
	for i, st := range hashed {
		if st.Path != "" {
			files = append(files, st)
			if texts[i] != nil {
				w.startTexts[st.Path] = texts[i]
			}
		}
	}
	if _, err := hs.SetStart(ctx, files); err != nil {
		return err
	}
	w.state.forget()
	return nil
}

// hashFile reads a file for its hash; the stamp is the walk's. A file no
// larger than MaxKept is read whole by r, and its text returned too (nil
// for a larger one, which is hashed as it is read).
func (w *Workspace) hashFile(r *definitions.Reader, rel string, st history.FileState) (history.FileState, []byte, error) {
	var data []byte
	if st.Size <= MaxKept {
		var err error
		if data, err = r.Read(rel); err != nil {
			return history.FileState{}, nil, err
		}
		st.Path, st.Hash = rel, history.Hash(data)
		if len(data) > MaxKept { // grew since the walk
			data = nil
		}
		return st, data, nil
	}
	f, err := w.fsys.Open(rel)
	if err != nil {
		return history.FileState{}, nil, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return history.FileState{}, nil, err
	}
	st.Path, st.Hash = rel, hex.EncodeToString(h.Sum(nil))
	return st, nil, nil
}

// earlierText returns a file's earlier content, of hash, where the
// history does not keep it: the index's text of the file (in memory, or
// in the index cache .tent/index, read once per call that needs it) where
// its hash is that one. ok is false where neither holds it: the content is
// lost to the history.
func (w *Workspace) earlierText(ctx context.Context, rel, hash string, cache **definitions.Index) ([]byte, bool) {
	if !indexCandidate(rel) {
		return nil, false
	}
	if ix := w.index.current(); ix != nil {
		if f := ix.File(rel); f != nil && history.Hash(f.Src) == hash {
			return f.Src, true
		}
	}
	if *cache == nil {
		*cache = &definitions.Index{}
		if data, err := w.fsys.ReadFile(indexFile); err == nil {
			if ix, _, err := definitions.LoadCache(ctx, data); err == nil {
				*cache = ix
			}
		}
	}
	if f := (*cache).File(rel); f != nil && history.Hash(f.Src) == hash {
		return f.Src, true
	}
	return nil, false
}

// KeepUnkept stores the contents the history does not keep yet of every
// file it tracks (up to MaxKept), read from the disk and checked against
// the recorded hash: before something runs that may change any file (a
// shell command), so that what it changes can be put back. A file that
// no longer holds its recorded content is left out (the look after the
// command records that change).
func (w *Workspace) KeepUnkept(ctx context.Context, hs *history.Store) error {
	unkept, err := hs.Unkept(ctx, MaxKept)
	if err != nil || len(unkept) == 0 {
		return err
	}
	var mu sync.Mutex
	blobs := map[string][]byte{}
	var g errgroup.Group
	g.SetLimit(max(2, runtime.GOMAXPROCS(0)))
	for _, f := range unkept {
		g.Go(func() error {
			seen, err := w.look(f.Path, f)
			if err == nil && seen.data != nil && seen.state.Hash == f.Hash {
				mu.Lock()
				blobs[f.Hash] = seen.data
				mu.Unlock()
			}
			return nil
		})
	}
	g.Wait()
	return hs.Keep(ctx, blobs)
}

// outsidePoint fills a point with the files changed, added and gone,
// with their definition changes (the old texts from the history's
// contents, the new ones as read), and returns the contents and the state
// change to record with it.
func (w *Workspace) outsidePoint(ctx context.Context, hs *history.Store, p *history.Point, d diskChanges) (map[string][]byte, history.StateChange) {
	changed, gone, known := d.changed, d.gone, d.known
	sort.Slice(changed, func(i, j int) bool { return changed[i].state.Path < changed[j].state.Path })
	sort.Strings(gone)
	blobs := map[string][]byte{}
	state := history.StateChange{Put: d.restamp, Delete: gone}
	oldTexts, newTexts := map[string][]byte{}, map[string][]byte{}
	var fileChanges []defchange.DefChange
	var cache *definitions.Index
	oldText := func(path string) {
		was, ok := known[path]
		if !ok {
			return
		}
		data, ok, err := hs.Blob(ctx, was.Hash)
		if err == nil && !ok {
			// Never kept (the start keeps none): the index may still hold it.
			if data, ok = w.earlierText(ctx, path, was.Hash, &cache); ok {
				blobs[was.Hash] = data
			}
		}
		if err == nil && ok && indexCandidate(path) {
			oldTexts[path] = data
		}
	}
	for _, c := range changed {
		path := c.state.Path
		fc := history.FileChange{Path: path, After: c.state.Hash}
		action := defchange.Add
		if was, ok := known[path]; ok {
			fc.Before, action = was.Hash, defchange.Change
		}
		p.Files = append(p.Files, fc)
		if c.data != nil {
			blobs[c.state.Hash] = c.data
			if indexCandidate(path) {
				newTexts[path] = c.data
			}
		}
		oldText(path)
		state.Put = append(state.Put, c.state)
		fileChanges = append(fileChanges, defchange.DefChange{Definition: path, Kind: defchange.KindFile, Action: action, Fields: []defchange.Field{}})
	}
	for _, path := range gone {
		p.Files = append(p.Files, history.FileChange{Path: path, Before: known[path].Hash})
		oldText(path)
		fileChanges = append(fileChanges, defchange.DefChange{Definition: path, Kind: defchange.KindFile, Action: defchange.Remove, Fields: []defchange.Field{}})
	}
	sort.Slice(p.Files, func(i, j int) bool { return p.Files[i].Path < p.Files[j].Path })
	before := definitions.FromFiles(ctx, oldTexts).Files()
	after := definitions.FromFiles(ctx, newTexts).Files()
	p.Changes = append(defchange.Diff(before, after, nil), fileChanges...)
	return blobs, state
}

// recordSeen records a point that outsidePoint filled, and tells who
// listens; it returns the point's number.
func (w *Workspace) recordSeen(ctx context.Context, hs *history.Store, p *history.Point, blobs map[string][]byte, state history.StateChange) (int, error) {
	n, err := hs.Record(ctx, p, blobs, state)
	if err != nil {
		return 0, err
	}
	w.state.recorded(ctx, hs, state)
	w.emitPoint(n, p.Files, p.Changes)
	return n, nil
}
