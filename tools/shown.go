package tools

import (
	"os"
	"path"
	"strings"

	"github.com/tent-tools/tent-tools/internal/gitexcludes"
)

// shownFiles is the one rule of search and list for which files below the
// folder they were given they show, beyond the walk's own (.gitignore, the
// skipped folders): as git and rig-tools' users expect, a file or folder
// whose name begins with a dot (.env, .github/) only where asked (hidden)
// or where the glob names one (.github/**, **/.env, .*), and never a file
// that git's other ignore rules (.git/info/exclude, the global excludes
// file) name. What the folder named itself is shown whole: who names
// .github or an excluded folder wants to see it.
type shownFiles struct {
	below    string // the folder named, "." for the root
	hidden   bool   // hidden names are shown
	excludes *gitexcludes.Rules
	whole    bool // the folder named is itself excluded
}

// shownFiles makes the rule for a walk of the resolved folder rel, with
// the input's hidden and glob.
func (w *Workspace) shownFiles(rel string, hidden bool, glob string) *shownFiles {
	sf := &shownFiles{below: rel, hidden: hidden || namesHidden(glob) || hasHidden(rel)}
	sf.excludes = gitexcludes.Load(w.Root(), os.Getenv)
	if rel != "." {
		for d := rel; d != "."; d = path.Dir(d) {
			sf.whole = sf.whole || sf.excludes.Excluded(d, true)
		}
	}
	return sf
}

// shows reports whether the project path p (a folder where isDir), below
// the folder named, is shown. A file's folders on the way are asked for
// too, as a walk that cannot skip a folder (search's, by files) needs.
func (sf *shownFiles) shows(p string, isDir bool) bool {
	below := p
	if sf.below != "." {
		below = strings.TrimPrefix(p, sf.below+"/")
	}
	if !sf.hidden && hasHidden(below) {
		return false
	}
	if sf.whole {
		return true
	}
	if sf.excludes.Excluded(p, isDir) {
		return false
	}
	if !isDir {
		for d := path.Dir(p); d != "." && d != sf.below; d = path.Dir(d) {
			if sf.excludes.Excluded(d, true) {
				return false
			}
		}
	}
	return true
}

// hasHidden reports whether a name of the slash-separated path begins with
// a dot.
func hasHidden(p string) bool {
	for _, name := range strings.Split(p, "/") {
		if strings.HasPrefix(name, ".") && name != "." && name != ".." {
			return true
		}
	}
	return false
}

// namesHidden reports whether a glob names hidden files: one of its
// segments begins with a dot (.github/**, **/.env, .*), as rig-tools'
// search reads a glob.
func namesHidden(glob string) bool {
	return glob != "" && hasHidden(glob)
}
