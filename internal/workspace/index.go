package workspace

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/history"
)

// indexCache keeps the workspace's index with what each file looked like
// on the disk when it was read, so that a later call re-reads only the
// files that changed. A new process starts from the index cache
// (.tent/index, written by the previous one), so that it too re-reads
// only what changed since.
type indexCache struct {
	mu    sync.Mutex
	ix    *definitions.Index
	seen  map[string]definitions.Stamp // candidate files (.ts, .tsx, .json) as last read
	rules map[string]definitions.Stamp // the .gitignore files, whose change needs a new Build
	ig    *ignores                     // their compiled rules and answers, while rules hold
	// tried says the index cache file was looked at (once per process),
	// loaded that the index was read from it.
	tried, loaded bool
	// racy are the files of seen whose stamp was racy when taken: a
	// watched look (updateHeard) reads them again unheard of.
	racy map[string]bool
	// dirty says ix or its stamps changed since the index cache file was
	// read or written; gen counts those changes (touch), so that a save
	// made in the background knows whether it saved the latest.
	dirty bool
	gen   uint64
	// saving counts the saves running in the background (saveSoon):
	// saveIndex waits for them.
	saving sync.WaitGroup
}

// touch notes that ix or its stamps changed (c.mu held).
func (c *indexCache) touch() {
	c.dirty = true
	c.gen++
}

// indexFile is the index cache, in the state folder.
const indexFile = stateFolder + "/index"

// stampOf stamps a file, as of seen (Unix nanoseconds, at or before the
// stat).
func stampOf(info fs.FileInfo, seen int64) definitions.Stamp {
	return stampFrom(stateOf("", info), seen)
}

// stampFrom is the index's stamp of a file's state.
func stampFrom(st history.FileState, seen int64) definitions.Stamp {
	return definitions.Stamp{Size: st.Size, MTime: st.MTime, CTime: st.CTime, Inode: st.Inode, Seen: seen}
}

// Index returns the definitions index of the project. The first call
// loads the index cache (.tent/index) or, where there is none that fits,
// builds the index; later calls look at the disk again (a walk that reads
// folders and stats files, but reads no file that did not change) and
// update it file by file. A file is read again where its stamp changed
// or where it changed too shortly before it was stamped for the stamp to
// prove anything (definitions.Stamp.Racy); it is parsed again only where
// its text changed. A changed .gitignore means a new Build. The answer is
// an immutable snapshot: a caller may keep it while the workspace moves
// on. Files with an overlay (an editor's unsaved text, overlay.go) are
// read as it.
func (w *Workspace) Index(ctx context.Context) (*definitions.Index, error) {
	if err := w.checkFrameworkLinks(); err != nil {
		return nil, err
	}
	ix, err := w.diskIndex(ctx)
	if err != nil {
		return nil, err
	}
	return w.layer(ctx, ix), nil
}

// diskIndex is Index without the overlays: the files as on the disk.
// The first look saves the cache in the background where it found it
// out of date, but not for a tool that writes (a settled view): its
// commit changes the index again, and Close saves it once, after.
func (w *Workspace) diskIndex(ctx context.Context) (*definitions.Index, error) {
	c := &w.index
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ix != nil && c.rules != nil && c.ig != nil && w.scanned == nil {
		if heard, ok := w.news.take(newsIndex); ok {
			return c.updateHeard(ctx, w, heard), nil
		}
	}
	if c.ig == nil {
		c.ig = newIgnores(w)
	}
	first := !c.tried
	var cache *cacheRead
	if first && w.scanned == nil {
		// The first look walks the disk (one core, mostly system calls)
		// while the cache is read and decoded (two): neither needs the
		// other until the walk's stamps check what the cache holds.
		cache = readCacheAsync(ctx, w)
	}
	walked := w.scannedWalk // the cold walk's files, which scanOnce takes with it
	seen, rules, read, err := w.scanOnce(ctx, c.ig)
	if err != nil {
		if cache != nil {
			<-cache.done
		}
		return nil, err
	}
	if first {
		c.tried = true
		if cache == nil {
			cache = readCacheAsync(ctx, w)
		}
		c.load(w, rules, cache)
	}
	if c.ix == nil || !sameStamps(c.rules, rules) {
		if c.ix != nil { // the rules changed: walk again by the new ones
			c.ig = newIgnores(w)
			if seen, rules, err = w.scan(ctx, c.ig); err != nil {
				return nil, err
			}
			walked = nil
		}
		// No syntax trees: what walks one parses the few files it
		// needs, and a file that changes keeps its new tree. A one-shot
		// check's build keeps no cache records: its save, in the
		// background while the check runs, encodes each file then.
		step, end := w.opts.Progress.Begin("indexing "+w.root, len(seen))
		lazy := w.opts.ChecksOnly && !w.opts.LongLived
		ix, err := definitions.BuildWith(ctx, w.root, definitions.Options{DropTrees: true, CacheRecords: !lazy, ReadBack: w.opts.LongLived, Lazy: lazy, FileRead: func() { step(1) }, Walked: walked})
		end()
		if err != nil {
			return nil, fmt.Errorf("index %s: %w", w.root, err)
		}
		c.ix, c.seen, c.rules = ix, seen, rules
		c.noteAllRacy()
		c.touch()
		if first && !w.settled {
			c.saveSoon(w)
		}
		return ix, nil
	}
	var changes []definitions.FileChange
	for p, st := range seen {
		if old, ok := c.seen[p]; ok && old.Same(st) && !old.Racy() {
			continue
		}
		// A file the index holds it indexes (asking the .gitignore rules
		// of each of thousands of paths costs a fresh copy's first look).
		if c.ix.File(p) == nil && !c.ix.Indexes(p) {
			continue
		}
		c.touch() // a new stamp at least
		// Read after the walk, as ReadFile below.
		if src, ok := read[p]; ok {
			changes = append(changes, definitions.FileChange{Path: p, Src: src})
			continue
		}
		// Never a file over the index's bound read whole: it is indexed
		// without its contents (T1004).
		src, err := definitions.ReadIndexed(w.fsys.FS(), p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			changes = append(changes, definitions.FileChange{Path: p, Gone: true})
			delete(seen, p) // gone since the walk: the next call looks again
		case err != nil:
			changes = append(changes, definitions.FileChange{Path: p, Err: err})
		default:
			changes = append(changes, definitions.FileChange{Path: p, Src: src})
		}
	}
	for p := range c.seen {
		if _, ok := seen[p]; !ok {
			c.touch()
			changes = append(changes, definitions.FileChange{Path: p, Gone: true})
		}
	}
	c.ix, c.seen = c.ix.UpdateFiles(ctx, changes), seen
	c.noteAllRacy()
	if first && c.dirty && !w.settled {
		c.saveSoon(w)
	}
	return c.ix, nil
}

// updateHeard is the index's look in a watched folder that trusts its
// watcher (news.go; c.mu held): the paths heard since the last look, and
// the files whose stamp was racy at it, are stamped and read again where
// their stamp changed or proves nothing; nothing else is looked at.
func (c *indexCache) updateHeard(ctx context.Context, w *Workspace, heard []string) *definitions.Index {
	paths := heard
	if len(c.racy) > 0 {
		paths = append(slices.Clone(heard), sortedKeys(c.racy)...)
	}
	start := time.Now().UnixNano()
	var changes []definitions.FileChange
	var retry []string
	for _, p := range paths {
		if isRulesFile(p) || !indexCandidate(p) {
			continue // a .gitignore heard of distrusts the news (watch.go)
		}
		state, ok := w.statHeard(c.ig, p)
		if !ok {
			if _, was := c.seen[p]; was {
				delete(c.seen, p)
				c.touch()
				changes = append(changes, definitions.FileChange{Path: p, Gone: true})
			}
			continue
		}
		st := stampFrom(state, start)
		if old, ok := c.seen[p]; ok && old.Same(st) && !old.Racy() {
			continue
		}
		c.seen[p] = st
		c.touch()
		if c.ix.File(p) == nil && !c.ix.Indexes(p) {
			continue
		}
		src, err := definitions.ReadIndexed(w.fsys.FS(), p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			changes = append(changes, definitions.FileChange{Path: p, Gone: true})
			delete(c.seen, p)
			retry = append(retry, p) // gone since the stat: looked at again
		case err != nil:
			changes = append(changes, definitions.FileChange{Path: p, Err: err})
		default:
			changes = append(changes, definitions.FileChange{Path: p, Src: src})
		}
	}
	w.news.again(newsIndex, retry...)
	if len(changes) > 0 {
		c.ix = c.ix.UpdateFiles(ctx, changes)
	}
	for _, p := range paths {
		c.noteRacy(p)
	}
	return c.ix
}

// noteRacy notes whether the stamp of the file p is racy (c.mu held): a
// watched look reads such a file again though it heard nothing of it, as
// a walk would (definitions.Stamp.Racy). They are the few written just
// before.
func (c *indexCache) noteRacy(p string) {
	if st, ok := c.seen[p]; ok && st.Racy() {
		if c.racy == nil {
			c.racy = map[string]bool{}
		}
		c.racy[p] = true
		return
	}
	delete(c.racy, p)
}

// noteAllRacy is noteRacy of every file, after a walk (c.mu held).
func (c *indexCache) noteAllRacy() {
	clear(c.racy)
	for p := range c.seen {
		c.noteRacy(p)
	}
}

// load reads the index cache into c, where there is one of this version
// that was made by the .gitignore rules the disk holds now (rules: each
// .gitignore with the stamp it had, or, where its stamp changed, the
// text it had): its stamps then tell which files to read again. A cache
// that is missing, cut, damaged, of another version or made by other
// rules is left alone (the index is built, and the cache written anew):
// it is never an error.
func (c *indexCache) load(w *Workspace, rules map[string]definitions.Stamp, cache *cacheRead) {
	<-cache.done
	ix, stamps, err := cache.ix, cache.stamps, cache.err
	if err != nil {
		return
	}
	texts := ix.IgnoreFiles()
	if len(texts) != len(rules) {
		return
	}
	for p, now := range rules {
		text, ok := texts[p]
		if !ok {
			return
		}
		if old, ok := stamps[p]; ok && old.Same(now) && !old.Racy() {
			continue
		}
		if src, err := w.fsys.ReadFile(p); err != nil || !bytes.Equal(src, text) {
			return
		}
	}
	for p := range texts {
		delete(stamps, p)
	}
	c.ix, c.seen, c.rules, c.loaded = ix, stamps, rules, true
}

// cacheRead is the index cache file as read and decoded on a goroutine
// of its own: done is closed once ix and stamps, or err, are set.
type cacheRead struct {
	done   chan struct{}
	ix     *definitions.Index
	stamps map[string]definitions.Stamp
	err    error
}

// readCacheAsync reads and decodes the index cache file (.tent/index) on
// a goroutine of its own.
func readCacheAsync(ctx context.Context, w *Workspace) *cacheRead {
	r := &cacheRead{done: make(chan struct{})}
	go func() {
		defer close(r.done)
		data, err := w.fsys.ReadFile(indexFile)
		if err != nil {
			r.err = err
			return
		}
		r.ix, r.stamps, r.err = definitions.LoadCache(ctx, data)
	}()
	return r
}

// save writes the index cache (.tent/index) from c (c.mu held); see write.
func (c *indexCache) save(w *Workspace) {
	if c.write(w, c.ix, c.stamps()) {
		c.dirty = false
	}
}

// saveSoon is save in the background (c.mu held): the caller goes on with
// the index (a check checks it) while it is encoded and written, and
// saveIndex waits for it. Where ix or its stamps changed meanwhile, the
// cache stays dirty for the next save.
func (c *indexCache) saveSoon(w *Workspace) {
	ix, stamps, gen := c.ix, c.stamps(), c.gen
	c.saving.Add(1)
	go func() {
		defer c.saving.Done()
		if !c.write(w, ix, stamps) {
			return
		}
		c.mu.Lock()
		if c.gen == gen {
			c.dirty = false
		}
		c.mu.Unlock()
	}()
}

// stamps are the stamps a save writes (c.mu held): those of the files ix
// holds, and of the .gitignore files.
func (c *indexCache) stamps() map[string]definitions.Stamp {
	stamps := make(map[string]definitions.Stamp, len(c.seen)+len(c.rules))
	for p, st := range c.seen {
		if c.ix.File(p) != nil {
			stamps[p] = st
		}
	}
	maps.Copy(stamps, c.rules)
	return stamps
}

// write writes ix with its stamps as the index cache, atomically: the new
// cache is written to .tent/index.new and renamed over the old one, so a
// process that reads it meanwhile reads the old or the new one whole.
// Writers take turns by a file lock on index.new; one that finds it held
// leaves the saving to the holder. The cache is not synced: one cut by a
// crash fails its checksum and is rebuilt. A cache that cannot be written
// (a read-only project) is left out silently: the next process builds the
// index again. It reports whether the cache was written.
func (c *indexCache) write(w *Workspace, ix *definitions.Index, stamps map[string]definitions.Stamp) bool {
	if _, err := w.stateDir(); err != nil {
		return false
	}
	f, err := w.fsys.OpenFile(indexNew, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return false
	}
	defer f.Close()
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return false // another process is saving
	}
	// The file locked must still be index.new, not one that its saver
	// renamed into place meanwhile.
	held, err := f.Stat()
	if err != nil {
		return false
	}
	if now, err := w.fsys.Lstat(indexNew); err != nil || !os.SameFile(held, now) {
		return false
	}
	if f.Truncate(0) != nil {
		return false
	}
	if definitions.SaveCache(io.NewOffsetWriter(f, 0), ix, stamps) != nil {
		return false
	}
	return w.fsys.Rename(indexNew, indexFile) == nil
}

// indexNew is where the index cache is written before it is renamed into
// place.
const indexNew = indexFile + ".new"

// saveIndex writes the index cache where the index changed since it was
// last read or written (see indexCache.save), or read what its cache left
// out (the IdentRefs and words of a check's build: Index.Completes), for
// Close: a one-shot command's commit leaves the next process a cache that
// knows its files.
func (w *Workspace) saveIndex() {
	c := &w.index
	c.saving.Wait()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ix != nil && (c.dirty || c.ix.Completes()) {
		c.save(w)
	}
}

// wrote tells the cached index that a tool wrote src to the file rel, or
// deleted it where gone, so that the next Index re-reads nothing for it.
func (w *Workspace) wrote(rel string, src []byte, gone bool) {
	c := &w.index
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ix == nil {
		return
	}
	if path.Base(rel) == ".gitignore" {
		c.rules, c.ig = nil, nil // a new Build, by the new rules, at the next call
		return
	}
	if gone {
		c.ix = c.ix.Update(rel, nil)
		delete(c.seen, rel)
		c.touch()
		return
	}
	seen := time.Now().UnixNano()
	info, err := w.fsys.Stat(rel)
	if err != nil || !indexCandidate(rel) {
		return
	}
	c.ix = c.ix.Update(rel, src)
	c.seen[rel] = stampOf(info, seen)
	c.noteRacy(rel)
	c.touch()
}

// current returns the cached snapshot as it is, without looking at the
// disk (nil where none was built yet).
func (c *indexCache) current() *definitions.Index {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ix
}

// forget drops the cached index: the next Index builds it again. A crash's
// change finished at the start of a call may have touched any file.
func (c *indexCache) forget() {
	c.mu.Lock()
	c.ix, c.seen, c.rules, c.ig, c.racy = nil, nil, nil, nil, nil
	c.mu.Unlock()
}

// committed tells the cached index what a change wrote: where the change
// was read again on the cached snapshot itself (next, made from ix), next
// becomes the cache with the stamps the new files have; otherwise each
// file is read again by itself.
func (c *indexCache) committed(w *Workspace, ix, next *definitions.Index, st *Stage) {
	c.mu.Lock()
	if c.ix != nil && next != nil && c.ix == ix && !st.touchesRules() {
		// The stamps were taken before the files were renamed into
		// place: a rename changes a file's change time, so each is read
		// again at the next look (and parsed again only where its text
		// is not the one written).
		seen := time.Now().UnixNano()
		c.ix = next
		c.touch()
		for _, f := range st.files {
			if !indexCandidate(f.rel) {
				continue
			}
			if f.gone {
				delete(c.seen, f.rel)
			} else {
				c.seen[f.rel] = stampFrom(f.stamp, seen)
			}
			c.noteRacy(f.rel)
		}
		c.mu.Unlock()
		return
	}
	c.mu.Unlock()
	for _, f := range st.files {
		w.wrote(f.rel, f.data, f.gone)
	}
}

// touchesRules reports whether a stage writes a .gitignore, after which
// the index is built again by the new rules.
func (st *Stage) touchesRules() bool {
	for _, f := range st.files {
		if path.Base(f.rel) == ".gitignore" {
			return true
		}
	}
	return false
}

// scanOnce is scan, from the walk this call made already where it made
// one (a call settles the workspace first, which walks it). read are the
// texts the first call read after that walk (startTexts), nil where it
// walks again: a text read before a walk is no text of what it stamped.
func (w *Workspace) scanOnce(ctx context.Context, ig *ignores) (seen, rules map[string]definitions.Stamp, read map[string][]byte, err error) {
	all, read := w.scanned, w.startTexts
	w.scanned, w.startTexts, w.scannedWalk = nil, nil, nil // used once: a second look in the same call walks again
	if all == nil {
		seen, rules, err = w.scan(ctx, ig)
		return seen, rules, nil, err
	}
	w.news.walked(newsIndex, w.scannedMark)
	seen, rules = map[string]definitions.Stamp{}, map[string]definitions.Stamp{}
	for p, st := range all {
		s := stampFrom(st, w.scannedAt)
		switch {
		case isRulesFile(p):
			rules[p] = s
		case indexCandidate(p):
			seen[p] = s
		}
	}
	return seen, rules, read, nil
}

// scan walks the project and stamps the files the index may hold and the
// .gitignore files.
func (w *Workspace) scan(ctx context.Context, ig *ignores) (seen, rules map[string]definitions.Stamp, err error) {
	seen, rules = map[string]definitions.Stamp{}, map[string]definitions.Stamp{}
	mark := w.news.mark()
	start := time.Now().UnixNano()
	err = w.statWalk(ctx, ig, func(p string, st history.FileState) {
		s := stampFrom(st, start)
		switch {
		case isRulesFile(p):
			rules[p] = s
		case indexCandidate(p):
			seen[p] = s
		}
	})
	if err != nil {
		return nil, nil, fmt.Errorf("index %s: %w", w.root, err)
	}
	w.news.walked(newsIndex, mark)
	return seen, rules, nil
}

// ColdStamps stamps the files the index is read from (each file it may
// hold, and the .gitignore files), for a tool that keeps a cache of its own
// made from an index and the stamps it was read by (run's app snapshot,
// check's kept findings), and can answer from it without the index. It
// answers nil where that is no shortcut or no sound one: the index is
// loaded already, or an editor's unsaved text is set. Its walk is kept on
// the view, as settling's is: where the tool reads the index after all,
// the index's look in the same call walks no second time.
func (w *Workspace) ColdStamps(ctx context.Context) map[string]definitions.Stamp {
	if !w.ColdWalk(ctx) {
		return nil
	}
	stamps := make(map[string]definitions.Stamp, len(w.scanned))
	for p, st := range w.scanned {
		if isRulesFile(p) || indexCandidate(p) {
			stamps[p] = stampFrom(st, w.scannedAt)
		}
	}
	return stamps
}

// ColdWalk is ColdStamps' walk alone, kept on the view for the index's
// look in the same call, for a caller that has no cache to hold the
// stamps to (a check with no kept findings): it reports whether
// ColdStamps would answer stamps.
func (w *Workspace) ColdWalk(ctx context.Context) bool {
	if !w.ColdStampsWanted() || w.checkFrameworkLinks() != nil {
		return false
	}
	if w.scanned == nil {
		all := map[string]history.FileState{}
		mark := w.news.mark()
		start := time.Now().UnixNano()
		ig := newIgnores(w)
		ig.texts = map[string][]byte{}
		var walked definitions.Walked
		err := w.statWalkLinks(ctx, ig, func(p string, st history.FileState) {
			if isRulesFile(p) || indexCandidate(p) {
				all[p] = st
				if !isRulesFile(p) {
					walked.Files = append(walked.Files, definitions.WalkedFile{Path: p})
				}
			}
		}, func(p string) {
			if indexCandidate(p) {
				walked.Files = append(walked.Files, definitions.WalkedFile{Path: p, Link: true})
			}
		})
		if err != nil {
			return false
		}
		w.scanned, w.scannedAt, w.scannedMark = all, start, mark
		if !ig.unkept {
			// The index's build reads the files this walk found, and
			// walks (and stats) the project no second time.
			walked.Ignores = make(map[string][]byte, len(ig.texts))
			for dir, src := range ig.texts {
				if dir == "." {
					dir = ""
				}
				walked.Ignores[dir] = src
			}
			// In the order of the paths, as Build's own walk hands them
			// out: the files are read, and their memory taken, in the
			// order every later pass over them goes (the folders list
			// their names in no order).
			slices.SortFunc(walked.Files, func(a, b definitions.WalkedFile) int { return strings.Compare(a.Path, b.Path) })
			w.scannedWalk = &walked
		}
	}
	return true
}

// ColdStampsWanted reports whether ColdStamps would walk: no index is
// loaded yet and no overlay is set.
func (w *Workspace) ColdStampsWanted() bool {
	return w.index.current() == nil && !w.overlay.any()
}

// IndexStamps answers the stamps of the files the index ix was read from,
// as ColdStamps stamps them, where ix is the workspace's index as on the
// disk now; nil where the workspace moved on or ix holds an editor's
// unsaved text.
func (w *Workspace) IndexStamps(ix *definitions.Index) map[string]definitions.Stamp {
	c := &w.index
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ix != ix || w.overlay.any() {
		return nil
	}
	stamps := make(map[string]definitions.Stamp, len(c.seen)+len(c.rules))
	maps.Copy(stamps, c.seen)
	maps.Copy(stamps, c.rules)
	return stamps
}

// indexCandidate reports whether the index may hold a file, by its name
// alone; the index itself decides (definitions.Index.Update filters).
func indexCandidate(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".ts", ".tsx", ".json":
		return true
	}
	return false
}

// sameStamps reports whether two sets of stamps name the same files with
// the same stamps; nil (never stamped) is the same as nothing.
func sameStamps(a, b map[string]definitions.Stamp) bool {
	if a == nil || len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if u, ok := b[k]; !ok || !u.Same(v) {
			return false
		}
	}
	return true
}

// HasIndex reports whether the workspace holds an index in memory (built,
// or read from .tent/index, by an earlier call); it builds none. A tool
// that can answer without the index (run, from its app snapshot) is seen
// to by it.
func (w *Workspace) HasIndex() bool { return w.index.current() != nil }

// StateStamp stamps the file name of the state folder (.tent/name) as
// the index's walk stamps a project file, for a cache whose answers depend
// on it too (the check's kept findings hold T2011, read from the test
// database); ok is false where there is no such regular file.
func (w *Workspace) StateStamp(name string) (st definitions.Stamp, ok bool) {
	seen := time.Now().UnixNano()
	info, err := w.fsys.Lstat(stateFolder + "/" + name)
	if err != nil || !info.Mode().IsRegular() {
		return definitions.Stamp{}, false
	}
	return stampOf(info, seen), true
}

// findingsFile holds the check's kept findings (check.Kept), in the state
// folder beside the index cache.
const findingsFile = stateFolder + "/findings"

// KeptFindings answers the bytes of the check's kept findings
// (.tent/findings), nil where there are none to read. What they hold is
// the check's to judge (check.DecodeKept, Kept.Fits).
func (w *Workspace) KeptFindings() []byte {
	if w.checkFrameworkLinks() != nil {
		return nil
	}
	data, err := w.fsys.ReadFile(findingsFile)
	if err != nil {
		return nil
	}
	return data
}

// KeepFindings writes data as the check's kept findings, atomically: to a
// new file of a name of its own (created exclusively, so no two writers
// and no link share it), renamed over .tent/findings. Two processes that
// keep at once leave one whole file, either's; a file that cannot be
// written (a read-only project) is left out silently: it only saves time.
func (w *Workspace) KeepFindings(data []byte) {
	if _, err := w.stateDir(); err != nil {
		return
	}
	var salt [8]byte
	if _, err := rand.Read(salt[:]); err != nil {
		return
	}
	tmp := findingsFile + "-" + hex.EncodeToString(salt[:]) + ".new"
	f, err := w.fsys.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr != nil || cerr != nil || w.fsys.Rename(tmp, findingsFile) != nil {
		w.fsys.Remove(tmp)
	}
}
