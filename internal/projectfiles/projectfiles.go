// Package projectfiles is the one rule for which files of a folder belong
// to the project (docs/pages/format.md §1, paths.md): the folders that are
// never walked, the framework's own files, and how deep and long a path
// may be. The index (definitions), the tools' walks (tools) and the copy
// of a template (workspaces) all ask it, so they cannot drift apart.
// .gitignore rules are the walks' own (they need the folders' files); a
// walk decides them once per folder it enters. It imports nothing of the
// project's.
package projectfiles

import (
	"fmt"
	"slices"
	"strings"
)

// skippedFolders are never walked, at any depth and in any capitals: the
// framework's state, version history, installed packages and build output.
var skippedFolders = []string{".tent", ".git", "node_modules", "dist"}

// frameworkFiles are written by the framework at the project's root.
var frameworkFiles = []string{"tent.d.ts", "tent.clash.ts", "mcp.lock.json"}

// SkippedFolder reports whether a folder called name is never walked, at
// any depth: .tent, .git, node_modules and dist, in any capitals.
func SkippedFolder(name string) bool {
	for _, s := range skippedFolders {
		if strings.EqualFold(s, name) {
			return true
		}
	}
	return false
}

// InSkippedFolder reports whether the project path rel (slash-separated,
// relative to the root) lies in a skipped folder at any depth, or is one.
func InSkippedFolder(rel string) bool {
	for rel != "" {
		name, rest, _ := strings.Cut(rel, "/")
		if SkippedFolder(name) {
			return true
		}
		rel = rest
	}
	return false
}

// FrameworkFiles returns the framework's own files at the root, as it
// spells them.
func FrameworkFiles() []string { return slices.Clone(frameworkFiles) }

// FrameworkFile reports whether the project path rel is one the framework
// writes: tent.d.ts, tent.clash.ts or mcp.lock.json at the root, in any
// capitals (lib/tent.d.ts is an ordinary file).
func FrameworkFile(rel string) bool {
	for _, f := range frameworkFiles {
		if strings.EqualFold(f, rel) {
			return true
		}
	}
	return false
}

// The bounds of a project path: a path deeper or longer is no project
// file. Walks do not enter folders below MaxDepth, and a tool refuses such
// a path (tools.Resolve, T9105), so that one write cannot make every later
// walk slow.
const (
	// MaxDepth is how many names a project path may have (a file in
	// 63 folders).
	MaxDepth = 64
	// MaxLen is how many bytes a project path may have.
	MaxLen = 1024
)

// Bounded says why the project path rel is too deep or too long to be a
// project file, or "" where it is within MaxDepth and MaxLen.
func Bounded(rel string) string {
	if len(rel) > MaxLen {
		return fmt.Sprintf("the path is %d bytes long; a project path may have %d at most", len(rel), MaxLen)
	}
	if depth := strings.Count(rel, "/") + 1; depth > MaxDepth {
		return fmt.Sprintf("the path is %d folders deep; a project path may have %d names at most", depth-1, MaxDepth)
	}
	return ""
}
