package workspace

import (
	"errors"
	"io/fs"
	"path"
	"strings"
	"syscall"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/projectfiles"
	"github.com/tent-tools/tent-tools/policy"
)

// maxLinks bounds how many links one path may pass through, so that a loop
// of links is refused rather than followed forever.
const maxLinks = 40

// The framework's own names (docs/pages/format.md §1). They are compared in any
// capitals, since a file system may not tell "Tent.D.ts" from "tent.d.ts".
const (
	stateFolder = ".tent"
	gitFolder   = ".git"
	engineFile  = "engine.ts"
)

// Resolve turns a path that a tool was given into the path it names inside
// the project: slash-separated, relative to the root, every link followed
// ("." for the root itself). It refuses with T9105, and without opening
// anything but the folders on the way, a path that
//   - is absolute, holds a NUL byte or a backslash;
//   - leads out of the project by "..", or by a link anywhere on the way
//     (a link to an absolute path is refused even where it points inside);
//   - passes through .tent/ (the framework's state) or .git/ (the version
//     history, whose hooks run code), in any capitals;
//   - for a write: names tent.d.ts, tent.clash.ts or mcp.lock.json at the
//     root in any capitals, or engine.ts unless the policy's also names
//     "engine".
//
// Resolving walks the path one name at a time on the real folders, so a
// link is judged where it stands. Tools then open the resolved path through
// the workspace's os.Root, which refuses to leave the folder even if a link
// is swapped in between.
func (w *Workspace) Resolve(p string, forWrite bool) (string, error) {
	if err := checkSpelling(p); err != nil {
		return "", err
	}
	if why := projectfiles.Bounded(path.Clean(p)); why != "" {
		return "", refuse(p, "%s", why)
	}
	var (
		done  []string       // resolved names, no links among them
		todo  = splitPath(p) // names still to walk
		links int            // links followed so far
		via   string         // the last link followed, for messages
	)
	for len(todo) > 0 {
		name := todo[0]
		todo = todo[1:]
		if name == ".." {
			if len(done) == 0 {
				return "", refuse(p, "%s leads out of the project%s", p, via)
			}
			done = done[:len(done)-1]
			continue
		}
		if strings.EqualFold(name, stateFolder) {
			return "", refuse(p, "%s/ is the framework's own state; no tool reads or writes it", stateFolder)
		}
		if strings.EqualFold(name, gitFolder) {
			return "", refuse(p, "%s/ is the version history, not project code; no tool reads or writes it", gitFolder)
		}
		done = append(done, name)
		here := strings.Join(done, "/")
		info, err := w.fsys.Lstat(here)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			continue // a name still to be made (for a write): nothing to follow
		}
		if err != nil {
			return "", refuse(p, "%s cannot be examined: %v", here, err)
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			continue
		}
		if len(done) == 1 && isFrameworkName(name) {
			return "", frameworkLink(p, name)
		}
		links++
		if links > maxLinks {
			return "", refuse(p, "%s passes through more than %d links", p, maxLinks)
		}
		target, err := w.fsys.Readlink(here)
		if err != nil {
			return "", refuse(p, "the link %s cannot be read: %v", here, err)
		}
		if strings.HasPrefix(target, "/") {
			return "", refuse(p, "%s is a link to the absolute path %s; links must stay inside the project", here, target)
		}
		if err := checkSpelling(target); err != nil {
			return "", refuse(p, "%s is a link to %q, which is no plain relative path", here, target)
		}
		// Walk the link's target from the link's own folder, then the rest.
		via = " (through the link " + here + " -> " + target + ")"
		done = done[:len(done)-1]
		todo = append(splitPath(target), todo...)
	}
	rel := strings.Join(done, "/")
	if rel == "" {
		rel = "."
	}
	if forWrite {
		if err := w.checkWrite(p, rel); err != nil {
			return "", err
		}
	}
	return rel, nil
}

// isFrameworkName reports whether a name at the root is engine.ts or a
// file the framework writes, in any capitals.
func isFrameworkName(name string) bool {
	return strings.EqualFold(name, engineFile) || isFrameworkFile(name)
}

// frameworkLink is the T9105 error of engine.ts or a framework file that is
// a link: whatever it points at would be read as (and written for) the
// project's engine or the framework's own file, past the rules that guard
// them.
func frameworkLink(p, name string) error {
	return refuse(p, "%s is a link; engine.ts and the framework's files must be real files at the project's root: replace the link by the file it points at", name)
}

// checkFrameworkLinks refuses (T9105) a project whose engine.ts or
// framework file is a link, before its definitions are read.
func (w *Workspace) checkFrameworkLinks() error {
	for _, name := range append([]string{engineFile}, projectfiles.FrameworkFiles()...) {
		if info, err := w.fsys.Lstat(name); err == nil && info.Mode()&fs.ModeSymlink != 0 {
			return frameworkLink(name, name)
		}
	}
	return nil
}

// checkSpelling refuses what no project path may hold, before anything is
// looked at on the disk.
func checkSpelling(p string) error {
	switch {
	case strings.ContainsRune(p, 0):
		return refuse(p, "the path holds a NUL byte")
	case strings.ContainsRune(p, '\\'):
		return refuse(p, "%s holds a backslash; paths use / between folders", p)
	case path.IsAbs(p):
		return refuse(p, "%s is an absolute path; paths are relative to the project's root", p)
	}
	return nil
}

// checkWrite refuses a write to a framework file, judged on the resolved
// path rel, so that a link cannot smuggle one in.
func (w *Workspace) checkWrite(p, rel string) error {
	if rel == "." {
		return nil // the root is a folder; the tool answers that itself
	}
	for _, f := range projectfiles.FrameworkFiles() {
		if strings.EqualFold(rel, f) {
			return refuse(p, "%s is written by the framework, never by a tool", f)
		}
	}
	if strings.EqualFold(rel, engineFile) && !w.opts.Policy.Lets(policy.AlsoEngine) {
		return refuse(p, "%s is written only where the policy's also names %q", engineFile, policy.AlsoEngine)
	}
	return nil
}

// splitPath splits a slash-separated path into its names, dropping empty
// names and ".".
func splitPath(p string) []string {
	var names []string
	for _, n := range strings.Split(p, "/") {
		if n != "" && n != "." {
			names = append(names, n)
		}
	}
	return names
}

// refuse makes the T9105 error for the path p.
func refuse(p, format string, args ...any) *diag.ToolError {
	return diag.Errorf(diag.T9105, "path refused: "+format, args...).With("path", p)
}
