package workspace

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"

	ignore "github.com/sabhiram/go-gitignore"
	"golang.org/x/sys/unix"

	"github.com/tent-tools/tent-tools/history"
	"github.com/tent-tools/tent-tools/internal/projectfiles"
)

// statWalk walks the whole project as walk does (leaving out the skipped
// folders and what .gitignore names) and calls fn for every regular file
// with its stamp. It is the walk of every call (the look for changes made
// outside, the index's look for changed files), so it is made cheap: each
// folder is opened relative to its parent's descriptor without following
// links (openat, O_NOFOLLOW), and each name is stamped relative to it
// (fstatat), so no path is resolved twice and nothing can lead out of the
// project. A .gitignore is read only where a folder has one. ig keeps the
// compiled rules and answers of an earlier walk (the workspace's own
// where nil); a .gitignore that changed since is read again.
func (w *Workspace) statWalk(ctx context.Context, ig *ignores, fn func(rel string, st history.FileState)) error {
	return w.statWalkLinks(ctx, ig, fn, nil)
}

// statWalkLinks is statWalk that also calls link, where not nil, with
// each symbolic link it would have stamped were it a regular file (the
// index reads a link that leads to a regular file in the project).
func (w *Workspace) statWalkLinks(ctx context.Context, ig *ignores, fn func(rel string, st history.FileState), link func(rel string)) error {
	if ig == nil {
		ig = w.walkRules()
	}
	w.walks.Add(1)
	root, err := w.fsys.Open(".")
	if err != nil {
		return fmt.Errorf("walk %s: %w", w.root, err)
	}
	defer root.Close()
	fd, err := unix.Dup(int(root.Fd()))
	if err != nil {
		return fmt.Errorf("walk %s: %w", w.root, err)
	}
	return w.statDir(ctx, ig, fd, ".", fn, link)
}

// statDir walks the folder rel open as fd (which it closes).
func (w *Workspace) statDir(ctx context.Context, ig *ignores, fd int, rel string, fn func(string, history.FileState), link func(string)) error {
	dir := os.NewFile(uintptr(fd), rel)
	defer dir.Close()
	names, err := dir.Readdirnames(-1)
	if err != nil {
		return nil // an unreadable folder is left out
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	ig.refresh(fd, rel, names)
	for _, n := range names {
		var st unix.Stat_t
		if err := unix.Fstatat(fd, n, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			continue // gone meanwhile
		}
		p := n
		if rel != "." {
			p = rel + "/" + n
		}
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFDIR:
			// A folder whose files would be too deep or too long to
			// be project files is not entered.
			if isSkippedFolder(n) || projectfiles.Bounded(p+"/x") != "" || ig.ignored(p, true) {
				continue
			}
			sub, err := unix.Openat(fd, n, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
			if err != nil {
				continue
			}
			if err := w.statDir(ctx, ig, sub, p, fn, link); err != nil {
				return err
			}
		case unix.S_IFREG:
			if !ig.filesNeverIgnored(rel) && ig.ignored(p, false) {
				continue
			}
			fn(p, history.FileState{Path: p, Size: st.Size, MTime: st.Mtim.Nano(), Inode: st.Ino, CTime: st.Ctim.Nano()})
		case unix.S_IFLNK:
			if link == nil || !ig.filesNeverIgnored(rel) && ig.ignored(p, false) {
				continue
			}
			link(p)
		}
	}
	return nil
}

// readAt reads a small file (a .gitignore) relative to a folder's
// descriptor, without following a link.
func readAt(dirfd int, name string) ([]byte, error) {
	fd, err := unix.Openat(dirfd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), name)
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, MaxText))
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return src, nil
}

// isRulesFile reports whether a project path is a .gitignore.
func isRulesFile(p string) bool { return path.Base(p) == ".gitignore" }

// walkRules returns the workspace's .gitignore rules kept between walks.
func (w *Workspace) walkRules() *ignores {
	w.rulesMu.Lock()
	defer w.rulesMu.Unlock()
	if w.rules == nil {
		w.rules = newIgnores(w)
	}
	return w.rules
}

// refresh makes the rules of the folder rel (open as fd, holding names)
// current: its .gitignore is compiled where it is new or changed since the
// rules were read, and dropped where it is gone. A change forgets every
// answer given by the old rules.
func (ig *ignores) refresh(fd int, rel string, names []string) {
	var st unix.Stat_t
	has := false
	for _, n := range names {
		if n == ".gitignore" {
			has = unix.Fstatat(fd, n, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFREG
			if !has && ig.texts != nil {
				ig.mu.Lock()
				ig.unkept = true // a link, say, which the index's own walk follows
				ig.mu.Unlock()
			}
		}
	}
	now := history.FileState{Size: st.Size, MTime: st.Mtim.Nano(), Inode: st.Ino}
	ig.mu.Lock()
	defer ig.mu.Unlock()
	was, known := ig.stamps[rel]
	_, compiled := ig.files[rel]
	switch {
	case has && known && was.SameStamp(now) && compiled:
		return
	case !has && !known && compiled:
		return
	}
	var rules *ignore.GitIgnore
	if has {
		src, err := readAt(fd, ".gitignore")
		if err == nil {
			rules = ig.compile(rel, src)
		}
		if ig.texts != nil {
			if err != nil || len(src) >= MaxText {
				ig.unkept = true
			} else {
				ig.texts[rel] = src
			}
		}
		ig.stamps[rel] = now
	} else {
		delete(ig.stamps, rel)
	}
	if compiled {
		clear(ig.known) // the rules changed: every answer is asked again
	}
	ig.files[rel] = rules
}
