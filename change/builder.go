package change

import (
	"bytes"
	"sort"
	"unicode/utf8"

	"github.com/tent-tools/tent-tools/definitions"
)

// Builder collects a change set: edits per file (several sources may edit
// one file; identical edits collapse into one), moves, deletions and the
// sites left. Set then checks the whole and places each site in the text
// as it will be.
type Builder struct {
	files   map[string]*FileEdit
	deletes map[string]bool
	left    []pendingSite
}

// pendingSite is a site in a file's current text, placed by Set.
type pendingSite struct {
	path string
	base []byte
	span Span
	why  string
	mark string
}

// NewBuilder returns an empty builder.
func NewBuilder() *Builder {
	return &Builder{files: map[string]*FileEdit{}, deletes: map[string]bool{}}
}

// file returns the entry for path, making it with base.
func (b *Builder) file(path string, base []byte) *FileEdit {
	f := b.files[path]
	if f == nil {
		f = &FileEdit{Path: path, Base: base}
		b.files[path] = f
	}
	return f
}

// Edit adds edits to the file at path, whose current text is base.
func (b *Builder) Edit(path string, base []byte, edits ...Edit) {
	if len(edits) == 0 {
		return
	}
	f := b.file(path, base)
	f.Edits = append(f.Edits, edits...)
}

// Move moves the file at path to the path to.
func (b *Builder) Move(path string, base []byte, to string) {
	b.file(path, base).To = to
}

// Delete deletes the file at path.
func (b *Builder) Delete(path string) { b.deletes[path] = true }

// Deleted reports whether the file at path is deleted.
func (b *Builder) Deleted(path string) bool { return b.deletes[path] }

// Leave lists a site of the file at path (current text base) as left.
func (b *Builder) Leave(path string, base []byte, span Span, why, mark string) {
	b.left = append(b.left, pendingSite{path: path, base: base, span: span, why: why, mark: mark})
}

// Set returns the change set, checked: edits sorted and valid, files
// coherent (see Set.Validate), and each site placed in its file's new
// text. A site inside a deleted file or inside text an edit replaces is
// gone with it and not listed.
func (b *Builder) Set() (*Set, error) {
	s := &Set{}
	for _, f := range b.files {
		f.Edits = Normalize(f.Edits)
		s.Files = append(s.Files, f)
	}
	sort.Slice(s.Files, func(i, j int) bool { return s.Files[i].Path < s.Files[j].Path })
	for d := range b.deletes {
		s.Deletes = append(s.Deletes, d)
	}
	sort.Strings(s.Deletes)
	if err := s.Validate(); err != nil {
		return nil, err
	}
	for _, f := range s.Files {
		if len(f.Edits) == 0 {
			continue
		}
		after, err := f.Result()
		if err != nil {
			return nil, err
		}
		f.after = after
	}
	left, err := b.place()
	if err != nil {
		return nil, err
	}
	s.Left = left
	return s, nil
}

// place turns the pending sites into sites of the new texts, sorted by
// path, line and column, without duplicates. The sites are placed file by
// file in the order of their offsets, so that each file's text is read
// once, up to its last site, and no two sites are compared by their line's
// text: a site's path and offset in the new text fix its line, column and
// text.
func (b *Builder) place() ([]Site, error) {
	type placed struct {
		path  string // in the new texts
		start int    // in the file's new text
		why   string
		mark  string
		text  []byte    // the file's current text, where edit is nil
		edit  *FileEdit // the file's edit, whose result is its new text
	}
	ps := make([]placed, 0, len(b.left))
	for _, p := range b.left {
		if b.deletes[p.path] {
			continue
		}
		pl := placed{path: p.path, start: p.span.Start, why: p.why, mark: p.mark, text: p.base}
		if f := b.files[p.path]; f != nil {
			if inside(f.Edits, p.span) {
				continue
			}
			pl.start, _ = MapOffset(f.Edits, p.span.Start)
			pl.path, pl.edit = f.NewPath(), f
		}
		ps = append(ps, pl)
	}
	// Stable: the sites at one offset keep the order they were left in.
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].path != ps[j].path {
			return ps[i].path < ps[j].path
		}
		return ps[i].start < ps[j].start
	})
	// leftBefore reports whether a site at the same place, for the same
	// reason and as sure, comes before ps[i].
	leftBefore := func(i int) bool {
		for k := i - 1; k >= 0 && ps[k].path == ps[i].path && ps[k].start == ps[i].start; k-- {
			if ps[k].why == ps[i].why && ps[k].mark == ps[i].mark {
				return true
			}
		}
		return false
	}
	out := make([]Site, 0, len(ps))
	var text []byte
	line, lineStart, scanned, lineText := 1, 0, 0, ""
	for i, p := range ps {
		newFile := i == 0 || p.path != ps[i-1].path
		if newFile {
			text = p.text
			if p.edit != nil {
				t, err := p.edit.Result()
				if err != nil {
					return nil, err
				}
				text = t
			}
			line, lineStart, scanned, lineText = 1, 0, 0, ""
		}
		if !newFile && leftBefore(i) {
			continue
		}
		if n := bytes.Count(text[scanned:p.start], []byte{'\n'}); n > 0 || newFile {
			line += n
			lineStart = bytes.LastIndexByte(text[:p.start], '\n') + 1
			lineText = LineText(text, lineStart)
		}
		scanned = p.start
		out = append(out, Site{Path: p.path, Line: line, Col: utf8.RuneCount(text[lineStart:p.start]) + 1, Text: lineText, Why: p.why, Mark: p.mark})
	}
	// The likely sites first (docs/pages/format.md, "Places that name a
	// definition"), each group by path, line and column: an agent fixes
	// those before it weighs the maybes.
	sort.SliceStable(out, func(i, j int) bool {
		return out[i].Mark == string(definitions.Likely) && out[j].Mark != string(definitions.Likely)
	})
	return out, nil
}

// inside reports whether an edit replaces part of span (an insertion at
// either end of it does not count).
func inside(edits []Edit, span Span) bool {
	for _, e := range edits {
		if e.Start < span.End && e.End > span.Start && e.End > e.Start {
			return true
		}
		if e.Start == e.End && e.Start > span.Start && e.Start < span.End {
			return true
		}
	}
	return false
}
