package workspace

import (
	"context"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

	ignore "github.com/sabhiram/go-gitignore"

	"github.com/tent-tools/tent-tools/history"
	"github.com/tent-tools/tent-tools/internal/projectfiles"
)

// isSkippedFolder reports whether a folder's name is one the tools never
// walk, at any depth (the one rule: internal/projectfiles).
func isSkippedFolder(name string) bool { return projectfiles.SkippedFolder(name) }

// isFrameworkFile reports whether the resolved path is one the framework
// writes at the root (tent.d.ts, tent.clash.ts, mcp.lock.json).
func isFrameworkFile(rel string) bool { return projectfiles.FrameworkFile(rel) }

// ignores answers what the project's .gitignore files leave out: the root's
// and every folder's own, each for the paths below its folder. A deeper
// file cannot take back what a higher one ignores (a simplification of
// git's rules, which no tent project is expected to need).
type ignores struct {
	w     *Workspace
	mu    sync.Mutex
	files map[string]*ignore.GitIgnore // by folder; nil where it has none
	// fileRules says, by folder, that its .gitignore has a rule that may
	// name a file, not only folders (see filesNeverIgnored).
	fileRules map[string]bool
	known     map[string]bool // answers so far, by path ("/" after a folder's)
	// stamps are the stamps of the .gitignore files compiled, by folder,
	// for a walk that keeps the rules from one call to the next.
	stamps map[string]history.FileState
	// texts, where not nil, keeps the text of each .gitignore read, by
	// folder, for an index built from the walk (definitions.Walked);
	// unkept says one was not read whole as the build reads it (not a
	// regular file, or cut at MaxText), so that the build walks itself.
	texts  map[string][]byte
	unkept bool
}

func newIgnores(w *Workspace) *ignores {
	return &ignores{w: w, files: map[string]*ignore.GitIgnore{}, fileRules: map[string]bool{}, known: map[string]bool{}, stamps: map[string]history.FileState{}}
}

// compile compiles the .gitignore text src of the folder dir into ig
// (ig.mu held), and notes whether any of its rules may name a file.
func (ig *ignores) compile(dir string, src []byte) *ignore.GitIgnore {
	lines := strings.Split(string(src), "\n")
	ig.fileRules[dir] = slices.ContainsFunc(lines, mayNameFile)
	return ignore.CompileIgnoreLines(lines...)
}

// mayNameFile reports whether a line of a .gitignore may name a file: any
// rule but one that names folders only (it ends in "/"). A negation (!)
// counts as one, so that a folder it takes back is matched path by path.
// A blank line or a comment names nothing.
func mayNameFile(line string) bool {
	line = strings.TrimSuffix(line, "\r")
	if line == "" || line[0] == '#' {
		return false
	}
	return line[0] == '!' || !strings.HasSuffix(line, "/")
}

// filesNeverIgnored reports, for a walk that entered the folder dir (so
// that neither it nor a folder above it is ignored), that no .gitignore
// on the way has a rule that may name a file: a file of dir is then not
// ignored, and is not matched path by path. A rule "dist/" names only
// folders, and the folders above a file were each asked when the walk
// entered them. Where dir's rules were not read, it answers false.
func (ig *ignores) filesNeverIgnored(dir string) bool {
	ig.mu.Lock()
	defer ig.mu.Unlock()
	for {
		gi, read := ig.files[dir]
		if !read || gi != nil && ig.fileRules[dir] {
			return false
		}
		if dir == "." {
			return true
		}
		dir = path.Dir(dir)
	}
}

// of returns the compiled .gitignore of the folder dir, or nil.
func (ig *ignores) of(dir string) *ignore.GitIgnore {
	ig.mu.Lock()
	defer ig.mu.Unlock()
	if gi, ok := ig.files[dir]; ok {
		return gi
	}
	var gi *ignore.GitIgnore
	if src, err := ig.w.fsys.ReadFile(path.Join(dir, ".gitignore")); err == nil {
		gi = ig.compile(dir, src)
	}
	ig.files[dir] = gi
	return gi
}

// ignored reports whether a .gitignore of one of the folders above the
// resolved path rel names it.
func (ig *ignores) ignored(rel string, isDir bool) bool {
	suffix := ""
	if isDir {
		suffix = "/" // so that a pattern like "dist/" matches the folder itself
	}
	ig.mu.Lock()
	answer, ok := ig.known[rel+suffix]
	ig.mu.Unlock()
	if ok {
		return answer
	}
	answer = ig.match(rel, suffix)
	ig.mu.Lock()
	ig.known[rel+suffix] = answer
	ig.mu.Unlock()
	return answer
}

// match answers ignored without the memory of earlier answers: the
// .gitignore of each folder above rel, asked about the rest of the path.
// The folders and rests are cut from rel, not joined anew, so one answer
// costs a map lookup per folder and a match per .gitignore on the way:
// linear in the depth (a walk asks once per path; the folders on the way
// were asked when it entered them).
func (ig *ignores) match(rel, suffix string) bool {
	for i := -1; i < len(rel); i++ {
		if i >= 0 && rel[i] != '/' {
			continue
		}
		dir, rest := ".", rel
		if i >= 0 {
			dir, rest = rel[:i], rel[i+1:]
		}
		if gi := ig.of(dir); gi != nil && gi.MatchesPath(rest+suffix) {
			return true
		}
	}
	return false
}

// Walk calls fn for every file, folder and link below the resolved folder
// rel (not rel itself), in lexical order, leaving out skipped folders,
// what .gitignore names, and paths deeper or longer than a project path
// may be (internal/projectfiles). A folder that is itself skipped or ignored but
// named as rel is walked whole (but for skipped folders within it): who
// names it wants to see it. depth is 1 for rel's own entries. fn may
// return fs.SkipDir for a folder. The walk stops when ctx is done.
func (w *Workspace) Walk(ctx context.Context, rel string, fn func(p string, d fs.DirEntry, depth int) error) error {
	return w.walkWith(ctx, newIgnores(w), rel, fn)
}

// walkWith is walk with the .gitignore rules (and their remembered answers)
// of an earlier walk, which the index's scan keeps while no .gitignore
// changes.
func (w *Workspace) walkWith(ctx context.Context, ig *ignores, rel string, fn func(p string, d fs.DirEntry, depth int) error) error {
	names := splitPath(rel)
	base := len(names)
	whole := slices.ContainsFunc(names, isSkippedFolder) || (rel != "." && ig.ignored(rel, true))
	return fs.WalkDir(w.fsys.FS(), rel, func(p string, d fs.DirEntry, err error) error {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		if p == rel {
			return err // an unreadable starting folder ends the walk
		}
		if err != nil {
			return nil // an unreadable folder below is left out
		}
		if d.IsDir() && isSkippedFolder(d.Name()) {
			return fs.SkipDir
		}
		if projectfiles.Bounded(p) != "" {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil // deeper or longer than a project path may be
		}
		if !whole && ig.ignored(p, d.IsDir()) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		return fn(p, d, len(splitPath(p))-base)
	})
}

// WalkFiles calls fn for every regular file below the resolved folder rel
// that Walk would give, in the same order, by descriptors
// (projectfiles.Walk: one open, read and close per file) for a tool that
// reads many files (search): it leaves out what Walk leaves out (skipped
// folders, what .gitignore names, paths beyond a project path's bounds; a
// folder named as rel is walked whole), and links. Each entry's folder is
// open while fn runs; fn holds it (e.Dir.Hold, Release) to read the file
// later. The walk stops when ctx is done or at fn's first error.
func (w *Workspace) WalkFiles(ctx context.Context, rel string, fn func(e projectfiles.Entry) error) error {
	start, err := w.fsys.Open(rel)
	if err != nil {
		return err
	}
	ig := newIgnores(w)
	// A folder that is itself skipped or ignored but named as rel is
	// walked whole (but for skipped folders within it), as Walk does.
	whole := slices.ContainsFunc(splitPath(rel), isSkippedFolder) || (rel != "." && ig.ignored(rel, true))
	// Whether a folder's files may be ignored is asked once per folder
	// (the walk gives a folder's names one after the other), once the
	// rules of the folder and of those above it are read.
	var folder *projectfiles.Dir
	var filesKept bool
	return projectfiles.Walk(ctx, start, rel, func(e projectfiles.Entry) (bool, error) {
		if e.IsDir() && isSkippedFolder(e.Name) || projectfiles.Bounded(e.Path) != "" {
			return false, nil
		}
		if e.IsRegular() && !whole && e.Dir != folder {
			dir := path.Dir(e.Path)
			for d := dir; ; d = path.Dir(d) {
				ig.of(d)
				if d == "." {
					break
				}
			}
			folder, filesKept = e.Dir, ig.filesNeverIgnored(dir)
		}
		if !whole && !(e.IsRegular() && filesKept) && ig.ignored(e.Path, e.IsDir()) {
			return false, nil
		}
		if !e.IsRegular() {
			return true, nil // a folder is entered; a link is left out
		}
		return false, fn(e)
	})
}
