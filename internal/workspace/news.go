package workspace

import (
	"path"
	"strings"
	"sync"
	"time"

	"github.com/tent-tools/tent-tools/history"
	"github.com/tent-tools/tent-tools/internal/projectfiles"
)

// This file is what a watched folder knows of its files without looking.
// A one-shot command stats every file of the project at every call (the
// look for changes made outside, outside.go, and the index's, index.go).
// A long-lived process that watches the folder (Watch) trusts its
// watcher instead: each look stats only the paths the watcher heard of
// since the previous look, and a file whose last stamp was racy
// (definitions.Stamp.Racy) is read again as before. A full walk is made
// where the watcher cannot be trusted to have heard everything: at the
// first look, after the watcher overflowed or failed, after a folder
// appeared or went (a folder moved into place tells of itself, not of its
// files), after a .gitignore changed (other files are ignored), after a
// change a crash cut short was finished, and every safetyRescan (a write
// the watcher missed, on a filesystem that tells nothing of some writes).
//
// Each of the two looks (the history's, the index's) is a reader of the
// news with its own list of paths heard: each takes its own, and a full
// walk it makes drops the paths heard before the walk began.

// The readers of a folder's news.
const (
	newsHistory = iota // the look for changes made outside (outside.go)
	newsIndex          // the index's look (index.go)
	newsReaders
)

// safetyRescan is how often a watched folder is walked whole anyway.
const safetyRescan = time.Minute

// news is what the watchers of one folder heard, for its two looks.
type news struct {
	mu       sync.Mutex
	watchers int    // the watchers running on the folder
	seq      uint64 // grows with every path heard and every distrust
	// distrusted is the seq of the last distrust: a walk that began
	// before it does not make its reader trust the news again.
	distrusted uint64
	readers    [newsReaders]newsReader
}

// newsReader is one look's part of the news.
type newsReader struct {
	trusted bool              // its last full walk began after the last distrust
	heard   map[string]uint64 // the paths heard since its last take, with the seq they were heard at
}

// mark is the news's position now, taken before a walk begins.
func (n *news) mark() uint64 {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.seq
}

// watching counts a watcher in (+1) or out (-1); a folder no watcher
// watches trusts no news.
func (n *news) watching(delta int) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.watchers += delta
	if n.watchers <= 0 {
		n.watchers = 0
		n.distrustLocked()
	}
}

// heard notes paths the watcher heard of (resolved project paths).
func (n *news) heard(paths ...string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, p := range paths {
		n.seq++
		for i := range n.readers {
			r := &n.readers[i]
			if r.heard == nil {
				r.heard = map[string]uint64{}
			}
			r.heard[p] = n.seq
		}
	}
}

// again puts paths back for one reader: a look that could not settle them
// (a file unreadable now, a planned save under way) sees them at its next
// look too.
func (n *news) again(reader int, paths ...string) {
	if len(paths) == 0 {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	r := &n.readers[reader]
	if r.heard == nil {
		r.heard = map[string]uint64{}
	}
	for _, p := range paths {
		n.seq++
		r.heard[p] = n.seq
	}
}

// distrust makes every reader walk the folder whole at its next look.
func (n *news) distrust() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.distrustLocked()
}

func (n *news) distrustLocked() {
	n.seq++
	n.distrusted = n.seq
	for i := range n.readers {
		n.readers[i].trusted = false
	}
}

// take answers, where the folder is watched and the reader trusts the
// news, the paths heard since its last take (sorted), and forgets them;
// ok is false where the reader must walk the folder whole.
func (n *news) take(reader int) (paths []string, ok bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	r := &n.readers[reader]
	if n.watchers == 0 || !r.trusted {
		return nil, false
	}
	paths = sortedKeys(r.heard)
	clear(r.heard)
	return paths, true
}

// walked tells the news that a reader walked the folder whole, a walk
// that began at mark: the paths heard before it are known to the walk,
// and the reader trusts the news from now on where the folder is watched
// and nothing distrusted it since the walk began.
func (n *news) walked(reader int, mark uint64) {
	n.mu.Lock()
	defer n.mu.Unlock()
	r := &n.readers[reader]
	for p, at := range r.heard {
		if at <= mark {
			delete(r.heard, p)
		}
	}
	r.trusted = n.watchers > 0 && mark >= n.distrusted
}

// statHeard stamps a path the watcher heard of as the walks would: ok is
// false where the walks would not give it (gone, not a regular file, in a
// folder never walked, beyond a project path's bounds, or ignored by a
// .gitignore of ig).
func (w *Workspace) statHeard(ig *ignores, rel string) (history.FileState, bool) {
	if projectfiles.Bounded(rel) != "" || !walkedTo(ig, rel) {
		return history.FileState{}, false
	}
	info, err := w.fsys.Lstat(rel)
	if err != nil || !info.Mode().IsRegular() {
		return history.FileState{}, false
	}
	if !ig.filesNeverIgnored(path.Dir(rel)) && ig.ignored(rel, false) {
		return history.FileState{}, false
	}
	return stateOf(rel, info), true
}

// walkedTo reports whether a walk enters every folder on the way to rel:
// none of them is skipped or ignored.
func walkedTo(ig *ignores, rel string) bool {
	dir := path.Dir(rel)
	if dir == "." {
		return true
	}
	for _, name := range strings.Split(dir, "/") {
		if isSkippedFolder(name) {
			return false
		}
	}
	for i := 0; i < len(dir); i++ {
		if dir[i] == '/' && ig.ignored(dir[:i], true) {
			return false
		}
	}
	return !ig.ignored(dir, true)
}
