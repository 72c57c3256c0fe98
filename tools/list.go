package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"syscall"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/words"
	"github.com/tent-tools/tent-tools/internal/workspace"
)

// ListInput is the input of list: a folder (left out: the project's root),
// how deep to go (left out: 2, or every depth where glob is given), and a
// glob that the files' paths below the folder must match.
type ListInput struct {
	Path  string `json:"path,omitempty"`
	Depth int    `json:"depth,omitempty"`
	Glob  string `json:"glob,omitempty"`
	// Hidden lists the files and folders whose names begin with a dot
	// (.gitignore, .github/) too; left out, they are listed only where
	// glob, or path, names one.
	Hidden bool `json:"hidden,omitempty"`
	// From skips the first entries (in the answer's order): an agent's
	// answer holds 500 at most, and its more says the from of the next
	// ones.
	From int `json:"from,omitempty"`
}

// ListAnswer is the data answer of list: the folder, its entries in lexical
// order (paths from the project's root), how many were cut, and (where
// some were) how to ask for them.
type ListAnswer struct {
	Path    string      `json:"path"`
	Entries []Entry     `json:"entries"`
	Cut     int         `json:"cut"`
	More    []diag.More `json:"more,omitempty"`
}

// Entry is one file, folder or link that list shows. Size is a file's size
// in bytes; Entries counts what a folder holds where list went no deeper;
// Target is where a link points.
type Entry struct {
	Path    string `json:"path"`
	Kind    string `json:"kind"` // "file", "folder" or "link"
	Size    int64  `json:"size,omitempty"`
	Entries *int   `json:"entries,omitempty"`
	Target  string `json:"target,omitempty"`
}

const defaultListDepth = 2

func init() {
	register(Tool{
		Name:     "list",
		Summary:  "A folder's files and folders as git would track them (.gitignore, .git/info/exclude, the global excludes), down to a depth (default 2), optionally only the files matching a glob; hidden ones (.env, .github/) only with hidden or a glob that names one",
		NewInput: func() any { return new(ListInput) },
		Answer:   ListAnswer{},
		ReadOnly: true,
		Local:    true,
		Run: func(ctx context.Context, w *Workspace, in any) (Answer, error) {
			return w.list(ctx, *in.(*ListInput))
		},
	})
}

// List answers a folder's entries, leaving out what .gitignore names and
// the skipped folders (.git, .tent, node_modules, dist). A glob (with "**"
// crossing folders) is matched against paths relative to the folder and
// keeps only files. The entries from the from-th on are answered, where
// the view is bounded (an agent's) budgetEntries at most: Cut counts the
// rest, and More says the from of the next.
func (w *Workspace) list(ctx context.Context, in ListInput) (Answer, error) {
	if in.Depth < 0 {
		return Answer{}, diag.Errorf(diag.T9102, "bad input: depth must be 1 or more").With("field", "depth")
	}
	if in.From < 0 {
		return Answer{}, diag.Errorf(diag.T9102, "bad input: from %d: give 0 or more", in.From).With("field", "from")
	}
	if in.Glob != "" && !doublestar.ValidatePattern(in.Glob) {
		return Answer{}, diag.Errorf(diag.T9102, "bad input: glob %q is not a valid pattern", in.Glob).With("field", "glob")
	}
	depth := in.Depth
	if depth == 0 && in.Glob == "" {
		depth = defaultListDepth
	}
	rel, err := w.Resolve(in.Path, false)
	if err != nil {
		return Answer{}, err
	}
	info, err := w.state.FS().Stat(rel)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		// list names folders: "no file" would send the agent to look for one.
		return Answer{}, diag.Errorf(diag.T9103, "no folder %s in the project (list without a path lists the project's root)", rel).With("path", rel)
	}
	if err != nil {
		return Answer{}, workspace.OpenError(rel, err)
	}
	if !info.IsDir() {
		return Answer{}, diag.Errorf(diag.T9102, "%s is a file, not a folder; read shows a file", rel).With("path", rel)
	}
	shown := w.shownFiles(rel, in.Hidden, in.Glob)
	ans := ListAnswer{Path: rel, Entries: []Entry{}}
	skipped := 0 // the entries before from
	bounded := w.Options().Bounded
	var b strings.Builder
	err = w.state.Walk(ctx, rel, func(p string, d fs.DirEntry, level int) error {
		below := p
		if rel != "." {
			below = strings.TrimPrefix(p, rel+"/")
		}
		deepest := depth > 0 && level >= depth
		if !shown.shows(p, d.IsDir()) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if in.Glob != "" && (d.IsDir() || !doublestar.MatchUnvalidated(in.Glob, below)) {
			if d.IsDir() && deepest {
				return fs.SkipDir
			}
			return nil
		}
		if skipped < in.From {
			skipped++
			if d.IsDir() && deepest {
				return fs.SkipDir
			}
			return nil
		}
		if bounded && len(ans.Entries) == budgetEntries {
			ans.Cut++
			if d.IsDir() && deepest {
				return fs.SkipDir
			}
			return nil
		}
		e := Entry{Path: p, Kind: "file"}
		indent := strings.Repeat("  ", level-1)
		name := d.Name()
		if in.Glob != "" {
			indent, name = "", below
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			e.Kind = "link"
			e.Target, _ = w.state.FS().Readlink(p)
			fmt.Fprintf(&b, "%s%s -> %s\n", indent, name, e.Target)
		case d.IsDir():
			e.Kind = "folder"
			if deepest {
				n := w.countEntries(ctx, p, shown)
				e.Entries = &n
				fmt.Fprintf(&b, "%s%s/ (%s)\n", indent, name, words.Count(n, "entry"))
			} else {
				fmt.Fprintf(&b, "%s%s/\n", indent, name)
			}
		default:
			if info, err := d.Info(); err == nil {
				e.Size = info.Size()
			}
			fmt.Fprintf(&b, "%s%s\n", indent, name)
		}
		ans.Entries = append(ans.Entries, e)
		if d.IsDir() && deepest {
			return fs.SkipDir
		}
		return nil
	})
	if err != nil {
		return Answer{}, fmt.Errorf("list %s: %w", rel, err)
	}
	head := rel + "/"
	if rel == "." {
		head = "the project's root"
	}
	text := fmt.Sprintf("%s (%s)\n%s", head, words.Count(len(ans.Entries), "entry"), b.String())
	switch {
	case len(ans.Entries) == 0 && skipped > 0:
		text = fmt.Sprintf("no entries in %s from %d: there are %d\n", head, in.From, skipped)
	case len(ans.Entries) == 0 && in.Glob != "":
		text = fmt.Sprintf("no files in %s match %q\n", head, in.Glob)
	case len(ans.Entries) == 0:
		text = fmt.Sprintf("%s is empty\n", head)
	}
	if ans.Cut > 0 {
		next := in.From + len(ans.Entries)
		ans.More = []diag.More{{List: "entries", Shown: len(ans.Entries), Cut: ans.Cut, From: next,
			Rest: fmt.Sprintf("list with from %d shows the next; a folder below, or a glob, fewer", next)}}
		var mb strings.Builder
		writeMore(&mb, ans.More)
		text += mb.String()
	}
	return Answer{Text: text, Data: ans}, nil
}

// countEntries counts what the folder rel holds, as list would show it.
func (w *Workspace) countEntries(ctx context.Context, rel string, shown *shownFiles) int {
	n := 0
	w.state.Walk(ctx, rel, func(p string, d fs.DirEntry, _ int) error {
		if !shown.shows(p, d.IsDir()) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		n++
		if d.IsDir() {
			return fs.SkipDir
		}
		return nil
	})
	return n
}
