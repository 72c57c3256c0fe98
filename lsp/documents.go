package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/words"
	"github.com/tent-tools/tent-tools/tools"
)

// relPath turns a document's URI into its path in the project, or an
// error where it lies outside the project's folder.
func (s *server) relPath(uri string) (string, error) {
	p, err := filePath(uri)
	if err != nil {
		return "", diag.Errorf(diag.T9105, "%s is not a file of the project: %v", uri, err).With("uri", uri)
	}
	s.mu.Lock()
	root, ws := s.root, s.ws
	s.mu.Unlock()
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		// The folder may be named through a link: try the real one.
		if real, rerr := filepath.EvalSymlinks(filepath.Dir(p)); rerr == nil && ws != nil {
			rel, err = filepath.Rel(ws.Root(), filepath.Join(real, filepath.Base(p)))
		}
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "", diag.Errorf(diag.T9105, "%s is outside the project %s", p, root).With("uri", uri)
		}
	}
	return filepath.ToSlash(rel), nil
}

// uriOf is the URI of a project path, under the client's root.
func (s *server) uriOf(rel string) string {
	s.mu.Lock()
	root := s.root
	s.mu.Unlock()
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(root, filepath.FromSlash(rel)))}
	return u.String()
}

func (s *server) didOpen(ctx context.Context, req jsonrpc2.Request) error {
	var p protocol.DidOpenTextDocumentParams
	if err := decode(req, &p); err != nil {
		return err
	}
	uri := string(p.TextDocument.URI)
	rel, err := s.relPath(uri)
	if err != nil {
		return err
	}
	if err := s.sizeBound(rel, len(p.TextDocument.Text)); err != nil {
		return s.refuse(ctx, err)
	}
	s.mu.Lock()
	_, reopened := s.docs[rel]
	full := s.opts.MaxDocuments > 0 && !reopened && len(s.docs) >= s.opts.MaxDocuments
	s.mu.Unlock()
	if full {
		return s.refuse(ctx, diag.Errorf(diag.T9123, "%s is not opened: this connection has %d documents open, the server's bound (tent-tools lsp --max-documents); close one first", rel, s.opts.MaxDocuments).
			With("path", rel).With("bound", s.opts.MaxDocuments))
	}
	ws, _ := s.workspace()
	if _, err := ws.SetOverlay(rel, []byte(p.TextDocument.Text)); err != nil {
		return err
	}
	s.mu.Lock()
	s.docs[rel] = &document{uri: uri, path: rel, version: p.TextDocument.Version, text: []byte(p.TextDocument.Text)}
	s.mu.Unlock()
	return s.publish(ctx, rel)
}

// sizeBound refuses a document's text over the server's MaxDocumentSize
// (T9104), before it is kept.
func (s *server) sizeBound(rel string, n int) error {
	if max := s.opts.MaxDocumentSize; max > 0 && n > max {
		return diag.Errorf(diag.T9104, "%s is %s; the server keeps open documents of %s at most (as write writes), so it is not open here", rel, words.Bytes(int64(n)), words.Bytes(int64(max))).
			With("path", rel).With("size", n)
	}
	return nil
}

// refuse tells the client a refusal of a notification (it has no answer
// to carry it) by window/showMessage, and returns it for the log.
func (s *server) refuse(ctx context.Context, err error) error {
	if nerr := s.conn.Notify(ctx, "window/showMessage", map[string]any{"type": protocol.MessageTypeError, "message": err.Error()}); nerr != nil {
		s.logf("window/showMessage: %v", nerr)
	}
	return err
}

func (s *server) didChange(ctx context.Context, req jsonrpc2.Request) error {
	var p didChangeParams
	if err := decode(req, &p); err != nil {
		return err
	}
	rel, err := s.relPath(string(p.TextDocument.URI))
	if err != nil {
		return err
	}
	s.mu.Lock()
	doc := s.docs[rel]
	enc := s.enc
	s.mu.Unlock()
	if doc == nil {
		return fmt.Errorf("didChange of %s, which is not open", rel)
	}
	text := doc.text
	for _, c := range p.ContentChanges {
		if c.Range == nil {
			text = []byte(c.Text)
			continue
		}
		l := newLines(text, enc)
		start, err := l.offset(c.Range.Start)
		if err != nil {
			return fmt.Errorf("didChange of %s: %w", rel, err)
		}
		end, err := l.offset(c.Range.End)
		if err != nil {
			return fmt.Errorf("didChange of %s: %w", rel, err)
		}
		if end < start {
			start, end = end, start
		}
		next := make([]byte, 0, len(text)-(end-start)+len(c.Text))
		next = append(append(append(next, text[:start]...), c.Text...), text[end:]...)
		text = next
	}
	ws, _ := s.workspace()
	if err := s.sizeBound(rel, len(text)); err != nil {
		// The client holds a text the server will not: the document is
		// closed here, and its overlay dropped, rather than kept stale.
		ws.DropOverlay(rel)
		s.mu.Lock()
		delete(s.docs, rel)
		s.mu.Unlock()
		s.publishSoon(rel)
		return s.refuse(ctx, err)
	}
	if _, err := ws.SetOverlay(rel, text); err != nil {
		return err
	}
	s.mu.Lock()
	doc.text, doc.version = text, p.TextDocument.Version
	s.mu.Unlock()
	s.publishSoon(rel)
	return nil
}

// publishSoon publishes the diagnostics of a changed document after the
// session's delay, unless another change comes first: then the wait
// starts again, and the publication carries the last version.
func (s *server) publishSoon(rel string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pending == nil {
		s.pending = map[string]bool{}
	}
	s.pending[rel] = true
	if s.delay == 0 {
		// No wait: the publication starts now, without a timer. Changes
		// that come while it runs are carried by the next one.
		go s.publishPending()
		return
	}
	if s.debounce != nil && s.debounce.Stop() {
		s.debounce.Reset(s.delay)
		return
	}
	s.debounce = time.AfterFunc(s.delay, s.publishPending)
}

// publishPending publishes the diagnostics of the documents changed since
// the last publication (the debounce timer's work).
func (s *server) publishPending() {
	if !s.startWork() {
		return
	}
	defer s.work.Done()
	s.mu.Lock()
	pending := sortedPaths(s.pending)
	s.pending = nil
	s.mu.Unlock()
	if len(pending) == 0 || s.isExiting() {
		return
	}
	if err := s.publish(context.Background(), pending...); err != nil && !s.isExiting() {
		s.logf("publish diagnostics: %v", err)
	}
}

func (s *server) didSave(ctx context.Context, req jsonrpc2.Request) error {
	var p protocol.DidSaveTextDocumentParams
	if err := decode(req, &p); err != nil {
		return err
	}
	return s.refresh(ctx)
}

func (s *server) didClose(ctx context.Context, req jsonrpc2.Request) error {
	var p protocol.DidCloseTextDocumentParams
	if err := decode(req, &p); err != nil {
		return err
	}
	rel, err := s.relPath(string(p.TextDocument.URI))
	if err != nil {
		return err
	}
	ws, _ := s.workspace()
	ws.DropOverlay(rel)
	s.mu.Lock()
	delete(s.docs, rel)
	s.mu.Unlock()
	return s.publish(ctx, rel)
}

// refresh looks at the disk (saves, watched files): changes are recorded
// and told (tent/changed), and the diagnostics follow.
func (s *server) refresh(ctx context.Context) error {
	ws, _ := s.workspace()
	if err := ws.Refresh(ctx); err != nil {
		return err
	}
	return s.publish(ctx, "")
}

// publish publishes the diagnostics of every file whose findings changed
// since they were last published ([] where a file has none left), and
// those of the documents always ("" names none), with each document's
// version. Publications take turns, so that a later snapshot's
// diagnostics are never overtaken by an earlier one's.
//
// A file's diagnostics are made again only where what they are made
// from changed: its findings, its text (the positions) or the
// definitions their related information points to. A keystroke then
// encodes the diagnostics of the files it changed the findings of, not
// those of every file with findings.
func (s *server) publish(ctx context.Context, always ...string) error {
	s.publishMu.Lock()
	defer s.publishMu.Unlock()
	_, enc := s.workspace()
	ix, err := s.index(ctx)
	if err != nil {
		return err
	}
	findings := s.findings(ctx, ix)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	// Each file's findings: the check's list is by severity, then path,
	// so a file's findings of one severity are one run of it, used as it
	// is; only a file with findings of more than one severity gets a
	// list of its own (a project with many findings copies none of them
	// on every keystroke).
	byPath := map[string][]diag.Finding{}
	for i := 0; i < len(findings); {
		p := findings[i].Path
		j := i + 1
		for j < len(findings) && findings[j].Path == p {
			j++
		}
		run := findings[i:j:j] // an append copies
		if fs, ok := byPath[p]; ok {
			run = append(fs, run...)
		}
		byPath[p] = run
		i = j
	}
	s.mu.Lock()
	caps := s.caps.TextDocument.PublishDiagnostics
	paths := map[string]bool{}
	for p := range byPath {
		paths[p] = true
	}
	for p := range s.published {
		paths[p] = true
	}
	forced := map[string]bool{}
	for _, p := range always {
		if p != "" {
			paths[p], forced[p] = true, true
		}
	}
	type message struct {
		path   string
		params publishDiagnosticsParams
	}
	var out []message
	// The positions of each file, made once per publication: the
	// related information of many findings points into one file.
	linesByPath := map[string]*lines{}
	linesFor := func(p string) *lines {
		l, ok := linesByPath[p]
		if !ok {
			if f := ix.File(p); f != nil {
				l = newLines(f.Src, enc)
			}
			linesByPath[p] = l
		}
		return l
	}
	// What changed since the last publication, from the index's log:
	// a file that did not change is the one published, and the related
	// information of its findings can differ only where a definition it
	// points to is in a changed file, or a changed file declares a name
	// it names (which may now come first). Such a file with the same
	// findings is not looked at again.
	since, known := ix.ChangedSince(s.pubAt)
	changed := make(map[string]bool, len(since))
	declared := map[string]bool{}
	for _, p := range since {
		changed[p] = true
		if f := ix.File(p); f != nil {
			for _, d := range f.Definitions {
				declared[d.Name] = true
			}
		}
	}
	for _, p := range sortedPaths(paths) {
		fs := byPath[p]
		last := s.published[p]
		if known && last != nil && !forced[p] && !changed[p] && last.sameRelated(fs, changed, declared) {
			continue
		}
		from := publication{findings: fs, file: ix.File(p)}
		if caps.RelatedInformation {
			for _, f := range fs {
				if f.Definition != "" {
					def, _ := relatedOf(ix, f.Definition)
					from.related = append(from.related, def)
				}
			}
		}
		if last != nil && !forced[p] && last.sameSource(from) {
			continue
		}
		diags := make([]diagnostic, 0, len(fs))
		for _, f := range fs {
			diags = append(diags, toDiagnostic(ix, f, linesFor(p), linesFor, caps.CodeDescriptionSupport, caps.RelatedInformation, s.uriOfLocked))
		}
		data, _ := json.Marshal(diags)
		from.key = string(data)
		switch {
		case len(diags) == 0:
			delete(s.published, p)
		default:
			from.findings = slices.Clone(fs) // not the check's list, which fs may be a run of
			s.published[p] = &from
		}
		if last != nil && last.key == from.key && !forced[p] {
			continue
		}
		params := publishDiagnosticsParams{URI: s.uriOfLocked(p), Diagnostics: diags}
		if doc := s.docs[p]; doc != nil {
			v := doc.version
			params.Version = &v
		}
		out = append(out, message{path: p, params: params})
	}
	s.pubAt = ix.ID()
	s.mu.Unlock()
	for _, m := range out {
		if err := s.conn.Notify(context.WithoutCancel(ctx), "textDocument/publishDiagnostics", m.params); err != nil {
			return err
		}
	}
	return nil
}

// publication is what the diagnostics of one file were last published
// from, and their JSON (key): publish makes them again only where its
// findings, its file (the positions) or the definitions of their related
// information are not the same ones.
type publication struct {
	key      string
	findings []diag.Finding
	file     *definitions.File
	related  []*definitions.Definition
}

// sameRelated reports, of a file that did not change since p was
// published, whether its findings fs are p's and their related
// information is made from the same definitions: none of those is in a
// changed file, and no changed file declares a name they name
// (declared).
func (p *publication) sameRelated(fs []diag.Finding, changed, declared map[string]bool) bool {
	if !slices.Equal(p.findings, fs) {
		return false
	}
	for _, d := range p.related {
		if d != nil && changed[d.Path] {
			return false
		}
	}
	for _, f := range fs {
		if name, _, _ := strings.Cut(f.Definition, "."); name != "" && declared[name] {
			return false
		}
	}
	return true
}

// sameSource reports whether the diagnostics of next would be made from
// what those of p were. A finding made again compares as another (its
// fix is a new one): the diagnostics are made, and sent only where their
// JSON differs.
func (p *publication) sameSource(next publication) bool {
	return p.file == next.file && slices.Equal(p.findings, next.findings) && slices.Equal(p.related, next.related)
}

// relatedOf finds the definition (and column) that a finding's
// Definition names, as ix.Lookup does, without the "did you mean" of a
// name that is not there (a search of every name).
func relatedOf(ix *definitions.Index, target string) (*definitions.Definition, *definitions.Column) {
	name, col, hasCol := strings.Cut(target, ".")
	def := ix.Definition(name)
	switch {
	case def == nil:
		return nil, nil
	case !hasCol:
		return def, nil
	case def.Kind != definitions.KindTable || def.Table == nil:
		return nil, nil
	case col == "id":
		return def, nil // the implicit column: the table's own span
	}
	if c := def.Table.Column(col); c != nil {
		return def, c
	}
	return nil, nil
}

// uriOfLocked is uriOf with s.mu held.
func (s *server) uriOfLocked(rel string) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(s.root, filepath.FromSlash(rel)))}
	return u.String()
}

func sortedPaths(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for p := range m {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// toDiagnostic turns a finding into a diagnostic of its file.
func toDiagnostic(ix *definitions.Index, f diag.Finding, l *lines, linesFor func(path string) *lines, hrefs, related bool, uriOf func(string) string) diagnostic {
	d := diagnostic{Severity: severity(f.Severity), Code: f.Code, Source: "tent", Message: f.Message}
	d.Range = findingRange(f, l)
	if hrefs {
		d.CodeDescription = &codeDescription{Href: codeHref(f.Code)}
	}
	if f.Fix != nil {
		d.Data = &diagnosticData{Fix: &fixData{Title: f.Fix.Title, Path: f.Fix.Path, Start: f.Fix.Start, End: f.Fix.End, Text: f.Fix.Text}}
	}
	if related && f.Definition != "" {
		if def, col := relatedOf(ix, f.Definition); def != nil {
			if linesFor(def.Path) != nil {
				span := def.NameSpan
				name := def.Name
				if col != nil && col.Prop != nil {
					span = definitions.Span{Start: col.Prop.KeySpan.Start, End: col.Prop.KeySpan.End}
					name = f.Definition
				}
				if span.End > span.Start && !(def.Path == f.Path && span.Start <= f.Start && f.Start < span.End) {
					d.RelatedInformation = append(d.RelatedInformation, relatedInformation{
						Location: protocol.Location{URI: protocol.DocumentURI(uriOf(def.Path)), Range: linesFor(def.Path).span(span.Start, span.End)},
						Message:  "the definition of " + name,
					})
				}
			}
		}
	}
	return d
}

// findingRange is a finding's range: its byte span where it has one,
// else its line and column (1-based, code points).
func findingRange(f diag.Finding, l *lines) protocol.Range {
	if l != nil && (f.End > f.Start || f.Start > 0) {
		return l.span(f.Start, max(f.End, f.Start))
	}
	line := uint32(max(f.Line-1, 0))
	end := uint32(max(f.EndLine-1, int(line)))
	return protocol.Range{Start: protocol.Position{Line: line, Character: uint32(max(f.Col-1, 0))},
		End: protocol.Position{Line: end, Character: uint32(max(f.EndCol-1, 0))}}
}

func severity(s diag.Severity) int {
	switch s {
	case diag.Error:
		return 1
	case diag.Warning:
		return 2
	}
	return 3
}

// codeHref names the docs page of a finding code: the page `tent-tools
// docs TOPIC` shows, as a tent-docs: URI with the code as its fragment.
func codeHref(code string) string {
	topic := "codes"
	switch {
	case strings.HasPrefix(code, "T1"):
		topic = "codes-t1"
	case strings.HasPrefix(code, "T25"):
		topic = "codes-t25"
	case strings.HasPrefix(code, "T26"):
		topic = "codes-t26"
	case strings.HasPrefix(code, "T2"):
		topic = "codes-t2"
	}
	return "tent-docs:" + topic + "#" + strings.ToLower(code)
}

// startFollowing subscribes to the workspace's changes: each becomes a
// tent/changed notification and a new publication of the diagnostics, on
// a goroutine of the session's own (the change's recorder must not wait
// for the client).
func (s *server) startFollowing() {
	s.mu.Lock()
	ws := s.ws
	s.follow = make(chan struct{}, 1)
	s.followDone = make(chan struct{})
	follow := s.follow
	s.mu.Unlock()
	s.unsub = ws.Subscribe(func(ev tools.Event) {
		s.eventsMu.Lock()
		s.events = append(s.events, ev)
		s.eventsMu.Unlock()
		select {
		case follow <- struct{}{}:
		default:
		}
	})
	go func() {
		defer close(s.followDone)
		for range follow {
			s.eventsMu.Lock()
			evs := s.events
			s.events = nil
			s.eventsMu.Unlock()
			for _, ev := range evs {
				msg := tentChanged{Files: nonNil(ev.Files), Definitions: nonNil(ev.Definitions), Version: ev.Version}
				if ev.Point > 0 {
					n := ev.Point
					msg.Point = &n
				}
				if err := s.conn.Notify(context.Background(), "tent/changed", msg); err != nil {
					s.logf("tent/changed: %v", err)
				}
			}
			if len(evs) > 0 && !s.isExiting() {
				if err := s.publish(context.Background(), ""); err != nil {
					s.logf("publish diagnostics: %v", err)
				}
			}
		}
	}()
}

func nonNil(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

// index is the workspace's index with the open documents, for reading:
// where the folder is watched (by the server or through the client's
// watched files), the cached snapshot that the watcher keeps current,
// without a walk of the disk per request.
func (s *server) index(ctx context.Context) (*definitions.Index, error) {
	s.mu.Lock()
	ws := s.ws
	watched := s.watcher != nil || s.caps.Workspace.DidChangeWatchedFiles.DynamicRegistration
	s.mu.Unlock()
	if watched {
		return ws.WatchedIndex(ctx)
	}
	return ws.Index(ctx)
}
