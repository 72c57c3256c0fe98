package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The files the requests work on, in every generated project: an
// ordinary table (accounts2, named from about a dozen files), its
// functions, and the hub table (accounts, the users table, named from
// about a fifth of the files).
const (
	ordinaryTable = "tables/accounts2.ts"
	ordinaryFns   = "functions/accounts2.ts"
	hubTable      = "tables/accounts.ts"
)

// An edit is a line put in after an anchor and taken out again, each a
// didChange. The line makes errors that both checkers find (tent-tools
// the unknown table, TypeScript the unknown name), so each round shows
// that the diagnostics are real: the error is there after the first
// change and gone after the second.
type edit struct {
	path   string
	anchor string // the line is put after the first line holding this
	line   string
	tent   string // a code tent-tools must report while the line is in
	tsgo   string // a code TypeScript must report
}

var (
	bodyEdit = edit{path: ordinaryFns, anchor: "requireText(input.title, 'title')",
		line: "    await ctx.db.nosuchTable.all(nosuchName)", tent: "T2501", tsgo: "2304"}
	tableEdit = edit{path: ordinaryTable, anchor: "title: text(),",
		line: "    extra: ref('nosuchTable', nosuchOptions),", tent: "T2003", tsgo: "2304"}
)

// lspServer is one language server under test, its open documents and
// their versions.
type lspServer struct {
	name string
	c    *conn
	dir  string
	// pull says the diagnostics are asked for (textDocument/diagnostic,
	// TypeScript's way) rather than pushed (publishDiagnostics).
	pull     bool
	texts    map[string]string
	versions map[string]int
}

// serverSpec says how to start a server.
type serverSpec struct {
	name string
	argv []string
	pull bool
	// initOptions are the initializationOptions.
	initOptions any
}

// uri is a project file's URI.
func (s *lspServer) uri(path string) string {
	return "file://" + filepath.ToSlash(filepath.Join(s.dir, filepath.FromSlash(path)))
}

// openServer starts a server on dir, initializes it, opens the documents
// and waits for their first diagnostics; it answers how long that took.
func openServer(ctx context.Context, spec serverSpec, dir string) (*lspServer, time.Duration, error) {
	t0 := time.Now()
	c, err := start(spec.name, headers, dir, spec.argv, answerLSP)
	if err != nil {
		return nil, 0, err
	}
	s := &lspServer{name: spec.name, c: c, dir: dir, pull: spec.pull, texts: map[string]string{}, versions: map[string]int{}}
	textDocument := map[string]any{
		"synchronization":    map[string]any{"didSave": true},
		"publishDiagnostics": map[string]any{"versionSupport": true, "relatedInformation": true},
		"rename":             map[string]any{"prepareSupport": true},
		"hover":              map[string]any{"contentFormat": []string{"markdown", "plaintext"}},
		"documentSymbol":     map[string]any{"hierarchicalDocumentSymbolSupport": true},
		"references":         map[string]any{},
	}
	if spec.pull {
		textDocument["diagnostic"] = map[string]any{"dynamicRegistration": false, "relatedDocumentSupport": false}
	}
	params := map[string]any{
		"processId":        os.Getpid(),
		"rootUri":          "file://" + dir,
		"workspaceFolders": []any{map[string]any{"uri": "file://" + dir, "name": filepath.Base(dir)}},
		"capabilities": map[string]any{
			"general":      map[string]any{"positionEncodings": []string{"utf-16"}},
			"textDocument": textDocument,
			"workspace": map[string]any{"workspaceFolders": true, "configuration": true,
				"workspaceEdit": map[string]any{"documentChanges": true}},
		},
	}
	if spec.initOptions != nil {
		params["initializationOptions"] = spec.initOptions
	}
	if _, err := c.call(ctx, "initialize", params); err != nil {
		c.close()
		return nil, 0, err
	}
	if err := c.notify("initialized", map[string]any{}); err != nil {
		c.close()
		return nil, 0, err
	}
	from := c.mark()
	for _, p := range []string{ordinaryFns, ordinaryTable, hubTable} {
		text, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			c.close()
			return nil, 0, fmt.Errorf("open %s: %w", p, err)
		}
		s.texts[p], s.versions[p] = string(text), 1
		if err := c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
			"uri": s.uri(p), "languageId": "typescript", "version": 1, "text": string(text)}}); err != nil {
			c.close()
			return nil, 0, err
		}
	}
	for _, p := range []string{ordinaryFns, ordinaryTable, hubTable} {
		if _, err := s.diagnostics(ctx, from, p); err != nil {
			c.close()
			return nil, 0, err
		}
	}
	return s, time.Since(t0), nil
}

// answerLSP answers a language server's requests as a plain editor
// would: no settings (workspace/configuration), yes to registrations and
// progress tokens, no to a question for the person.
func answerLSP(method string, params json.RawMessage) any {
	if method == "workspace/configuration" {
		var p struct {
			Items []json.RawMessage `json:"items"`
		}
		json.Unmarshal(params, &p)
		return make([]any, len(p.Items))
	}
	return nil
}

// diagnostic is the part of a diagnostic the benchmark reads.
type diagnostic struct {
	Code    any    `json:"code"`
	Message string `json:"message"`
}

// codes are the diagnostics' codes, as text ("T2501", "2304").
func codes(ds []diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprint(d.Code))
	}
	return out
}

// diagnostics answers the diagnostics of a document at its version: the
// publication of that version read after mark from (pushed), or the
// answer of textDocument/diagnostic (pulled).
func (s *lspServer) diagnostics(ctx context.Context, from int, path string) ([]diagnostic, error) {
	if s.pull {
		raw, err := s.c.call(ctx, "textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": s.uri(path)}})
		if err != nil {
			return nil, err
		}
		var report struct {
			Kind  string       `json:"kind"`
			Items []diagnostic `json:"items"`
		}
		if err := json.Unmarshal(raw, &report); err != nil {
			return nil, fmt.Errorf("%s: diagnostics of %s: %w", s.name, path, err)
		}
		if report.Kind != "full" {
			return nil, fmt.Errorf("%s: diagnostics of %s: a %q report, not a full one", s.name, path, report.Kind)
		}
		return report.Items, nil
	}
	uri, version := s.uri(path), s.versions[path]
	var got []diagnostic
	_, err := s.c.waitNote(ctx, from, func(n notification) bool {
		if n.Method != "textDocument/publishDiagnostics" {
			return false
		}
		var p struct {
			URI         string       `json:"uri"`
			Version     *int         `json:"version"`
			Diagnostics []diagnostic `json:"diagnostics"`
		}
		if json.Unmarshal(n.Params, &p) != nil || p.URI != uri || p.Version == nil || *p.Version != version {
			return false
		}
		got = p.Diagnostics
		return true
	})
	return got, err
}

// change puts the edit's line in (in) or takes it out, as one didChange
// of a range, and answers the diagnostics of that version and how long
// they took from the change's sending.
func (s *lspServer) change(ctx context.Context, e edit, in bool) ([]diagnostic, time.Duration, error) {
	text := s.texts[e.path]
	at := strings.Index(text, e.anchor)
	if at < 0 {
		return nil, 0, fmt.Errorf("%s: no %q in %s", s.name, e.anchor, e.path)
	}
	lineEnd := at + strings.IndexByte(text[at:], '\n') + 1
	line := strings.Count(text[:lineEnd], "\n") // the inserted line's number
	var change map[string]any
	if in {
		change = map[string]any{"range": lspRange(line, 0, line, 0), "text": e.line + "\n"}
		text = text[:lineEnd] + e.line + "\n" + text[lineEnd:]
	} else {
		if !strings.HasPrefix(text[lineEnd:], e.line+"\n") {
			return nil, 0, fmt.Errorf("%s: the edit's line is not in %s", s.name, e.path)
		}
		change = map[string]any{"range": lspRange(line, 0, line+1, 0), "text": ""}
		text = text[:lineEnd] + text[lineEnd+len(e.line)+1:]
	}
	s.texts[e.path] = text
	s.versions[e.path]++
	s.c.forget()
	from := s.c.mark()
	t0 := time.Now()
	err := s.c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": s.uri(e.path), "version": s.versions[e.path]},
		"contentChanges": []any{change}})
	if err != nil {
		return nil, 0, err
	}
	ds, err := s.diagnostics(ctx, from, e.path)
	return ds, time.Since(t0), err
}

func lspRange(l1, c1, l2, c2 int) map[string]any {
	return map[string]any{"start": map[string]any{"line": l1, "character": c1}, "end": map[string]any{"line": l2, "character": c2}}
}

// position is where the first match of what starts in a document, plus
// by characters (a line and a UTF-16 column: the files are ASCII).
func (s *lspServer) position(path, what string, by int) (map[string]any, error) {
	text := s.texts[path]
	at := strings.Index(text, what)
	if at < 0 {
		return nil, fmt.Errorf("no %q in %s", what, path)
	}
	at += by
	start := strings.LastIndexByte(text[:at], '\n') + 1
	return map[string]any{"line": strings.Count(text[:at], "\n"), "character": at - start}, nil
}

// request sends a request at a position of a document and answers its
// result and how long it took.
func (s *lspServer) request(ctx context.Context, method, path string, pos map[string]any, extra map[string]any) (json.RawMessage, time.Duration, error) {
	params := map[string]any{"textDocument": map[string]any{"uri": s.uri(path)}}
	if pos != nil {
		params["position"] = pos
	}
	for k, v := range extra {
		params[k] = v
	}
	t0 := time.Now()
	raw, err := s.c.call(ctx, method, params)
	return raw, time.Since(t0), err
}

// shutdown ends the session politely, then the process.
func (s *lspServer) shutdown() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := s.c.call(ctx, "shutdown", nil); err == nil {
		s.c.notify("exit", nil)
	}
	s.c.close()
}

// editCount counts the text edits of a WorkspaceEdit and the files they
// touch (changes or documentChanges, whichever the server answers).
func editCount(raw json.RawMessage) (edits, files int) {
	var we struct {
		Changes         map[string][]json.RawMessage `json:"changes"`
		DocumentChanges []struct {
			Edits []json.RawMessage `json:"edits"`
		} `json:"documentChanges"`
	}
	if json.Unmarshal(raw, &we) != nil {
		return 0, 0
	}
	for _, es := range we.Changes {
		edits += len(es)
		files++
	}
	for _, dc := range we.DocumentChanges {
		edits += len(dc.Edits)
		files++
	}
	return edits, files
}

// listLen is the length of a JSON list (null is 0).
func listLen(raw json.RawMessage) int {
	var l []json.RawMessage
	json.Unmarshal(raw, &l)
	return len(l)
}
