package rename

import (
	"bytes"
	"path"

	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
)

// places plans the change of every plain place that names the target
// (docs/pages/format.md §4). An import keeps its alias (`import { orders as o }`
// becomes `import { purchases as o }`), and an alias that is the new name
// goes (`import { orders as purchases }` becomes `import { purchases }`,
// and so for exports); a shorthand `{ orders }` becomes
// `{ orders: purchases }`, keeping its key. An unaliased import into a file
// that already binds the new name at its top level becomes
// `import { purchases as orders }`, so that the file's own uses keep
// their meaning. The target's own `was` is planned by was().
// The code sites, found with the places, are kept for sites().
func (p *planner) places() {
	places, sites := p.ix.PlacesAndSites(p.name)
	p.codeSites = sites
	p.renamed = map[string][]renamedIdent{}
	p.binds = map[string]bool{}
	aliased := map[string]bool{} // files whose import got `to as old`
	done := make([]bool, len(places))
	for i, pl := range places {
		if e, ok := p.specifier(pl, aliased); ok {
			p.b.Edit(pl.Path, p.src(pl.Path), e)
			done[i] = true
		}
	}
	for i, pl := range places {
		src := p.src(pl.Path)
		switch {
		case done[i]:
			continue
		case pl.Kind == definitions.PlaceTestDataFile:
			p.b.Move(pl.Path, src, path.Join(path.Dir(pl.Path), p.to+".json"))
			continue
		case p.wasSpan.End > 0 && pl.Path == p.def.Path && pl.Span.Start >= p.wasSpan.Start && pl.Span.End <= p.wasSpan.End:
			continue
		case aliased[pl.Path] && pl.Kind == definitions.PlaceIdentifier:
			continue
		}
		text := p.to
		if pl.Shorthand {
			text = p.old + ": " + p.to
		}
		p.b.Edit(pl.Path, src, change.Edit{Start: pl.Span.Start, End: pl.Span.End, Text: text})
		if p.col != nil {
			continue // a column's places are keys and strings, not bindings
		}
		switch pl.Kind {
		case definitions.PlaceIdentifier:
			if afterDot(src, pl.Span.Start) {
				continue // `t.orders` of `import * as t`: a property, no binding
			}
			shift := 0
			if pl.Shorthand {
				shift = len(p.old) + 2 // the identifier after `orders: `
			}
			p.renamed[pl.Path] = append(p.renamed[pl.Path], renamedIdent{pl.Span, shift})
		case definitions.PlaceName, definitions.PlaceImport:
			// The file gets a top-level binding of the new name (an import
			// here is unaliased: specifier() handled the others).
			p.binds[pl.Path] = true
		}
	}
}

// specifier plans the import and export specifiers that are not a plain
// change of the name: an alias that the new name makes redundant, and an
// unaliased import into a file that binds the new name already.
func (p *planner) specifier(pl definitions.Place, aliased map[string]bool) (change.Edit, bool) {
	if p.col != nil {
		return change.Edit{}, false
	}
	f := p.ix.File(pl.Path)
	switch pl.Kind {
	case definitions.PlaceImport:
		imp := importAt(f, pl.Span)
		switch {
		case imp == nil:
		case imp.LocalSpan != imp.ImportedSpan:
			if imp.Local == p.to {
				return change.Edit{Start: imp.ImportedSpan.Start, End: imp.LocalSpan.End, Text: p.to}, true
			}
			return change.Edit{Start: pl.Span.Start, End: pl.Span.End, Text: p.to}, true
		case declaresTopLevel(f, p.to):
			aliased[pl.Path] = true
			return change.Edit{Start: pl.Span.Start, End: pl.Span.End, Text: p.to + " as " + p.old}, true
		}
	case definitions.PlaceExport:
		for _, ex := range f.Exports {
			if ex.LocalSpan == pl.Span && ex.ExportedSpan != ex.LocalSpan && ex.Exported == p.to {
				return change.Edit{Start: ex.LocalSpan.Start, End: ex.ExportedSpan.End, Text: p.to}, true
			}
		}
	}
	return change.Edit{}, false
}

// sites lists the code sites the rename leaves, in their places after it
// (found by places()).
func (p *planner) sites() {
	for _, cs := range p.codeSites {
		p.b.Leave(cs.Path, p.src(cs.Path), change.SpanOf(cs.Span), string(cs.Why), string(cs.Mark))
	}
}

// afterDot reports whether the identifier at off is the property of a
// member access (`t.orders`, `t?.orders`).
func afterDot(src []byte, off int) bool {
	i := off
	for i > 0 && (src[i-1] == ' ' || src[i-1] == '\t' || src[i-1] == '\n' || src[i-1] == '\r') {
		i--
	}
	return i > 0 && src[i-1] == '.'
}

// renamedIdent is an identifier a rename changes: its span in the old text,
// and how far into the new text of its edit the new name begins.
type renamedIdent struct {
	span  definitions.Span
	shift int
}

// importAt returns the import whose imported name stands at span.
func importAt(f *definitions.File, span definitions.Span) *definitions.Import {
	if f == nil {
		return nil
	}
	for i := range f.Imports {
		if f.Imports[i].ImportedSpan == span {
			return &f.Imports[i]
		}
	}
	return nil
}

// declaresTopLevel reports whether a file binds name at its top level: as
// an import's local name, a definition, or another declaration.
func declaresTopLevel(f *definitions.File, name string) bool {
	for _, imp := range f.Imports {
		if imp.Local == name {
			return true
		}
	}
	for _, d := range f.Definitions {
		if d.Name == name {
			return true
		}
	}
	for _, r := range f.IdentRefs() {
		if r.Name == name {
			return true // only a top-level binding resolves a reference
		}
	}
	return topLevelDeclares(f, name)
}

// checkCapture re-reads each file where identifiers were renamed or that
// gets a top-level binding of the new name, and where the new name already
// stands as text, and refuses the rename where the
// lexical scope of the new text differs: a renamed identifier that a local
// binding of the new name would capture, or an existing use of the new
// name that the renamed binding would capture. The files are read
// together (in parallel where they are many), and what was read is kept
// in the set (ReadAhead) so that the pipeline does not read them again.
func (p *planner) checkCapture(s *change.Set) *diag.ToolError {
	var check []*change.FileEdit
	var texts []definitions.FileChange
	for _, fe := range s.Files {
		spans := p.renamed[fe.Path]
		if (len(spans) == 0 && !p.binds[fe.Path]) || !bytes.Contains(fe.Base, []byte(p.to)) {
			continue
		}
		text, err := fe.Result()
		if err != nil {
			continue // Set validated the edits; Result cannot fail here
		}
		check = append(check, fe)
		texts = append(texts, definitions.FileChange{Path: fe.Path, Src: text})
	}
	if len(check) == 0 {
		return nil
	}
	read := p.ix.UpdateFiles(p.ctx, texts)
	ra := &change.ReadAhead{From: p.ix, Index: read}
	for _, fe := range check {
		ra.Paths = append(ra.Paths, fe.Path)
	}
	s.ReadAhead = ra
	for _, fe := range check {
		spans := p.renamed[fe.Path]
		after := read.File(fe.Path)
		if after == nil {
			continue
		}
		old := p.ix.File(fe.Path)
		want := map[int]bool{}
		for _, r := range spans {
			at, _ := change.MapOffset(fe.Edits, r.span.Start)
			want[at+r.shift] = true
		}
		for _, r := range old.IdentRefs() {
			if r.Name == p.to {
				at, _ := change.MapOffset(fe.Edits, r.Span.Start)
				want[at] = true
			}
		}
		got := map[int]bool{}
		for _, r := range after.IdentRefs() {
			if r.Name == p.to {
				got[r.Span.Start] = true
				if !want[r.Span.Start] {
					return p.captured(after, r.Span.Start, "would then name the renamed binding instead of what it names now")
				}
			}
		}
		for at := range want {
			if !got[at] && !declaredAt(after, at) {
				return p.captured(after, at, "would then name a local binding of that name instead")
			}
		}
	}
	return nil
}

// declaredAt reports whether off is where a file declares a definition
// (the renamed export const, which is no reference).
func declaredAt(f *definitions.File, off int) bool {
	for _, d := range f.Definitions {
		if d.NameSpan.Start == off {
			return true
		}
	}
	for _, imp := range f.Imports {
		if imp.ImportedSpan.Start == off || imp.LocalSpan.Start == off {
			return true
		}
	}
	for _, ex := range f.Exports {
		if ex.LocalSpan.Start == off || ex.ExportedSpan.Start == off {
			return true
		}
	}
	return false
}

// captured makes the T9107 of a rename that would change what a name in
// code means.
func (p *planner) captured(f *definitions.File, off int, what string) *diag.ToolError {
	line, col := f.Pos(off)
	return diag.Errorf(diag.T9107, "cannot rename %s to %s: `%s` at %s:%d:%d %s; rename that binding first or choose another name",
		p.name, p.to, p.to, f.Path, line, col, what).With("to", p.to).With("path", f.Path).With("line", line).With("col", col)
}
