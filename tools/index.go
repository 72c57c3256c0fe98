package tools

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"sync"
	"syscall"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/history"
)

// indexCache keeps the workspace's index with what each file looked like
// on the disk when it was read, so that a later call re-reads only the
// files that changed.
type indexCache struct {
	mu    sync.Mutex
	ix    *definitions.Index
	seen  map[string]stamp // candidate files (.ts, .tsx, .json) as last read
	rules map[string]stamp // the .gitignore files, whose change needs a new Build
	ig    *ignores         // their compiled rules and answers, while rules hold
}

// stamp is what tells one version of a file from the next without reading
// it: its size, its modification time and its inode (a rename over it, as
// every write of the tools does, makes a new inode).
type stamp struct {
	size  int64
	mtime int64 // nanoseconds
	inode uint64
}

func stampOf(info fs.FileInfo) stamp {
	s := stamp{size: info.Size(), mtime: info.ModTime().UnixNano()}
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		s.inode = st.Ino
	}
	return s
}

// Index returns the definitions index of the project. The first call builds
// it; later calls look at the disk again (a walk that reads folders and
// stats files, but reads no file that did not change) and update it file by
// file. A changed .gitignore means a new Build. The answer is an immutable
// snapshot: a caller may keep it while the workspace moves on. Files
// with an overlay (an editor's unsaved text, overlay.go) are read as it.
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
func (w *Workspace) diskIndex(ctx context.Context) (*definitions.Index, error) {
	c := &w.index
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ig == nil {
		c.ig = newIgnores(w)
	}
	seen, rules, err := w.scanOnce(ctx, c.ig)
	if err != nil {
		return nil, err
	}
	if c.ix == nil || !sameStamps(c.rules, rules) {
		if c.ix != nil { // the rules changed: walk again by the new ones
			c.ig = newIgnores(w)
			if seen, rules, err = w.scan(ctx, c.ig); err != nil {
				return nil, err
			}
		}
		ix, err := definitions.Build(ctx, w.root)
		if err != nil {
			return nil, fmt.Errorf("index %s: %w", w.root, err)
		}
		c.ix, c.seen, c.rules = ix, seen, rules
		return ix, nil
	}
	ix := c.ix
	for p, st := range seen {
		if old, ok := c.seen[p]; ok && old == st {
			continue
		}
		src, err := w.fsys.ReadFile(p)
		if err != nil {
			continue // gone again, or unreadable: the next call sees it
		}
		ix = ix.Update(p, src)
	}
	for p := range c.seen {
		if _, ok := seen[p]; !ok {
			ix = ix.Update(p, nil)
		}
	}
	c.ix, c.seen = ix, seen
	return ix, nil
}

// wrote tells the cached index that a tool wrote src to the file rel, so
// that the next Index re-reads nothing for it.
func (w *Workspace) wrote(rel string, src []byte) {
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
	info, err := w.fsys.Stat(rel)
	if err != nil || !indexCandidate(rel) {
		return
	}
	c.ix = c.ix.Update(rel, src)
	c.seen[rel] = stampOf(info)
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
	c.ix, c.seen, c.rules, c.ig = nil, nil, nil, nil
	c.mu.Unlock()
}

// committed tells the cached index what a change wrote: where the change
// was read again on the cached snapshot itself (next, made from ix), next
// becomes the cache with the stamps the new files have; otherwise each
// file is read again by itself.
func (c *indexCache) committed(w *Workspace, ix, next *definitions.Index, st *stage) {
	c.mu.Lock()
	if c.ix != nil && next != nil && c.ix == ix && !st.touchesRules() {
		c.ix = next
		for _, f := range st.files {
			if !indexCandidate(f.rel) {
				continue
			}
			if f.gone {
				delete(c.seen, f.rel)
			} else {
				c.seen[f.rel] = stamp{size: f.stamp.Size, mtime: f.stamp.MTime, inode: f.stamp.Inode}
			}
		}
		c.mu.Unlock()
		return
	}
	c.mu.Unlock()
	for _, f := range st.files {
		if f.gone {
			w.dropped(f.rel)
		} else {
			w.wrote(f.rel, f.data)
		}
	}
}

// touchesRules reports whether a stage writes a .gitignore, after which
// the index is built again by the new rules.
func (st *stage) touchesRules() bool {
	for _, f := range st.files {
		if path.Base(f.rel) == ".gitignore" {
			return true
		}
	}
	return false
}

// dropped tells the cached index that a tool deleted the file rel.
func (w *Workspace) dropped(rel string) {
	c := &w.index
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ix == nil {
		return
	}
	if path.Base(rel) == ".gitignore" {
		c.rules, c.ig = nil, nil
		return
	}
	c.ix = c.ix.Update(rel, nil)
	delete(c.seen, rel)
}

// scanOnce is scan, from the walk this call made already where it made
// one (a call settles the workspace first, which walks it).
func (w *Workspace) scanOnce(ctx context.Context, ig *ignores) (seen, rules map[string]stamp, err error) {
	all := w.scanned
	if all == nil {
		return w.scan(ctx, ig)
	}
	w.scanned = nil // used once: a second look in the same call walks again
	seen, rules = map[string]stamp{}, map[string]stamp{}
	for p, st := range all {
		s := stamp{size: st.Size, mtime: st.MTime, inode: st.Inode}
		switch {
		case isRulesFile(p):
			rules[p] = s
		case indexCandidate(p):
			seen[p] = s
		}
	}
	return seen, rules, nil
}

// scan walks the project and stamps the files the index may hold and the
// .gitignore files.
func (w *Workspace) scan(ctx context.Context, ig *ignores) (seen, rules map[string]stamp, err error) {
	seen, rules = map[string]stamp{}, map[string]stamp{}
	err = w.statWalk(ctx, ig, func(p string, st history.FileState) {
		s := stamp{size: st.Size, mtime: st.MTime, inode: st.Inode}
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
	return seen, rules, nil
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

func sameStamps(a, b map[string]stamp) bool {
	if a == nil || len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
