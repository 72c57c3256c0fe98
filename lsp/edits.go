package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/check"
	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/remove"
	"github.com/tent-tools/tent-tools/rename"
	"github.com/tent-tools/tent-tools/tools"
)

// findings are the check's findings of a snapshot, kept for the last
// snapshot checked (publish, hover and codeAction of one version share them).
func (s *server) findings(ctx context.Context, ix *definitions.Index) []diag.Finding {
	s.foundMu.Lock()
	if s.foundIx == ix {
		fs := s.found
		s.foundMu.Unlock()
		return fs
	}
	s.foundMu.Unlock()
	// The folder's checker makes again only what the change can alter:
	// a keystroke in one file checks that file, not the project.
	ws, _ := s.workspace()
	fs := ws.CheckIndex(ctx, ix, check.Options{})
	if ctx.Err() == nil {
		s.foundMu.Lock()
		s.foundIx, s.found = ix, fs
		s.foundMu.Unlock()
	}
	return fs
}

// checkFile lists the check's findings of one file.
func (s *server) checkFile(ctx context.Context, ix *definitions.Index, rel string) []diag.Finding {
	var out []diag.Finding
	for _, f := range s.findings(ctx, ix) {
		if f.Path == rel {
			out = append(out, f)
		}
	}
	return out
}

// renamable finds what a rename at a position would rename: a plain place
// of a definition or a column, in a file the tools may write.
func (s *server) renamable(ctx context.Context, p protocol.TextDocumentPositionParams) (*definitions.Index, *tools.Target, *lines, error) {
	ix, rel, l, off, err := s.at(ctx, p)
	if err != nil {
		return nil, nil, nil, err
	}
	ws, _ := s.workspace()
	t, err := ws.RenameTarget(ix, rel, off)
	if err != nil {
		return nil, nil, nil, err
	}
	return ix, t, l, nil
}

func (s *server) prepareRename(ctx context.Context, req jsonrpc2.Request) (any, error) {
	var p protocol.PrepareRenameParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	_, t, l, err := s.renamable(ctx, p.TextDocumentPositionParams)
	if err != nil {
		return nil, err
	}
	placeholder := t.Name
	if _, col, ok := strings.Cut(t.Name, "."); ok {
		placeholder = col
	}
	return prepareRenameResult{Range: l.span(t.Span.Start, t.Span.End), Placeholder: placeholder}, nil
}

func (s *server) rename(ctx context.Context, req jsonrpc2.Request) (any, error) {
	var p protocol.RenameParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	ix, t, _, err := s.renamable(ctx, p.TextDocumentPositionParams)
	if err != nil {
		return nil, err
	}
	if s.writes() == writesServer {
		in, _ := json.Marshal(tools.RenameInput{Name: t.Name, To: p.NewName})
		return s.serverWrite(ctx, "rename", in)
	}
	// Planned on the disk as it is now (and the buffers), not on the
	// snapshot the position was read on.
	ws, _ := s.workspace()
	if ix, err = ws.Index(ctx); err != nil {
		return nil, err
	}
	set, err := rename.Plan(ctx, ix, t.Name, p.NewName)
	if err != nil {
		return nil, err
	}
	return s.clientWrite(ctx, ix, set)
}

func (s *server) writes() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.init.Writes
}

// clientWrite judges a change set planned on the overlays (the policy,
// the person asked) and answers the WorkspaceEdit the client applies; the
// engine writes nothing, and records the saves as one point.
func (s *server) clientWrite(ctx context.Context, ix *definitions.Index, set *change.Set) (*workspaceEdit, error) {
	ws, _ := s.workspace()
	if err := ws.Refresh(ctx); err != nil { // what changed before is not the plan's
		return nil, err
	}
	if _, err := ws.PlanChange(ctx, ix, set); err != nil {
		return nil, err
	}
	edit, moves := s.editOf(ix, set)
	if len(moves) > 0 {
		msg := "tent: the change moves or makes files your editor cannot for it; do it yourself and save: " + strings.Join(moves, ", ")
		if err := s.conn.Notify(context.WithoutCancel(ctx), "window/showMessage", protocol.ShowMessageParams{Type: protocol.MessageTypeWarning, Message: msg}); err != nil {
			s.logf("showMessage: %v", err)
		}
	}
	return edit, nil
}

// editOf is the WorkspaceEdit of a change set for this client: versioned
// text edits for open documents, text edits for closed files, RenameFile
// and DeleteFile where the client supports them; else the moves and
// deletions the client must make itself are answered, to be told.
func (s *server) editOf(ix *definitions.Index, set *change.Set) (*workspaceEdit, []string) {
	s.mu.Lock()
	caps := s.caps.Workspace.WorkspaceEdit
	enc := s.enc
	versions := map[string]int32{}
	for p, d := range s.docs {
		versions[p] = d.version
	}
	s.mu.Unlock()
	renames := slices.Contains(caps.ResourceOperations, "rename")
	deletes := slices.Contains(caps.ResourceOperations, "delete")
	// A client that names resource operations takes documentChanges even
	// where it does not say so (Neovim 0.7 applies them and says nothing).
	documentChanges := caps.DocumentChanges || len(caps.ResourceOperations) > 0
	edit := &workspaceEdit{}
	var manual []string
	creates := slices.Contains(caps.ResourceOperations, "create")
	for _, f := range set.Files {
		if f.New {
			// A file the change makes: created, then filled, where the
			// client creates files; else its text inserted at its URI,
			// which a client that cannot create it is told to make.
			text, _ := f.Result()
			fill := []protocol.TextEdit{{NewText: string(text)}}
			if documentChanges && creates {
				edit.DocumentChanges = append(edit.DocumentChanges,
					documentChange{Create: &fileOperation{Kind: "create", URI: s.uriOf(f.Path)}},
					documentChange{Edit: &textDocumentEdit{TextDocument: optionalVersionedID{URI: s.uriOf(f.Path)}, Edits: fill}})
				continue
			}
			manual = append(manual, "create "+f.Path)
			if documentChanges {
				edit.DocumentChanges = append(edit.DocumentChanges, documentChange{Edit: &textDocumentEdit{TextDocument: optionalVersionedID{URI: s.uriOf(f.Path)}, Edits: fill}})
			} else {
				if edit.Changes == nil {
					edit.Changes = map[string][]protocol.TextEdit{}
				}
				edit.Changes[s.uriOf(f.Path)] = fill
			}
			continue
		}
		l := baseLines(ix, f.Path, f.Base, enc)
		var edits []protocol.TextEdit
		for _, e := range f.Edits {
			edits = append(edits, protocol.TextEdit{Range: l.span(e.Start, e.End), NewText: e.Text})
		}
		moves := f.To != "" && f.To != f.Path
		if !documentChanges {
			if edit.Changes == nil {
				edit.Changes = map[string][]protocol.TextEdit{}
			}
			if len(edits) > 0 {
				edit.Changes[s.uriOf(f.Path)] = edits
			}
			if moves {
				manual = append(manual, f.Path+" → "+f.To)
			}
			continue
		}
		if moves && renames {
			// Moved first, then edited at its new path: an editor saves a
			// buffer it moves, and the new path then holds the old text
			// on its way to the new one.
			edit.DocumentChanges = append(edit.DocumentChanges, documentChange{Rename: &fileOperation{Kind: "rename", OldURI: s.uriOf(f.Path), NewURI: s.uriOf(f.To)}})
			if len(edits) > 0 {
				edit.DocumentChanges = append(edit.DocumentChanges, documentChange{Edit: &textDocumentEdit{
					TextDocument: optionalVersionedID{URI: s.uriOf(f.To)}, Edits: edits}})
			}
			continue
		}
		if moves {
			manual = append(manual, f.Path+" → "+f.To)
		}
		if len(edits) > 0 {
			id := optionalVersionedID{URI: s.uriOf(f.Path)}
			if v, ok := versions[f.Path]; ok {
				id.Version = &v
			}
			edit.DocumentChanges = append(edit.DocumentChanges, documentChange{Edit: &textDocumentEdit{TextDocument: id, Edits: edits}})
		}
	}
	for _, d := range set.Deletes {
		if documentChanges && deletes {
			edit.DocumentChanges = append(edit.DocumentChanges, documentChange{Delete: &fileOperation{Kind: "delete", URI: s.uriOf(d)}})
		} else {
			manual = append(manual, "delete "+d)
		}
	}
	return edit, manual
}

// serverWrite runs a writing tool through the workspace's pipeline (the
// engine writes every file) and answers the edit that brings the open
// documents to the new disk text; a touched document with unsaved
// changes refuses the write first (T9120).
func (s *server) serverWrite(ctx context.Context, tool string, input json.RawMessage) (*workspaceEdit, error) {
	ws, _ := s.workspace()
	if _, err := tools.Call(ctx, ws, tool, input); err != nil {
		return nil, err
	}
	return s.syncOpenDocuments(ctx), nil
}

// syncOpenDocuments is the edit that brings every open document whose
// file changed on the disk to the disk's text (a whole-text replacement,
// versioned); closed files get nothing. The disk is looked at once for
// all of them (the disk's index, as the read tool reads).
func (s *server) syncOpenDocuments(ctx context.Context) *workspaceEdit {
	ws, _ := s.workspace()
	s.mu.Lock()
	docs := make([]*document, 0, len(s.docs))
	for _, d := range s.docs {
		docs = append(docs, &document{uri: d.uri, path: d.path, version: d.version, text: d.text})
	}
	enc := s.enc
	caps := s.caps.Workspace.WorkspaceEdit
	s.mu.Unlock()
	edit := &workspaceEdit{}
	if len(docs) == 0 {
		return edit
	}
	disk, err := ws.DiskIndex(context.WithoutCancel(ctx))
	if err != nil {
		s.logf("bring the open documents along: %v", err)
		return edit
	}
	slices.SortFunc(docs, func(a, b *document) int { return strings.Compare(a.path, b.path) })
	for _, d := range docs {
		f := disk.File(d.path)
		if f == nil || bytes.Equal(f.Src, d.text) {
			continue
		}
		l := newLines(d.text, enc)
		te := protocol.TextEdit{Range: l.span(0, len(d.text)), NewText: string(f.Src)}
		if caps.DocumentChanges {
			v := d.version
			edit.DocumentChanges = append(edit.DocumentChanges, documentChange{Edit: &textDocumentEdit{
				TextDocument: optionalVersionedID{URI: d.uri, Version: &v}, Edits: []protocol.TextEdit{te}}})
		} else {
			if edit.Changes == nil {
				edit.Changes = map[string][]protocol.TextEdit{}
			}
			edit.Changes[d.uri] = []protocol.TextEdit{te}
		}
	}
	return edit
}

// actionData is what a code action carries until it is resolved.
type actionData struct {
	Remove string   `json:"remove,omitempty"` // a definition or column to remove
	Fix    *fixData `json:"fix,omitempty"`    // a finding's certain fix
	Code   string   `json:"code,omitempty"`
	// Old is the text the fix replaces, as it stood when the action was
	// listed: the fix tool refuses it (T9126) where the text moved.
	Old string `json:"old,omitempty"`
}

func (s *server) codeAction(ctx context.Context, req jsonrpc2.Request) (any, error) {
	var p codeActionParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	ix, rel, l, err := s.document(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	out := []codeAction{}
	if l == nil {
		return out, nil
	}
	f := ix.File(rel)
	start, err := l.offset(p.Range.Start)
	if err != nil {
		return nil, paramsError(req.Method(), err)
	}
	end, err := l.offset(p.Range.End)
	if err != nil {
		return nil, paramsError(req.Method(), err)
	}
	s.mu.Lock()
	resolve := s.caps.TextDocument.CodeAction.ResolveSupport != nil && slices.Contains(s.caps.TextDocument.CodeAction.ResolveSupport.Properties, "edit")
	s.mu.Unlock()
	wanted := func(kind string) bool {
		if len(p.Context.Only) == 0 {
			return true
		}
		for _, o := range p.Context.Only {
			if kind == o || strings.HasPrefix(kind, o+".") {
				return true
			}
		}
		return false
	}
	if wanted("quickfix") {
		for _, fd := range s.checkFile(ctx, ix, rel) {
			if fd.Fix == nil || fd.End < start || fd.Start > end {
				continue
			}
			d := toDiagnostic(ix, fd, l, nil, false, false, s.uriOf)
			if fd.Fix.Path != rel || fd.Fix.Start < 0 || fd.Fix.End > len(f.Src) || fd.Fix.Start > fd.Fix.End {
				continue
			}
			data, _ := json.Marshal(actionData{Fix: d.Data.Fix, Code: fd.Code, Old: string(f.Src[fd.Fix.Start:fd.Fix.End])})
			a := codeAction{Title: fd.Fix.Title, Kind: "quickfix", Diagnostics: []diagnostic{d}, IsPreferred: true, Data: data}
			if !resolve {
				// Listing actions judges nothing and asks no one: the fix's
				// text edit as it is; its save is recorded as a change made
				// in the editor (outside).
				b := change.NewBuilder()
				b.Edit(f.Path, f.Src, change.Edit{Start: fd.Fix.Start, End: fd.Fix.End, Text: fd.Fix.Text})
				set, err := b.Set()
				if err != nil || fd.Fix.Path != rel {
					continue
				}
				a.Edit, _ = s.editOf(ix, set)
			}
			out = append(out, a)
		}
	}
	if wanted("refactor") {
		if t, ok := tools.TargetAt(ix, rel, start); ok && t.Plain {
			if def, col, _ := ix.Lookup(t.Name); def != nil && (col != nil || def.Kind == definitions.KindTable || def.Kind == definitions.KindFn) {
				what := "function"
				switch {
				case col != nil:
					what = "column"
				case def.Kind == definitions.KindTable:
					what = "table"
				}
				data, _ := json.Marshal(actionData{Remove: t.Name})
				a := codeAction{Title: fmt.Sprintf("Remove %s %s", what, t.Name), Kind: "refactor", Data: data}
				if !resolve {
					// Without lazy resolution, the engine removes it when
					// the action is chosen (the server way).
					a.Command = &command{Title: a.Title, Command: "tent.call", Arguments: []any{"remove", map[string]string{"name": t.Name}}}
				}
				out = append(out, a)
			}
		}
	}
	return out, nil
}

func (s *server) resolveCodeAction(ctx context.Context, req jsonrpc2.Request) (any, error) {
	var a codeAction
	if err := decode(req, &a); err != nil {
		return nil, err
	}
	return s.resolve(ctx, a)
}

// resolve computes a code action's edit: judged like a rename, in the
// session's mode of writing.
func (s *server) resolve(ctx context.Context, a codeAction) (codeAction, error) {
	var data actionData
	if err := json.Unmarshal(a.Data, &data); err != nil {
		return a, paramsError("codeAction/resolve", err)
	}
	ws, _ := s.workspace()
	ix, err := ws.Index(ctx)
	if err != nil {
		return a, err
	}
	switch {
	case data.Remove != "":
		if s.writes() == writesServer {
			in, _ := json.Marshal(tools.RemoveInput{Name: data.Remove})
			a.Edit, err = s.serverWrite(ctx, "remove", in)
			return a, err
		}
		set, err := remove.Plan(ix, data.Remove)
		if err != nil {
			return a, err
		}
		a.Edit, err = s.clientWrite(ctx, ix, set)
		return a, err
	case data.Fix != nil:
		// The fix tool holds the fix to the text it was listed on: a fix
		// whose text moved is refused (T9126), never applied where its
		// offsets now fall.
		in := tools.FixInput{Code: data.Code, Path: data.Fix.Path, Start: data.Fix.Start, End: data.Fix.End, Old: data.Old}
		if s.writes() == writesServer {
			raw, _ := json.Marshal(in)
			a.Edit, err = s.serverWrite(ctx, "fix", raw)
			return a, err
		}
		set, _, err := ws.PlanFix(ctx, ix, in)
		if err != nil {
			return a, err
		}
		a.Edit, err = s.clientWrite(ctx, ix, set)
		return a, err
	}
	return a, paramsError("codeAction/resolve", fmt.Errorf("the action carries nothing to resolve"))
}

// tentCall runs a tool of the registry as an agent's call (the server
// way for tools that write).
func (s *server) tentCall(ctx context.Context, req jsonrpc2.Request) (any, error) {
	var p tentCallParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	return s.call(ctx, p.Tool, p.Input)
}

func (s *server) executeCommand(ctx context.Context, req jsonrpc2.Request) (any, error) {
	var p struct {
		Command   string            `json:"command"`
		Arguments []json.RawMessage `json:"arguments"`
	}
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	if p.Command != "tent.call" {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: fmt.Sprintf("unknown command %q; the command is tent.call", p.Command)}
	}
	if len(p.Arguments) < 1 || len(p.Arguments) > 2 {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: "tent.call takes [TOOL, INPUT]"}
	}
	var tool string
	if err := json.Unmarshal(p.Arguments[0], &tool); err != nil {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: "tent.call: TOOL must be a string"}
	}
	var input json.RawMessage
	if len(p.Arguments) == 2 {
		input = p.Arguments[1]
	}
	return s.call(ctx, tool, input)
}

// call runs one tool; a tool that writes brings the open documents to the
// new disk text with workspace/applyEdit (asked, not waited for).
func (s *server) call(ctx context.Context, tool string, input json.RawMessage) (any, error) {
	ws, _ := s.workspace()
	ans, err := tools.Call(ctx, ws, tool, input)
	if err != nil {
		return nil, err
	}
	if t, ok := tools.Lookup(tool); ok && (t.Writes || t.WritesWith != nil) { // check with fix writes
		if edit := s.syncOpenDocuments(ctx); len(edit.DocumentChanges) > 0 || len(edit.Changes) > 0 {
			go func() {
				var res json.RawMessage
				if _, err := s.conn.Call(context.Background(), "workspace/applyEdit", map[string]any{"label": "tent: " + tool, "edit": edit}, &res); err != nil {
					s.logf("applyEdit: %v", err)
				}
			}()
		}
	}
	// The data as the Go API marshals it (encoding/json: omitzero and
	// the tools' own marshallers), not as the connection's encoder would.
	data, err := json.Marshal(ans.Data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tool, err)
	}
	return tentCallResult{Text: ans.Text, Data: json.RawMessage(data)}, nil
}

// withProgress runs long work with $/progress where the client supports
// it: begin, the reports of the engine's counted work within it
// (progress), and end.
func (s *server) withProgress(ctx context.Context, title string, work func() error) error {
	token, ok := s.createToken(ctx)
	if !ok {
		return work()
	}
	zero := 0
	s.conn.Notify(ctx, "$/progress", progressParams{Token: token, Value: progressBegin{Kind: "begin", Title: title, Percentage: &zero}})
	s.mu.Lock()
	s.activeToken = token
	s.mu.Unlock()
	err := work()
	s.mu.Lock()
	s.activeToken = nil
	s.mu.Unlock()
	msg := "done"
	if err != nil {
		msg = err.Error()
	}
	s.conn.Notify(context.WithoutCancel(ctx), "$/progress", progressParams{Token: token, Value: progressEnd{Kind: "end", Message: msg}})
	return err
}

// createToken asks the client for a new work done progress token; false
// where the client does not support it or does not answer in time.
func (s *server) createToken(ctx context.Context) (json.RawMessage, bool) {
	s.mu.Lock()
	supported := s.caps.Window.WorkDoneProgress
	s.tokens++
	token := fmt.Sprintf("tent-%d", s.tokens)
	s.mu.Unlock()
	if !supported {
		return nil, false
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), progressCreateWait)
	defer cancel()
	if _, err := s.conn.Call(ctx, "window/workDoneProgress/create", map[string]any{"token": token}, nil); err != nil {
		return nil, false
	}
	raw, _ := json.Marshal(token)
	return raw, true
}

// progressCreateWait bounds how long long work waits for the client to
// make its progress token: the work goes on without one after it.
const progressCreateWait = 5 * time.Second

// progressEvery is the least time between two reports of one piece of
// work; the report of its last step always goes.
const progressEvery = 50 * time.Millisecond

// progress is the workspace's tools.Progress: the engine's long work (the
// first index of the project, the first build of the test database, the
// browser's start) as $/progress. Work inside withProgress reports on its
// token (the first index, inside "Indexing the project"); other work gets
// a token of its own, with begin and end. Counted work reports its
// percentage and count as it goes.
func (s *server) progress(work string, total int) (step func(n int), end func()) {
	s.mu.Lock()
	token := s.activeToken
	s.mu.Unlock()
	own := token == nil
	if own {
		var ok bool
		if token, ok = s.createToken(context.Background()); !ok {
			return func(int) {}, func() {}
		}
		title := "Working"
		if work != "" {
			title = strings.ToUpper(work[:1]) + work[1:]
		}
		begin := progressBegin{Kind: "begin", Title: title}
		if total > 0 {
			zero := 0
			begin.Percentage = &zero
		}
		s.conn.Notify(context.Background(), "$/progress", progressParams{Token: token, Value: begin})
	}
	var mu sync.Mutex
	done, last, lastAt := 0, -1, time.Time{}
	step = func(n int) {
		if total <= 0 {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		done += n
		pct := min(100, done*100/total)
		if pct == last || done < total && time.Since(lastAt) < progressEvery {
			return
		}
		last, lastAt = pct, time.Now()
		s.conn.Notify(context.Background(), "$/progress", progressParams{Token: token,
			Value: progressReport{Kind: "report", Message: fmt.Sprintf("%s: %d of %d files", work, min(done, total), total), Percentage: &pct}})
	}
	end = func() {
		if own {
			s.conn.Notify(context.Background(), "$/progress", progressParams{Token: token, Value: progressEnd{Kind: "end", Message: "done"}})
		}
	}
	return step, end
}
