package workspace

import (
	"bytes"
	"cmp"
	"context"
	"slices"
	"sync"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
)

// This file keeps overlays: the text of a file as an editor holds it, not
// yet saved. While a file has one, the index (and so the check, the map,
// symbols, references), read and the refactors' plans see the overlay's
// text instead of the disk's; a write that would change a file whose
// overlay differs from the disk (a dirty buffer) is refused before
// anything is written (T9120), so the tools never clobber unsaved work.
// An overlay never reaches the disk by itself: the editor saves.

// overlays are the unsaved texts of one folder, shared by its views.
type overlays struct {
	mu    sync.Mutex
	texts map[string][]byte
	gen   uint64 // bumped by every change of texts
	// pending are the paths set or dropped since the index was layered.
	pending map[string]bool

	// The index last layered: the disk's snapshot and the overlays'
	// generation it was made from, so that calls between two edits share it.
	base    *definitions.Index
	baseGen uint64
	layered *definitions.Index
}

// SetOverlay makes text the workspace's view of the file at path (relative
// to the project, as Resolve reads it) until DropOverlay; the disk is not
// touched. The index updates that one file incrementally at the next Index.
// A path that has an overlay already is that overlay's (an editor's
// keystrokes in an open document): it is not walked on the disk again.
func (w *Workspace) SetOverlay(path string, text []byte) (string, error) {
	o := &w.overlay
	o.mu.Lock()
	_, open := o.texts[path]
	o.mu.Unlock()
	rel := path
	if !open {
		var err error
		if rel, err = w.Resolve(path, false); err != nil {
			return "", err
		}
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.texts == nil {
		o.texts = map[string][]byte{}
	}
	o.texts[rel] = bytes.Clone(text)
	o.touch(rel)
	return rel, nil
}

// DropOverlay drops the overlay of the file at path: the workspace sees
// the disk's text again.
func (w *Workspace) DropOverlay(path string) {
	rel, err := w.Resolve(path, false)
	if err != nil {
		return
	}
	o := &w.overlay
	o.mu.Lock()
	defer o.mu.Unlock()
	if _, ok := o.texts[rel]; ok {
		delete(o.texts, rel)
		o.touch(rel)
	}
}

// touch notes a change of rel's overlay; o.mu is held.
func (o *overlays) touch(rel string) {
	o.gen++
	if o.pending == nil {
		o.pending = map[string]bool{}
	}
	o.pending[rel] = true
}

// any reports whether an overlay is set.
func (o *overlays) any() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.texts) > 0
}

// Overlay returns the overlay's text of a resolved path, if it has one.
func (w *Workspace) Overlay(rel string) ([]byte, bool) {
	o := &w.overlay
	o.mu.Lock()
	defer o.mu.Unlock()
	text, ok := o.texts[rel]
	return text, ok
}

// Overlaid lists the resolved paths that have an overlay, sorted.
func (w *Workspace) Overlaid() []string {
	o := &w.overlay
	o.mu.Lock()
	defer o.mu.Unlock()
	return sortedKeys(o.texts)
}

// Dirty reports whether the file rel has an overlay whose text differs
// from the file on the disk (a file not on the disk counts as differing).
func (w *Workspace) Dirty(rel string) bool {
	text, ok := w.Overlay(rel)
	if !ok {
		return false
	}
	disk, err := w.fsys.ReadFile(rel)
	return err != nil || !bytes.Equal(disk, text)
}

// refuseDirty refuses a write of any of the paths that has a dirty
// overlay, naming the first such file.
func (w *Workspace) refuseDirty(paths []string) error {
	for _, p := range paths {
		if w.Dirty(p) {
			return diag.Errorf(diag.T9120, "%s has unsaved changes in the editor; save or close it first; nothing was written", p).With("path", p)
		}
	}
	return nil
}

// layer returns the disk's snapshot ix with the overlays laid over it
// (each file updated incrementally, from its old tree). The answer is
// kept until the snapshot or the overlays change.
func (w *Workspace) layer(ctx context.Context, ix *definitions.Index) *definitions.Index {
	o := &w.overlay
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.base == ix && o.layered != nil {
		if o.baseGen == o.gen {
			return o.layered
		}
		// Only the overlays changed since: update those files alone.
		out := o.layered
		for _, p := range sortedKeys(o.pending) {
			if !indexCandidate(p) {
				continue
			}
			text, ok := o.texts[p]
			if !ok { // dropped: back to the disk's text
				if f := ix.File(p); f != nil {
					text = f.Src
				} else {
					out = out.Update(p, nil)
					continue
				}
			}
			if f := out.File(p); f == nil || !bytes.Equal(f.Src, text) {
				out = out.Update(p, text)
			}
		}
		o.baseGen, o.layered, o.pending = o.gen, out, nil
		return out
	}
	if len(o.texts) == 0 {
		o.base, o.baseGen, o.layered, o.pending = ix, o.gen, ix, nil
		return ix
	}
	out := ix
	for _, p := range sortedKeys(o.texts) {
		if !indexCandidate(p) {
			continue
		}
		if f := out.File(p); f != nil && bytes.Equal(f.Src, o.texts[p]) {
			continue
		}
		out = out.Update(p, o.texts[p])
	}
	o.base, o.baseGen, o.layered, o.pending = ix, o.gen, out, nil
	return out
}

// sortedKeys returns a map's keys, sorted: an empty list, never nil, for
// an empty map (an answer's JSON says [] where there is none).
func sortedKeys[K cmp.Ordered, V any](m map[K]V) []K {
	out := make([]K, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// DiskIndex returns the index of the files as they are on the disk,
// without the overlays (Index lays them over).
func (w *Workspace) DiskIndex(ctx context.Context) (*definitions.Index, error) {
	return w.diskIndex(ctx)
}

// WatchedIndex is Index for a process that watches the folder (Watch, or
// an editor's watched files with Refresh): the cached snapshot, with the
// overlays, without a look at the disk; the watcher's refreshes and the
// tools' own writes keep it current. Where none is cached yet, it is Index.
func (w *Workspace) WatchedIndex(ctx context.Context) (*definitions.Index, error) {
	if ix := w.index.current(); ix != nil {
		return w.layer(ctx, ix), nil
	}
	return w.Index(ctx)
}
