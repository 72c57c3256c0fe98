package lsp

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/tools"
)

// document resolves a document: its project path, the index it is read on
// (with the overlays), and its text's lines in the client's position
// encoding (nil where the index holds no such file): the index's own,
// so that a small request (documentSymbol, hover) counts no line.
func (s *server) document(ctx context.Context, uri protocol.DocumentURI) (*definitions.Index, string, *lines, error) {
	rel, err := s.relPath(string(uri))
	if err != nil {
		return nil, "", nil, err
	}
	_, enc := s.workspace()
	ix, err := s.index(ctx)
	if err != nil {
		return nil, "", nil, err
	}
	f := ix.File(rel)
	if f == nil {
		return ix, rel, nil, nil
	}
	return ix, rel, fileLines(f, enc), nil
}

// fileLines are the positions of an indexed file: the lines the index
// keeps (File.Lines), counted only for a File made without them.
func fileLines(f *definitions.File, enc string) *lines {
	return &lines{src: f.Src, starts: f.Lines(), enc: enc}
}

// at resolves a document position: the project path, its text's lines,
// the byte offset and the index it was read on (with the overlays).
func (s *server) at(ctx context.Context, p protocol.TextDocumentPositionParams) (*definitions.Index, string, *lines, int, error) {
	ix, rel, l, err := s.document(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, "", nil, 0, err
	}
	if l == nil {
		return ix, rel, nil, 0, nil
	}
	off, err := l.offset(p.Position)
	if err != nil {
		return nil, "", nil, 0, paramsError("position", err)
	}
	return ix, rel, l, off, nil
}

// location is the LSP location of a span of a project file.
func (s *server) location(ix *definitions.Index, rel string, span definitions.Span) protocol.Location {
	l := s.locator(ix)
	return l.at(rel, span)
}

// locator makes the LSP locations of spans in the files of one snapshot.
// It reads each file's positions from the lines the index keeps
// (File.Lines) and keeps the URI and lines of the last file it was
// asked about, so that a run of spans in one file (places come sorted by
// path) makes its URI once and counts no line: a references answer of
// thousands of locations allocates little more than itself.
type locator struct {
	s   *server
	ix  *definitions.Index
	enc string
	// The last file asked about: its path, URI and lines.
	rel   string
	uri   protocol.DocumentURI
	lines lines
}

func (s *server) locator(ix *definitions.Index) *locator {
	_, enc := s.workspace()
	return &locator{s: s, ix: ix, enc: enc}
}

// baseLines are the positions of base, the text of the file at rel a
// change set edits: the lines the index keeps where base is the indexed
// text itself (a rename's files, mostly), else counted.
func baseLines(ix *definitions.Index, rel string, base []byte, enc string) *lines {
	if ix != nil {
		if f := ix.File(rel); f != nil && sameBytes(f.Src, base) {
			return fileLines(f, enc)
		}
	}
	return newLines(base, enc)
}

// sameBytes reports whether a and b are the same bytes in memory (not
// only equal ones).
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// at is the location of span in the file at rel.
func (l *locator) at(rel string, span definitions.Span) protocol.Location {
	if l.uri == "" || rel != l.rel {
		l.rel, l.uri = rel, protocol.DocumentURI(l.s.uriOf(rel))
		l.lines = lines{starts: []int{0}, enc: l.enc}
		if f := l.ix.File(rel); f != nil {
			l.lines = *fileLines(f, l.enc)
		}
	}
	return protocol.Location{URI: l.uri, Range: l.lines.span(span.Start, span.End)}
}

func (s *server) definition(ctx context.Context, req jsonrpc2.Request) (any, error) {
	var p protocol.DefinitionParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	ix, rel, _, off, err := s.at(ctx, p.TextDocumentPositionParams)
	if err != nil {
		return nil, err
	}
	if ix == nil {
		return []protocol.Location{}, nil
	}
	if t, ok := tools.TargetAt(ix, rel, off); ok {
		if path, span, ok := tools.Declaration(ix, t.Name); ok {
			return []protocol.Location{s.location(ix, path, span)}, nil
		}
	}
	// An import's module: the file it names.
	if f := ix.File(rel); f != nil {
		for _, im := range f.Imports {
			if im.ModuleSpan.Start <= off && off <= im.ModuleSpan.End {
				if to := ix.ResolveImport(rel, im.Module); to != "" {
					return []protocol.Location{s.location(ix, to, definitions.Span{})}, nil
				}
			}
		}
	}
	return []protocol.Location{}, nil
}

// placesOf lists a target's plain places and code sites as references.
func (s *server) placesOf(ix *definitions.Index, name string) []tentReference {
	places, sites := ix.PlacesAndSites(name)
	out := make([]tentReference, 0, len(places)+len(sites))
	loc := s.locator(ix)
	for _, p := range places {
		if p.Kind == definitions.PlaceTestDataFile {
			continue // the file itself, not a name in it
		}
		out = append(out, tentReference{Location: loc.at(p.Path, p.Span), Kind: "place"})
	}
	for _, c := range sites {
		out = append(out, tentReference{Location: loc.at(c.Path, c.Span), Kind: "code site", Mark: string(c.Mark), Why: string(c.Why)})
	}
	return out
}

func (s *server) references(ctx context.Context, req jsonrpc2.Request) (any, error) {
	refs, err := s.referencesOf(ctx, req)
	if err != nil {
		return nil, err
	}
	out := make([]protocol.Location, 0, len(refs))
	for _, r := range refs {
		out = append(out, r.Location)
	}
	return out, nil
}

// tentReferences is references with each place's kind and, for a code
// site, its mark (likely, maybe) and why.
func (s *server) tentReferences(ctx context.Context, req jsonrpc2.Request) (any, error) {
	return s.referencesOf(ctx, req)
}

func (s *server) referencesOf(ctx context.Context, req jsonrpc2.Request) ([]tentReference, error) {
	var p protocol.ReferenceParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	ix, rel, _, off, err := s.at(ctx, p.TextDocumentPositionParams)
	if err != nil {
		return nil, err
	}
	out := []tentReference{}
	if ix == nil {
		return out, nil
	}
	t, ok := tools.TargetAt(ix, rel, off)
	if !ok {
		return out, nil
	}
	var decl *protocol.Location // left out where the client asks so
	if path, span, ok := tools.Declaration(ix, t.Name); ok && !p.Context.IncludeDeclaration {
		l := s.location(ix, path, span)
		decl = &l
	}
	for _, r := range s.placesOf(ix, t.Name) {
		if decl != nil && r.Location == *decl {
			continue
		}
		out = append(out, r)
	}
	return out, nil
}

func (s *server) hover(ctx context.Context, req jsonrpc2.Request) (any, error) {
	var p protocol.HoverParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	ix, rel, l, off, err := s.at(ctx, p.TextDocumentPositionParams)
	if err != nil || ix == nil || l == nil {
		return nil, err
	}
	text, span := tools.Hover(ix, rel, off, s.checkFile(ctx, ix, rel))
	if text == "" {
		return nil, nil
	}
	var rng *protocol.Range
	if span != nil {
		r := l.span(span.Start, span.End)
		rng = &r
	}
	return map[string]any{
		"contents": protocol.MarkupContent{Kind: protocol.Markdown, Value: text},
		"range":    rng,
	}, nil
}

func (s *server) documentSymbol(ctx context.Context, req jsonrpc2.Request) (any, error) {
	var p protocol.DocumentSymbolParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	ix, rel, l, err := s.document(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	out := []protocol.DocumentSymbol{}
	if l == nil {
		return out, nil
	}
	f := ix.File(rel)
	sym := func(name, detail string, kind protocol.SymbolKind, whole, sel definitions.Span) protocol.DocumentSymbol {
		if sel.End < sel.Start || sel.Start < whole.Start || sel.End > whole.End {
			sel = definitions.Span{Start: whole.Start, End: whole.Start}
		}
		return protocol.DocumentSymbol{Name: name, Detail: detail, Kind: kind, Range: l.span(whole.Start, whole.End), SelectionRange: l.span(sel.Start, sel.End)}
	}
	for _, d := range f.Definitions {
		top := sym(d.Name, string(d.Kind), symbolKind(d.Kind), d.Stmt, d.NameSpan)
		if d.Kind == definitions.KindProject {
			top.Name = "project"
		}
		switch {
		case d.Table != nil:
			for _, c := range d.Table.Columns {
				if c.Prop == nil {
					continue
				}
				top.Children = append(top.Children, sym(c.Schema.Name, tools.ColumnType(c.Schema), protocol.SymbolKindField,
					definitions.Span{Start: c.Prop.Span.Start, End: c.Prop.Span.End}, definitions.Span{Start: c.Prop.KeySpan.Start, End: c.Prop.KeySpan.End}))
			}
			for _, idx := range d.Table.Indexes {
				if len(idx) == 0 {
					continue
				}
				var names []string
				for _, n := range idx {
					names = append(names, n.Name)
				}
				span := definitions.Span{Start: idx[0].Lit.Start, End: idx[len(idx)-1].Lit.End}
				top.Children = append(top.Children, sym("index ("+strings.Join(names, ", ")+")", "index", protocol.SymbolKindKey, span, span))
			}
		case d.Flow != nil:
			for i, st := range d.Flow.Steps {
				top.Children = append(top.Children, sym(st.Name, fmt.Sprintf("step %d", i+1), protocol.SymbolKindEvent, st.Lit, st.Span))
			}
		case d.Fn != nil:
			for _, c := range d.Fn.Input {
				if c.Prop == nil {
					continue
				}
				top.Children = append(top.Children, sym(c.Schema.Name, "input "+tools.ColumnType(c.Schema), protocol.SymbolKindField,
					definitions.Span{Start: c.Prop.Span.Start, End: c.Prop.Span.End}, definitions.Span{Start: c.Prop.KeySpan.Start, End: c.Prop.KeySpan.End}))
			}
		case d.Screen != nil:
			top.Detail = "screen " + d.Screen.Path
		}
		out = append(out, top)
	}
	return out, nil
}

func symbolKind(k definitions.Kind) protocol.SymbolKind {
	switch k {
	case definitions.KindTable:
		return protocol.SymbolKindClass
	case definitions.KindFn:
		return protocol.SymbolKindFunction
	case definitions.KindFlow:
		return protocol.SymbolKindEvent
	case definitions.KindScreen:
		return protocol.SymbolKindInterface
	case definitions.KindProject, definitions.KindEngine:
		return protocol.SymbolKindModule
	}
	return protocol.SymbolKindVariable
}

// maxSymbols bounds workspace/symbol's answer.
const maxSymbols = 200

func (s *server) workspaceSymbol(ctx context.Context, req jsonrpc2.Request) (any, error) {
	var p protocol.WorkspaceSymbolParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	ix, err := s.index(ctx)
	if err != nil {
		return nil, err
	}
	out := []protocol.SymbolInformation{}
	loc := s.locator(ix)
	for _, sym := range tools.Symbols(ix, p.Query, maxSymbols) {
		kind := symbolKind(sym.Kind)
		if sym.Column {
			kind = protocol.SymbolKindField
		}
		out = append(out, protocol.SymbolInformation{Name: sym.Name, Kind: kind, Location: loc.at(sym.Path, sym.Span), ContainerName: sym.Container})
	}
	return out, nil
}
