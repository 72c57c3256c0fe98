package rename

import (
	"bytes"
	"path"

	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
)

// places plans the change of every plain place that names the target
// (format.md §4). An import keeps its alias (`import { orders as o }`
// becomes `import { purchases as o }`); a shorthand `{ orders }` becomes
// `{ orders: purchases }`, keeping its key. An unaliased import into a file
// that already binds the new name at its top level becomes
// `import { purchases as orders }`, so that the file's own uses keep
// their meaning. The target's own `was` is planned by was().
func (p *planner) places() {
	places := p.ix.Places(p.name)
	p.renamed = map[string][]renamedIdent{}
	p.aliased = map[string]bool{}
	for _, pl := range places {
		if pl.Kind != definitions.PlaceImport {
			continue
		}
		f := p.ix.File(pl.Path)
		if imp := importAt(f, pl.Span); imp != nil && imp.LocalSpan == imp.ImportedSpan && declaresTopLevel(f, p.to) {
			p.aliased[pl.Path] = true
			p.b.Edit(pl.Path, f.Src, change.Edit{Start: pl.Span.Start, End: pl.Span.End, Text: p.to + " as " + p.old})
		}
	}
	for _, pl := range places {
		src := p.src(pl.Path)
		switch {
		case pl.Kind == definitions.PlaceTestDataFile:
			p.b.Move(pl.Path, src, path.Join(path.Dir(pl.Path), p.to+".json"))
			continue
		case p.wasSpan.End > 0 && pl.Path == p.def.Path && pl.Span.Start >= p.wasSpan.Start && pl.Span.End <= p.wasSpan.End:
			continue
		case p.aliased[pl.Path] && (pl.Kind == definitions.PlaceImport || pl.Kind == definitions.PlaceIdentifier):
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
		case definitions.PlaceIdentifier, definitions.PlaceName, definitions.PlaceImport, definitions.PlaceExport:
			shift := 0
			if pl.Shorthand {
				shift = len(p.old) + 2 // the identifier after `orders: `
			}
			p.renamed[pl.Path] = append(p.renamed[pl.Path], renamedIdent{pl.Span, shift})
		}
	}
}

// sites lists the code sites the rename leaves, in their places after it.
func (p *planner) sites() {
	for _, cs := range p.ix.CodeSites(p.name) {
		p.b.Leave(cs.Path, p.src(cs.Path), change.SpanOf(cs.Span), string(cs.Why), string(cs.Mark))
	}
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
	for _, r := range f.Refs {
		if r.Name == name {
			return true // only a top-level binding resolves a reference
		}
	}
	return topLevelDeclares(f, name)
}

// checkCapture re-reads each file where identifiers were renamed and the
// new name already stands as text, and refuses the rename where the
// lexical scope of the new text differs: a renamed identifier that a local
// binding of the new name would capture, or an existing use of the new
// name that the renamed binding would capture.
func (p *planner) checkCapture(s *change.Set) *diag.ToolError {
	for _, fe := range s.Files {
		spans := p.renamed[fe.Path]
		if len(spans) == 0 || !bytes.Contains(fe.Base, []byte(p.to)) {
			continue
		}
		text, err := fe.Result()
		if err != nil {
			continue // Set validated the edits; Result cannot fail here
		}
		after := p.ix.Update(fe.Path, text).File(fe.Path)
		if after == nil {
			continue
		}
		old := p.ix.File(fe.Path)
		want := map[int]bool{}
		for _, r := range spans {
			at, _ := change.MapOffset(fe.Edits, r.span.Start)
			want[at+r.shift] = true
		}
		for _, r := range old.Refs {
			if r.Name == p.to {
				at, _ := change.MapOffset(fe.Edits, r.Span.Start)
				want[at] = true
			}
		}
		got := map[int]bool{}
		for _, r := range after.Refs {
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
