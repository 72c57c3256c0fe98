package definitions

import (
	"context"
	"os"
	"path"
	"strings"

	ignore "github.com/sabhiram/go-gitignore"

	"github.com/tent-tools/tent-tools/internal/projectfiles"
)

// ignoreSet holds the .gitignore files of a project, each applying to the
// folder it stands in and below.
type ignoreSet struct {
	byDir map[string]*ignore.GitIgnore // "" for the root
	src   map[string][]byte            // their texts, for the index cache
	// foldersOnly holds the folders whose .gitignore names folders
	// alone (foldersOnly).
	foldersOnly map[string]bool
}

// add compiles the .gitignore found in dir ("" for the root).
func (s *ignoreSet) add(dir string, content []byte) {
	if s.byDir == nil {
		s.byDir, s.src, s.foldersOnly = map[string]*ignore.GitIgnore{}, map[string][]byte{}, map[string]bool{}
	}
	lines := strings.Split(string(content), "\n")
	s.byDir[dir] = ignore.CompileIgnoreLines(lines...)
	s.src[dir] = content
	s.foldersOnly[dir] = foldersOnly(lines)
}

// foldersOnly reports whether every pattern of a .gitignore's lines is a
// plain folder name or path (`dist/`, `/build/`, `lib/gen/`: letters,
// digits, `.`, `_`, `-` and `/`, ending in `/`), none negated. Such a
// file names a file only under a folder it names too, so it is not asked
// of the files of a walk (ignoredHere), which never enters a folder it
// names: a project's usual `.tent/`, `node_modules/`, `dist/` were one
// match of three patterns' regular expressions for every file.
func foldersOnly(lines []string) bool {
	for _, l := range lines {
		l = strings.Trim(strings.TrimRight(l, "\r"), " ")
		if l == "" || l[0] == '#' {
			continue
		}
		if !strings.HasSuffix(l, "/") {
			return false
		}
		for i := 0; i < len(l); i++ {
			c := l[i]
			if !(c == '/' || c == '.' || c == '_' || c == '-' || c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z') {
				return false
			}
		}
	}
	return true
}

// IgnoreFiles returns the texts of the .gitignore files whose rules the
// index follows, by path ("lib/.gitignore").
func (ix *Index) IgnoreFiles() map[string][]byte {
	out := map[string][]byte{}
	if ix.ignore != nil {
		for dir, src := range ix.ignore.src {
			out[path.Join(dir, ".gitignore")] = src
		}
	}
	return out
}

// ignored reports whether a .gitignore names the path p (slash-separated,
// relative to the root), or a folder it is in.
func (s *ignoreSet) ignored(p string, isDir bool) bool {
	if s == nil || len(s.byDir) == 0 {
		return false
	}
	// Each folder on the way down may be ignored by any .gitignore above it.
	for i := 0; i < len(p); i++ {
		if p[i] == '/' && s.ignoredHere(p[:i], true) {
			return true
		}
	}
	return s.ignoredHere(p, isDir)
}

// ignoredHere reports whether a .gitignore names the path p itself, not
// looking at the folders it is in: a walk, which never enters an ignored
// folder, asks this once per path, so matching is linear in the depth.
// Only the .gitignore files of p's own folders are asked.
func (s *ignoreSet) ignoredHere(p string, isDir bool) bool {
	if s == nil || len(s.byDir) == 0 {
		return false
	}
	for i := -1; i < len(p); i++ {
		if i >= 0 && p[i] != '/' {
			continue
		}
		dir, rel := "", p
		if i >= 0 {
			dir, rel = p[:i], p[i+1:]
		}
		gi := s.byDir[dir]
		if gi == nil || !isDir && s.foldersOnly[dir] {
			continue
		}
		if gi.MatchesPath(rel) || (isDir && gi.MatchesPath(rel+"/")) {
			return true
		}
	}
	return false
}

// walkProject calls found with each file of the project open as r to
// index, as it meets them (in lexical order): a slash-separated path
// relative to the root, and whether it is a symbolic link. It skips the
// folders that are never project code, what .gitignore files name, files
// that are neither regular nor links (pipes, devices), and every file that
// langOf does not index. It reads the .gitignore files it meets into ign
// (a folder's before any file under it). Links to folders are not
// followed. The folders are listed by projectfiles.Walk, with the kinds
// their listings give (no lstat of each entry where the file system tells
// them); a folder that cannot be listed is left out, but the root.
func walkProject(ctx context.Context, r *os.Root, ign *ignoreSet, found func(p string, link bool)) error {
	top, err := r.Open(".")
	if err != nil {
		return err
	}
	if b, err := r.ReadFile(".gitignore"); err == nil {
		ign.add("", b)
	}
	return projectfiles.Walk(ctx, top, ".", func(e projectfiles.Entry) (bool, error) {
		p := e.Path
		if e.IsDir() {
			if projectfiles.SkippedFolder(e.Name) || projectfiles.Bounded(p+"/x") != "" || ign.ignoredHere(p, true) {
				return false, nil
			}
			if b, err := r.ReadFile(path.Join(p, ".gitignore")); err == nil {
				ign.add(p, b)
			}
			return true, nil
		}
		link := e.IsLink()
		if !link && !e.IsRegular() {
			return false, nil
		}
		if _, ok := langOf(p); ok && !ign.ignoredHere(p, false) {
			found(p, link)
		}
		return false, nil
	})
}
