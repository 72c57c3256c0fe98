package change

import (
	"sort"
	"unicode/utf8"
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
// path, line and column, without duplicates.
func (b *Builder) place() ([]Site, error) {
	texts := map[string]*lineIndex{}
	var out []Site
	seen := map[Site]bool{}
	for _, p := range b.left {
		if b.deletes[p.path] {
			continue
		}
		path, text := p.path, p.base
		start := p.span.Start
		if f := b.files[p.path]; f != nil {
			if inside(f.Edits, p.span) {
				continue
			}
			start, _ = MapOffset(f.Edits, p.span.Start)
			path = f.NewPath()
		}
		li := texts[path]
		if li == nil {
			if f := b.files[p.path]; f != nil {
				t, err := f.Result()
				if err != nil {
					return nil, err
				}
				text = t
			}
			li = newLineIndex(text)
			texts[path] = li
		}
		line, col := li.pos(start)
		site := Site{Path: path, Line: line, Col: col, Text: li.lineText(line), Why: p.why, Mark: p.mark}
		if !seen[site] {
			seen[site] = true
			out = append(out, site)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, c := out[i], out[j]
		if a.Path != c.Path {
			return a.Path < c.Path
		}
		if a.Line != c.Line {
			return a.Line < c.Line
		}
		return a.Col < c.Col
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

// lineIndex answers positions in one text.
type lineIndex struct {
	text   []byte
	starts []int
}

// newLineIndex indexes the line starts of text.
func newLineIndex(text []byte) *lineIndex {
	li := &lineIndex{text: text, starts: []int{0}}
	for i, c := range text {
		if c == '\n' {
			li.starts = append(li.starts, i+1)
		}
	}
	return li
}

// pos returns the 1-based line and column (in code points) of off.
func (li *lineIndex) pos(off int) (int, int) {
	line := sort.Search(len(li.starts), func(i int) bool { return li.starts[i] > off })
	return line, utf8.RuneCount(li.text[li.starts[line-1]:off]) + 1
}

// lineText returns a 1-based line's text without its line end.
func (li *lineIndex) lineText(line int) string {
	return LineText(li.text, li.starts[line-1])
}
