package tools

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/defchange"
	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
)

// MoveInput is the input of move: a file and the path it moves to.
type MoveInput struct {
	Path string `json:"path"`
	To   string `json:"to"`
}

// MoveAnswer is the data answer of move.
type MoveAnswer struct {
	Path    string        `json:"path"`
	To      string        `json:"to"`
	Changed []change.Line `json:"changed"`
	Point   *int          `json:"point"`
	// More, in an agent's bounded answer, says what Changed left out.
	More []diag.More `json:"more,omitempty"`
}

func init() {
	register(Tool{
		Name:       "move",
		Summary:    "Moves or renames a file, and changes the relative imports that name it (in other files, and its own in it)",
		Writes:     true,
		NewInput:   func() any { return new(MoveInput) },
		Answer:     MoveAnswer{},
		Idempotent: true,
		Local:      true,
		Run: func(ctx context.Context, w *Workspace, in any) (Answer, error) {
			return w.move(ctx, *in.(*MoveInput))
		},
	})
}

// Move plans a file's move as a change set (the move, and an edit of every
// relative module specifier that names the file, or, in the file itself,
// names another file from its old folder) and applies it.
func (w *Workspace) move(ctx context.Context, in MoveInput) (Answer, error) {
	from, err := w.Resolve(in.Path, true)
	if err != nil {
		return Answer{}, err
	}
	to, err := w.Resolve(in.To, true)
	if err != nil {
		return Answer{}, err
	}
	if from == "." || to == "." {
		return Answer{}, diag.Errorf(diag.T9102, "bad input: move moves one file; give its path and the path it moves to")
	}
	src, _, err := w.state.Current(from)
	if err != nil {
		return Answer{}, err
	}
	if from == to {
		return Answer{}, diag.Errorf(diag.T9107, "%s is already at %s", in.Path, in.To).With("path", in.To)
	}
	if _, err := w.state.FS().Lstat(to); err == nil {
		return Answer{}, diag.Errorf(diag.T9107, "%s already exists; moving %s there would overwrite it", to, from).With("path", to)
	}
	ix, err := w.Index(ctx)
	if err != nil {
		return Answer{}, err
	}
	b := change.NewBuilder()
	b.Move(from, src, to)
	if edits := specifierEdits(ix, from, src, func(named string) string { return relSpecifier(path.Dir(to), movedName(named, from, to)) }, from); len(edits) > 0 {
		b.Edit(from, src, edits...)
	}
	for _, f := range ix.Files() {
		if f.Path == from || (f.Lang != definitions.LangTS && f.Lang != definitions.LangTSX) {
			continue
		}
		edits := specifierEdits(ix, f.Path, f.Src, func(named string) string {
			return relSpecifier(path.Dir(f.Path), movedName(named, from, to))
		}, from)
		if len(edits) > 0 {
			b.Edit(f.Path, f.Src, edits...)
		}
	}
	s, err := b.Set()
	if err != nil {
		return Answer{}, fmt.Errorf("move %s: %w", from, err)
	}
	s.Action, s.Kind, s.Target, s.To = change.ActionMove, defchange.KindFile, from, to
	point, err := w.state.Apply(ctx, ix, s)
	if err != nil {
		return Answer{}, err
	}
	changed, err := s.Changed()
	if err != nil {
		return Answer{}, err
	}
	var edited []change.Line
	for _, l := range changed {
		if l.Line > 0 {
			edited = append(edited, l)
		}
	}
	if edited == nil {
		edited = []change.Line{}
	}
	var more []diag.More
	edited = bound(w.Options().Bounded, &more, "changed", edited, 0, budgetLines, changedRest(point), false)
	var out strings.Builder
	fmt.Fprintf(&out, "moved %s to %s\n", from, to)
	if len(edited) == 0 {
		out.WriteString("no import named it\n")
	} else {
		writeChanged(&out, edited)
	}
	writePoint(&out, point)
	writeMore(&out, more)
	return Answer{Text: out.String(), Data: MoveAnswer{Path: from, To: to, Changed: edited, Point: pointRef(point), More: more}}, nil
}

// specifierPattern finds relative module specifiers: after from, import,
// import( and require(, in either quote.
var specifierPattern = regexp.MustCompile(`\b(?:from|import|require)\s*\(?\s*(['"])(\.\.?(?:/[^'"\r\n]*)?)['"]`)

// specifierEdits returns the edits of the relative module specifiers in
// one file's src that name the moved file (for another file) or any file
// (for the moved file itself, whose folder changes). newSpec gives a
// specifier's new text from the path it names.
func specifierEdits(ix *definitions.Index, file string, src []byte, newSpec func(named string) string, moved string) []change.Edit {
	var edits []change.Edit
	for _, m := range specifierPattern.FindAllSubmatchIndex(src, -1) {
		start, end := m[4], m[5]
		spec := string(src[start:end])
		named := path.Join(path.Dir(file), spec)
		if named == ".." || strings.HasPrefix(named, "../") {
			continue // leaves the project: nothing to follow
		}
		target := ix.ResolveImport(file, spec)
		if target == "" && named == moved {
			target = moved // a file the index does not read (a stylesheet, JSON)
		}
		if file != moved && target != moved {
			continue
		}
		next := newSpec(named)
		if next != spec {
			edits = append(edits, change.Edit{Start: start, End: end, Text: next})
		}
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].Start < edits[j].Start })
	return edits
}

// movedName is the path a specifier names once the file moves: the same
// path where it names another file; the new path, in the same style
// (extension or none, .js for .ts, the folder of an index file), where it
// names the moved file.
func movedName(named, from, to string) string {
	fromStem, toStem := strings.TrimSuffix(from, path.Ext(from)), strings.TrimSuffix(to, path.Ext(to))
	switch {
	case named == from:
		return to
	case named == fromStem:
		return toStem
	case strings.HasPrefix(named, fromStem+".") && !strings.Contains(named[len(fromStem)+1:], "/"):
		return toStem + named[len(fromStem):] // ./x.js for x.ts
	case isIndex(from) && named == path.Dir(from):
		if isIndex(to) {
			return path.Dir(to)
		}
		return toStem
	}
	return named
}

// isIndex reports whether a path is a folder's index file.
func isIndex(p string) bool {
	base := path.Base(p)
	return base == "index.ts" || base == "index.tsx"
}

// relSpecifier writes the relative specifier from a folder to a path:
// "./x" or "../lib/x".
func relSpecifier(dir, target string) string {
	rel, err := filepath.Rel(filepath.FromSlash(dir), filepath.FromSlash(target))
	if err != nil {
		return "./" + target
	}
	rel = filepath.ToSlash(rel)
	if rel == "." {
		return "."
	}
	if rel == ".." || strings.HasPrefix(rel, "../") {
		return rel
	}
	return "./" + rel
}
