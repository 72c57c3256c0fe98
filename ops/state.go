package ops

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/definitions"
)

// state is the project as the operations planned so far left it: the
// index of the texts after them (each operation is planned on it), every
// file they touched with the text it had before the first and has now,
// what they renamed on purpose, and the code sites they left.
type state struct {
	ctx context.Context
	// read is the index of the texts as of the steps read so far; pending
	// are the files the steps after changed, read on the next look
	// (index): a step's texts are read only where something asks, so the
	// last operation's (a rename's hundreds of files) are not read for a
	// face that only answers or applies the set.
	read      *definitions.Index
	pending   []definitions.FileChange
	pendingAt map[string]bool       // the paths of pending
	files     map[string]*fileState // by the path it has now
	all       []*fileState
	// renamed maps a definition's or column's full name before the
	// operations to its name now.
	renamed map[string]string
	left    []leftSite
}

// fileState is one file the operations touched.
type fileState struct {
	orig  string // its path before the operations ("" for a new file)
	cur   string // its path now
	base  []byte // its text before the operations (nil for a new file)
	text  []byte // its text now
	isNew bool
	gone  bool
}

// leftSite is a code site a rename or a remove left, at an offset of its
// file's text now.
type leftSite struct {
	path string
	off  int
	site change.Site
}

func newState(ctx context.Context, ix *definitions.Index) *state {
	return &state{ctx: ctx, read: ix, files: map[string]*fileState{}, renamed: map[string]string{}}
}

// index is the index of the texts the steps so far left, their changed
// files read now where they were not yet (the last change of each path).
func (st *state) index() *definitions.Index {
	if len(st.pending) == 0 {
		return st.read
	}
	last := make(map[string]int, len(st.pending))
	for i, c := range st.pending {
		last[c.Path] = i
	}
	changes := make([]definitions.FileChange, 0, len(last))
	for i, c := range st.pending {
		if last[c.Path] == i {
			changes = append(changes, c)
		}
	}
	st.read, st.pending, st.pendingAt = st.read.UpdateFiles(st.ctx, changes), nil, nil
	return st.read
}

// src is the text of a file now (nil where there is none): a file the
// steps touched holds its text now; another is as the index read it (the
// steps' pending changes not read for it).
func (st *state) src(path string) []byte {
	if fs := st.files[path]; fs != nil {
		if fs.gone {
			return nil
		}
		return fs.text
	}
	ix := st.read
	if st.pendingAt[path] {
		ix = st.index()
	}
	if f := ix.File(path); f != nil {
		return f.Src
	}
	return nil
}

// track is the state of the file at path now, made where the operations
// had not touched it yet (its text now is its text before).
func (st *state) track(path string, text []byte) *fileState {
	if fs := st.files[path]; fs != nil {
		return fs
	}
	fs := &fileState{orig: path, cur: path, base: text, text: text}
	st.files[path] = fs
	st.all = append(st.all, fs)
	return fs
}

// edit applies edits of one file (its text now) as a step.
func (st *state) edit(path string, edits ...change.Edit) error {
	b := change.NewBuilder()
	b.Edit(path, st.src(path), edits...)
	s, err := b.Set()
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return st.apply(s)
}

// create makes a new file as a step.
func (st *state) create(path string, text string) error {
	return st.apply(&change.Set{Files: []*change.FileEdit{{Path: path, New: true, Edits: []change.Edit{{Text: text}}}}})
}

// apply takes a change set planned on the state's index as the next step:
// the files' texts move on, the index is to be read again where they
// changed (index),
// the renames are composed and the sites it left are kept.
func (st *state) apply(s *change.Set) error {
	if err := s.Validate(); err != nil {
		return err
	}
	var changes []definitions.FileChange
	moved := map[string]string{}
	for _, f := range s.Files {
		text, err := f.Result()
		if err != nil {
			return err
		}
		if f.New {
			if fs := st.files[f.Path]; fs != nil {
				if !fs.gone {
					return fmt.Errorf("%s is made twice", f.Path)
				}
				fs.gone, fs.text = false, text
			} else if st.index().File(f.Path) != nil {
				return fmt.Errorf("%s already exists", f.Path)
			} else {
				fs := &fileState{cur: f.Path, text: text, isNew: true}
				st.files[f.Path] = fs
				st.all = append(st.all, fs)
			}
			changes = append(changes, definitions.FileChange{Path: f.Path, Src: text})
			continue
		}
		fs := st.track(f.Path, f.Base)
		fs.text = text
		if to := f.NewPath(); to != f.Path {
			delete(st.files, f.Path)
			fs.cur = to
			st.files[to] = fs
			moved[f.Path] = to
			changes = append(changes, definitions.FileChange{Path: f.Path, Gone: true})
			changes = append(changes, definitions.FileChange{Path: to, Src: text})
			continue
		}
		changes = append(changes, definitions.FileChange{Path: f.Path, Src: text})
	}
	for _, d := range s.Deletes {
		fs := st.track(d, st.src(d))
		fs.gone = true
		changes = append(changes, definitions.FileChange{Path: d, Gone: true})
	}
	st.moveSites(s, moved)
	st.compose(s.Renamed)
	for _, site := range s.Left {
		fs := st.files[site.Path]
		var text []byte
		if fs != nil {
			text = fs.text
		} else {
			text = st.src(site.Path)
		}
		st.left = append(st.left, leftSite{path: site.Path, off: offsetOf(text, site.Line, site.Col), site: site})
	}
	if st.pendingAt == nil {
		st.pendingAt = map[string]bool{}
	}
	for _, c := range changes {
		st.pendingAt[c.Path] = true
	}
	st.pending = append(st.pending, changes...)
	return nil
}

// moveSites carries the sites left before a step to the texts after it.
func (st *state) moveSites(s *change.Set, moved map[string]string) {
	if len(st.left) == 0 {
		return
	}
	byPath := map[string]*change.FileEdit{}
	for _, f := range s.Files {
		byPath[f.Path] = f
	}
	gone := map[string]bool{}
	for _, d := range s.Deletes {
		gone[d] = true
	}
	kept := st.left[:0]
	for _, l := range st.left {
		if gone[l.path] {
			continue
		}
		if f := byPath[l.path]; f != nil {
			off, ok := change.MapOffset(f.Edits, l.off)
			if !ok {
				continue // the step replaced it
			}
			l.off = off
			if to, ok := moved[l.path]; ok {
				l.path = to
			}
		}
		kept = append(kept, l)
	}
	st.left = kept
}

// compose adds a step's renames: a name renamed again keeps its first
// name, and a table's rename carries its columns' names along.
func (st *state) compose(renamed map[string]string) {
	for from, to := range renamed {
		orig := st.origOf(from)
		for o, c := range st.renamed {
			if strings.HasPrefix(c, from+".") && !strings.Contains(from, ".") {
				st.renamed[o] = to + c[len(from):]
			}
		}
		st.renamed[orig] = to
	}
}

// origOf is the name before the operations of what is named name now.
func (st *state) origOf(name string) string {
	for o, c := range st.renamed {
		if c == name {
			return o
		}
	}
	if table, col, ok := strings.Cut(name, "."); ok {
		return st.origOf(table) + "." + col
	}
	return name
}

// offsetOf is the byte offset of a 1-based line and column (in code
// points) of text.
func offsetOf(text []byte, line, col int) int {
	off := 0
	for l := 1; l < line && off < len(text); off++ {
		if text[off] == '\n' {
			l++
		}
	}
	for c := 1; c < col && off < len(text); c++ {
		_, size := utf8.DecodeRune(text[off:])
		off += size
	}
	return off
}

// set is the one change set of every step: each file from its text
// before the operations to its text after them, in edits cut to what
// changed (change.LineEdits).
func (st *state) set() (*change.Set, error) {
	s := &change.Set{Action: change.ActionChange, Renamed: map[string]string{}}
	for o, c := range st.renamed {
		if o != c {
			s.Renamed[o] = c
		}
	}
	for _, fs := range st.all {
		switch {
		case fs.isNew && fs.gone:
		case fs.isNew:
			s.Files = append(s.Files, &change.FileEdit{Path: fs.cur, New: true, Edits: []change.Edit{{Text: string(fs.text)}}})
		case fs.gone:
			s.Deletes = append(s.Deletes, fs.orig)
		default:
			edits := change.LineEdits(fs.base, fs.text)
			if len(edits) == 0 && fs.cur == fs.orig {
				continue
			}
			f := &change.FileEdit{Path: fs.orig, Base: fs.base, Edits: edits}
			if fs.cur != fs.orig {
				f.To = fs.cur
			}
			s.Files = append(s.Files, f)
		}
	}
	sort.Slice(s.Files, func(i, j int) bool { return s.Files[i].Path < s.Files[j].Path })
	sort.Strings(s.Deletes)
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("change: %w", err)
	}
	s.Left = st.sites()
	return s, nil
}

// sites are the code sites left, placed in the texts after every step.
func (st *state) sites() []change.Site {
	out := make([]change.Site, 0, len(st.left))
	for _, l := range st.left {
		text := st.src(l.path)
		line, col := change.Pos(text, l.off)
		site := l.site
		site.Path, site.Line, site.Col, site.Text = l.path, line, col, change.LineText(text, l.off)
		out = append(out, site)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		if out[i].Line != out[j].Line {
			return out[i].Line < out[j].Line
		}
		return out[i].Col < out[j].Col
	})
	return out
}
