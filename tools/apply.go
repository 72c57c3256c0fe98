package tools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
	"golang.org/x/sync/errgroup"
)

// Apply is the one place where a change set (a rename's, a remove's)
// reaches the disk. It writes every file or none:
//
//  1. Every path is resolved for writing (T9105 for a refused one), every
//     file to change is read again and must still hold the text the plan
//     was made from, and a file moved to a new path must not overwrite one.
//  2. Every changed file is read again as the index would read it, before
//     anything is written: a change that leaves a file with a syntax error
//     (or test data that is no JSON) that it did not have is refused whole,
//     with that finding's code (T1001, T1002).
//  3. Each new text is written to a new file in its own folder, then all of
//     them are renamed over their paths and the deleted and moved-away files
//     removed. Where a step fails, what was done is put back as it was.
//
// ix is the index the set was planned on. The workspace's index is told of
// each file written; deletions it notices at its next look at the disk.
//
// A journal that finishes or rolls back a change cut short by a crash
// belongs to the change pipeline (tools.md §4) and is not here yet.
func (w *Workspace) Apply(ctx context.Context, ix *definitions.Index, s *change.Set) error {
	if err := s.Validate(); err != nil {
		return fmt.Errorf("apply: %w", err)
	}
	plan, err := w.prepare(s)
	if err != nil {
		return err
	}
	if err := checkReadable(ctx, ix, plan); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := w.commit(plan, w.fsys); err != nil {
		return err
	}
	for _, wr := range plan.writes {
		w.wrote(wr.rel, wr.data)
	}
	return nil
}

// applyPlan is a change set made concrete on the disk: the files to write
// and the files to remove, each with what it held before.
type applyPlan struct {
	writes  []fileWrite
	removes []fileRemove
}

// fileWrite is one file to write: its resolved path, its new text and
// mode, and its text before (existed false for a file that is new).
type fileWrite struct {
	from    string // the file's path in the set before the change
	set     string // its path in the set after the change
	rel     string
	data    []byte
	mode    fs.FileMode
	existed bool
	old     []byte
	tmp     string
}

// fileRemove is one file to remove, with what it held, to put it back.
type fileRemove struct {
	rel  string
	old  []byte
	mode fs.FileMode
}

// prepare resolves and reads everything the set touches, and computes the
// new texts. Nothing is written.
func (w *Workspace) prepare(s *change.Set) (*applyPlan, error) {
	p := &applyPlan{}
	for _, f := range s.Files {
		src, err := w.Resolve(f.Path, true)
		if err != nil {
			return nil, err
		}
		old, mode, err := w.current(src)
		if err != nil {
			return nil, err
		}
		if !bytes.Equal(old, f.Base) {
			return nil, fmt.Errorf("%s changed on the disk since it was read; nothing was written, try again", f.Path)
		}
		text, err := f.Result()
		if err != nil {
			return nil, fmt.Errorf("apply: %w", err)
		}
		if f.To == "" || f.To == f.Path {
			p.writes = append(p.writes, fileWrite{from: f.Path, set: f.Path, rel: src, data: text, mode: mode, existed: true, old: old})
			continue
		}
		dst, err := w.Resolve(f.To, true)
		if err != nil {
			return nil, err
		}
		if _, err := w.fsys.Lstat(dst); err == nil {
			return nil, diag.Errorf(diag.T9107, "%s already exists; moving %s there would overwrite it", f.To, f.Path).With("path", f.To)
		}
		p.writes = append(p.writes, fileWrite{from: f.Path, set: f.To, rel: dst, data: text, mode: mode})
		p.removes = append(p.removes, fileRemove{rel: src, old: old, mode: mode})
	}
	for _, d := range s.Deletes {
		rel, err := w.Resolve(d, true)
		if err != nil {
			return nil, err
		}
		old, mode, err := w.current(rel)
		if err != nil {
			return nil, err
		}
		p.removes = append(p.removes, fileRemove{rel: rel, old: old, mode: mode})
	}
	return p, nil
}

// current reads a file about to change, with its mode.
func (w *Workspace) current(rel string) ([]byte, fs.FileMode, error) {
	data, info, err := w.readFile(rel, MaxFile, func(n int64) error {
		return diag.Errorf(diag.T9104, "%s is %s, larger than a refactor changes", rel, size(n)).With("path", rel)
	})
	if err != nil {
		return nil, 0, err
	}
	return data, info.Mode().Perm(), nil
}

// checkReadable reads each new text as the index would, and refuses the
// change where a file gets a T1xxx finding (syntax, JSON, UTF-8) that it
// did not have. Those findings are the file's own, so the new texts are
// read by themselves, in parallel, without a new snapshot of the project.
func checkReadable(ctx context.Context, ix *definitions.Index, p *applyPlan) error {
	texts := make(map[string][]byte, len(p.writes))
	for _, wr := range p.writes {
		texts[wr.set] = wr.data
	}
	next := definitions.FromFiles(ctx, texts)
	for _, wr := range p.writes {
		had := map[string]int{}
		if before := ix.File(wr.from); before != nil {
			for _, fd := range before.Findings {
				if strings.HasPrefix(fd.Code, "T1") {
					had[fd.Code]++
				}
			}
		}
		after := next.File(wr.set)
		if after == nil {
			continue
		}
		for _, fd := range after.Findings {
			if !strings.HasPrefix(fd.Code, "T1") {
				continue
			}
			if had[fd.Code] > 0 {
				had[fd.Code]--
				continue
			}
			return diag.Errorf(fd.Code, "the change would leave %s unreadable (%s at line %d, column %d: %s); nothing was written",
				fd.Path, fd.Code, fd.Line, fd.Col, fd.Message).With("path", fd.Path).With("line", fd.Line).With("col", fd.Col)
		}
	}
	return nil
}

// fileOps is what commit does to the disk after the new texts are written:
// the workspace's os.Root, or in tests one that fails on purpose.
type fileOps interface {
	Rename(oldname, newname string) error
	Remove(name string) error
}

// commit writes the plan: every new text into a new file beside its path,
// then every rename, then every removal (through ops). A failure puts back
// what was done.
func (w *Workspace) commit(p *applyPlan, ops fileOps) (err error) {
	defer func() {
		for _, wr := range p.writes {
			if wr.tmp != "" {
				w.fsys.Remove(wr.tmp) // a temp file not renamed: nothing to keep
			}
		}
	}()
	// The new texts are written and synced in parallel: syncing one file
	// after another costs a refactor of hundreds of files seconds.
	var g errgroup.Group
	g.SetLimit(8)
	for i := range p.writes {
		g.Go(func() error { return w.writeTemp(&p.writes[i]) })
	}
	if err := g.Wait(); err != nil {
		return err
	}
	var renamed []fileWrite
	var removed []fileRemove
	undo := func(cause error) error {
		var failed []string
		for i := len(removed) - 1; i >= 0; i-- {
			r := removed[i]
			if _, err := w.writeFile(r.rel, r.old); err != nil {
				failed = append(failed, r.rel)
			} else {
				w.fsys.Chmod(r.rel, r.mode)
			}
		}
		for i := len(renamed) - 1; i >= 0; i-- {
			wr := renamed[i]
			var err error
			if wr.existed {
				_, err = w.writeFile(wr.rel, wr.old)
			} else {
				err = w.fsys.Remove(wr.rel)
			}
			if err != nil {
				failed = append(failed, wr.rel)
			}
		}
		if len(failed) > 0 {
			return fmt.Errorf("apply: %w; putting back failed for %s", cause, strings.Join(failed, ", "))
		}
		return fmt.Errorf("apply: %w; nothing was changed", cause)
	}
	for i := range p.writes {
		wr := &p.writes[i]
		if err := ops.Rename(wr.tmp, wr.rel); err != nil {
			return undo(fmt.Errorf("write %s: %w", wr.rel, err))
		}
		wr.tmp = ""
		renamed = append(renamed, *wr)
	}
	for _, r := range p.removes {
		if err := ops.Remove(r.rel); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return undo(fmt.Errorf("remove %s: %w", r.rel, err))
		}
		removed = append(removed, r)
	}
	dirs := map[string]bool{}
	for _, wr := range p.writes {
		dirs[path.Dir(wr.rel)] = true
	}
	for _, r := range p.removes {
		dirs[path.Dir(r.rel)] = true
	}
	for d := range dirs {
		syncFolder(w.fsys, d)
	}
	return nil
}

// writeTemp writes a file's new text into a new file in its folder
// (making the folder where needed), synced, and records its name.
func (w *Workspace) writeTemp(wr *fileWrite) error {
	dir := path.Dir(wr.rel)
	if err := w.fsys.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write %s: make folder %s: %w", wr.rel, dir, err)
	}
	tmp, err := tempName(wr.rel)
	if err != nil {
		return err
	}
	f, err := w.fsys.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, wr.mode)
	if err != nil {
		return fmt.Errorf("write %s: %w", wr.rel, err)
	}
	wr.tmp = tmp
	if _, err := f.Write(wr.data); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", wr.rel, err)
	}
	if err := f.Chmod(wr.mode); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", wr.rel, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", wr.rel, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", wr.rel, err)
	}
	return nil
}
