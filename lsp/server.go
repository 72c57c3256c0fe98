// Package lsp is the language server face of the engine (`tent-tools lsp`):
// an ordinary editor (Neovim, VS Code, Emacs) or a visual editor in a
// browser reaches the project's tools over the Language Server Protocol,
// on stdio or WebSocket. It is the only package that imports go.lsp.dev.
//
// Like every face it holds no rules: open documents become the
// workspace's overlays, diagnostics are the check's findings, renames and
// removals are the refactors' plans judged by the workspace's pipeline
// (tools.PlanChange where the editor writes, tools.Call where the engine
// does), and tent/call runs any tool exactly as an agent's call. See
// docs/pages/lsp.md.
package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/model"
	"github.com/tent-tools/tent-tools/tools"
)

// Options configure a server.
type Options struct {
	// Log receives one line per failure the protocol cannot answer (a
	// broken watcher, a notification that failed); nil discards them.
	Log io.Writer
	// DefaultCaller names who acts where initializationOptions name no
	// caller (the CLI gives the project's owner).
	DefaultCaller func(root string) string
	// Operator, where set, is what the operator started the server with
	// (a listening server's, `lsp --listen`): its caller, policy and yes
	// bind every session, the client's initializationOptions may only
	// narrow the policy, and a client's folder must lie in its Root. Nil:
	// the client (the editor that started the server on stdio) is the
	// operator, and its options are taken as they are.
	Operator *Operator
	// MaxDocuments bounds a session's open documents (0: no bound); one
	// more is refused with T9123.
	MaxDocuments int
	// MaxDocumentSize bounds an open document's text in bytes (0: no
	// bound); a larger one is refused with T9104.
	MaxDocumentSize int
	// UnconfinedShell lets shell run unconfined where no sandbox can be
	// had (lsp --unconfined-shell; tools.Options.UnconfinedShell).
	UnconfinedShell bool
	// Indexed, where set, is called once a session's index is first built,
	// before its first check (the CLI holds the process's heap from then
	// on: internal/servergc).
	Indexed func()
}

// DefaultMaxDocuments is the bound of a listening session's open
// documents where its operator gives none (lsp --max-documents).
const DefaultMaxDocuments = 200

// Operator is the caller, policy and answer of a listening server's
// operator (its command line), and the folder its clients' projects lie in.
type Operator struct {
	// Caller is who acts; "" is DefaultCaller's answer (the project's owner).
	Caller string
	// Policy is the policy every session is judged by (nil: the default);
	// a client may add deny and ask rules to it (policy.Narrow), no more.
	Policy *tools.Policy
	// Yes answers yes where the policy asks the person.
	Yes bool
	// Root is the folder a client's workspace folder must be or lie in;
	// "" lets any.
	Root string
}

// errNoShutdown is Serve's answer where the client sent exit without
// shutdown first: the process then exits with status 1 (LSP's rule).
var errNoShutdown = errors.New("exit without shutdown")

// ErrNoShutdown reports whether Serve ended by an exit that no shutdown
// came before.
func ErrNoShutdown(err error) bool { return errors.Is(err, errNoShutdown) }

// Serve runs one session of the language server on a stream (stdin and
// stdout, or one WebSocket), until the client sends exit or closes the
// stream. Everything it started (the watcher, the workspace) is stopped
// before it returns.
func Serve(ctx context.Context, rw io.ReadWriteCloser, opts Options) error {
	return ServeStream(ctx, newFrameStream(rw), opts)
}

// ServeStream is Serve on a message stream of its own (one message per
// WebSocket frame).
func ServeStream(ctx context.Context, stream jsonrpc2.Stream, opts Options) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := &server{opts: opts, exited: make(chan struct{}), docs: map[string]*document{}, published: map[string]*publication{},
		running: map[string]context.CancelFunc{}}
	conn := jsonrpc2.NewConn(stream)
	s.conn = conn
	s.results, _ = stream.(resultWriter)
	conn.Go(ctx, s.handler())
	select {
	case <-conn.Done():
	case <-s.exited:
	case <-ctx.Done():
	}
	cancel()
	// The work under way (a handler, the debounce's publication) ends
	// first, its context cancelled: none goes on into a stopped follower
	// or a closed workspace (an exit during the first index did).
	s.mu.Lock()
	s.ending = true
	s.mu.Unlock()
	s.work.Wait()
	s.stop()
	conn.Close()
	defer s.closeWorkspace()
	select { // the reader ends with the stream; a stdin that cannot be closed is left to the process's end
	case <-conn.Done():
	case <-time.After(time.Second):
	}
	s.mu.Lock()
	down := s.shutdown
	exited := s.exit
	s.mu.Unlock()
	if exited && !down {
		return errNoShutdown
	}
	return nil
}

// server is one session: one client, one project.
type server struct {
	opts Options
	conn jsonrpc2.Conn
	// results writes an answer encoded already (encodedResult) into its
	// frame; nil where the stream cannot, which then takes it as JSON.
	results resultWriter

	mu        sync.Mutex
	ws        *tools.Workspace
	root      string // the client's root folder, as its URIs name it
	caps      clientCapabilities
	enc       string
	init      initOptions
	docs      map[string]*document    // open documents by project path
	published map[string]*publication // project path -> the diagnostics last published, and what from
	pubAt     definitions.SnapshotID  // the snapshot they were published from (documents.go)
	watcher   *tools.Watcher
	unsub     func()
	shutdown  bool
	exit      bool
	exited    chan struct{}
	// work counts the handlers and publications under way; once ending
	// is set (under mu) none starts, and ServeStream waits for work.
	work    sync.WaitGroup
	ending  bool
	running map[string]context.CancelFunc // requests by id, for $/cancelRequest
	tokens  int                           // the last progress token made
	// activeToken is the progress token of the work withProgress runs,
	// that the engine's progress reports on; nil when none runs.
	activeToken json.RawMessage

	// delay is how long didChange's diagnostics wait for more changes;
	// pending holds the documents changed since the last publication,
	// and debounce is the timer that publishes them (documents.go).
	delay    time.Duration
	pending  map[string]bool
	debounce *time.Timer

	// publishMu keeps publications in order: each publishes the findings
	// of the snapshot it read, and the next one reads a later snapshot.
	publishMu sync.Mutex

	foundMu sync.Mutex
	foundIx *definitions.Index // the snapshot found was checked on
	found   []diag.Finding

	follow     chan struct{} // kicked by every change event
	followDone chan struct{}
	eventsMu   sync.Mutex
	events     []tools.Event

	models model.Cache  // the JSON of the last tent/model (model.go)
	answer modelAnswers // the last tent/model answered, with its tag
}

// document is one open document: its text as the client holds it.
type document struct {
	uri     string
	path    string
	version int32
	text    []byte
}

// handler dispatches the messages: $/cancelRequest and exit at once, on
// the reading goroutine (a cancel must not wait behind the request it
// cancels), every other message in order through jsonrpc2.AsyncHandler,
// so that a handler may ask the client (window/showMessageRequest) while
// the connection goes on reading its answer.
func (s *server) handler() jsonrpc2.Handler {
	async := jsonrpc2.AsyncHandler(func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		defer s.work.Done()
		return s.handle(ctx, reply, req)
	})
	return func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		switch req.Method() {
		case "$/cancelRequest":
			s.cancelRequest(req.Params())
			return nil
		case "exit":
			s.mu.Lock()
			if !s.exit {
				s.exit = true
				close(s.exited)
			}
			s.mu.Unlock()
			return nil
		}
		if !s.startWork() {
			return nil // the session is ending: the connection closes unanswered
		}
		call, ok := req.(*jsonrpc2.Call)
		if !ok {
			return async(ctx, reply, req)
		}
		key := idKey(call.ID())
		cctx, cancel := context.WithCancel(ctx)
		s.mu.Lock()
		s.running[key] = cancel
		s.mu.Unlock()
		inner := reply
		reply = func(rctx context.Context, result any, err error) error {
			s.mu.Lock()
			delete(s.running, key)
			s.mu.Unlock()
			if cctx.Err() != nil && ctx.Err() == nil {
				result, err = nil, &jsonrpc2.Error{Code: codeRequestCancelled, Message: "request cancelled: " + req.Method()}
			}
			cancel()
			// Never the request's own context: a cancelled one drops the reply.
			rctx = context.WithoutCancel(rctx)
			if enc, ok := result.(encodedResult); ok {
				if err == nil && s.results != nil {
					_, werr := s.results.writeResult(rctx, call.ID(), enc)
					return werr
				}
				result = enc.joined()
			}
			return inner(rctx, result, err)
		}
		return async(cctx, reply, req)
	}
}

// startWork counts one piece of work on the session's workspace; false
// once the session is ending. Its end is s.work.Done.
func (s *server) startWork() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ending {
		return false
	}
	s.work.Add(1)
	return true
}

// codeRequestCancelled is LSP's RequestCancelled.
const codeRequestCancelled jsonrpc2.Code = -32800

// codeRequestFailed is LSP 3.17's RequestFailed: a tool's error.
const codeRequestFailed jsonrpc2.Code = -32803

// idKey names a request id the same way for numbers and strings
// (jsonrpc2's %q form: #5, "abc").
func idKey(id jsonrpc2.ID) string { return fmt.Sprintf("%q", id) }

// cancelRequest cancels the request the params name. Numeric ids are
// cancelled as string ids are (the library's CancelHandler misses them).
func (s *server) cancelRequest(params json.RawMessage) {
	var p struct {
		ID jsonrpc2.ID `json:"id"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	s.mu.Lock()
	cancel := s.running[idKey(p.ID)]
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// handle runs one request or notification (in order, on its own
// goroutine) and replies.
func (s *server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	if ctx.Err() != nil {
		return reply(ctx, nil, ctx.Err()) // cancelled while it waited: the replier answers -32800
	}
	result, err := s.dispatch(ctx, req)
	if _, isCall := req.(*jsonrpc2.Call); !isCall && err != nil {
		s.logf("%s: %v", req.Method(), err) // a notification has no answer to carry it
	}
	if err != nil {
		err = wireError(err)
	}
	return reply(ctx, result, err)
}

// wireError turns an error into the protocol's: a tool error keeps its
// code first in the message and its JSON in data.
func wireError(err error) error {
	var we *jsonrpc2.Error
	if errors.As(err, &we) {
		return we
	}
	var te *diag.ToolError
	if errors.As(err, &te) {
		data, _ := json.Marshal(te)
		raw := json.RawMessage(data)
		return &jsonrpc2.Error{Code: codeRequestFailed, Message: te.Error(), Data: &raw}
	}
	return &jsonrpc2.Error{Code: jsonrpc2.InternalError, Message: err.Error()}
}

// paramsError is a request whose parameters do not decode.
func paramsError(method string, err error) error {
	return &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: fmt.Sprintf("%s: bad parameters: %v", method, err)}
}

// decode reads a request's parameters.
func decode(req jsonrpc2.Request, v any) error {
	if err := json.Unmarshal(req.Params(), v); err != nil {
		return paramsError(req.Method(), err)
	}
	return nil
}

// dispatch runs a method. Methods are dispatched here, not by the
// library's server, which knows only LSP 3.15.
func (s *server) dispatch(ctx context.Context, req jsonrpc2.Request) (any, error) {
	method := req.Method()
	s.mu.Lock()
	ready, down := s.ws != nil, s.shutdown
	s.mu.Unlock()
	switch {
	case method == "initialize":
		return s.initialize(ctx, req)
	case method == "initialized":
		return nil, s.initialized(ctx)
	case method == "shutdown":
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
		s.stop()
		return nil, nil
	case !ready:
		return nil, &jsonrpc2.Error{Code: jsonrpc2.ServerNotInitialized, Message: method + ": the server is not initialized"}
	case down:
		return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidRequest, Message: method + ": the server is shut down"}
	}
	switch method {
	case "textDocument/didOpen":
		return nil, s.didOpen(ctx, req)
	case "textDocument/didChange":
		return nil, s.didChange(ctx, req)
	case "textDocument/didSave":
		return nil, s.didSave(ctx, req)
	case "textDocument/didClose":
		return nil, s.didClose(ctx, req)
	case "workspace/didChangeWatchedFiles":
		return nil, s.watchedFiles(ctx, req)
	case "workspace/didChangeConfiguration", "$/setTrace", "workspace/didChangeWorkspaceFolders":
		return nil, nil
	case "textDocument/documentSymbol":
		return s.documentSymbol(ctx, req)
	case "workspace/symbol":
		return s.workspaceSymbol(ctx, req)
	case "textDocument/hover":
		return s.hover(ctx, req)
	case "textDocument/definition":
		return s.definition(ctx, req)
	case "textDocument/references":
		return s.references(ctx, req)
	case "tent/references":
		return s.tentReferences(ctx, req)
	case "textDocument/prepareRename":
		return s.prepareRename(ctx, req)
	case "textDocument/rename":
		return s.rename(ctx, req)
	case "textDocument/codeAction":
		return s.codeAction(ctx, req)
	case "codeAction/resolve":
		return s.resolveCodeAction(ctx, req)
	case "workspace/executeCommand":
		return s.executeCommand(ctx, req)
	case "tent/call":
		return s.tentCall(ctx, req)
	case "tent/model":
		return s.tentModel(ctx, req)
	case "tent/apply":
		return s.tentApply(ctx, req)
	}
	if _, ok := req.(*jsonrpc2.Call); !ok || strings.HasPrefix(method, "$/") {
		return nil, nil // a notification the server does not need
	}
	return nil, &jsonrpc2.Error{Code: jsonrpc2.MethodNotFound, Message: method + ": no such method"}
}

// initialize opens the workspace on the client's one root folder and
// answers the server's capabilities.
func (s *server) initialize(ctx context.Context, req jsonrpc2.Request) (any, error) {
	var p initializeParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	s.mu.Lock()
	opened := s.ws != nil
	s.mu.Unlock()
	if opened {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidRequest, Message: "initialize: the server is initialized already"}
	}
	root, err := rootOf(p)
	if err != nil {
		return nil, err
	}
	var opts initOptions
	if len(p.Options) > 0 && string(p.Options) != "null" {
		dec := json.NewDecoder(strings.NewReader(string(p.Options)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&opts); err != nil {
			return nil, diag.Errorf(diag.T9102, "bad initializationOptions: %v (the fields are caller, agent, policy, yes, writes, diagnosticDelay)", err)
		}
	}
	delay := defaultDiagnosticDelay
	if opts.DiagnosticDelay != nil {
		delay = time.Duration(*opts.DiagnosticDelay) * time.Millisecond
		if delay < 0 || delay > maxDiagnosticDelay {
			return nil, diag.Errorf(diag.T9102, "bad initializationOptions: diagnosticDelay is %d; it is 0 to %d milliseconds", *opts.DiagnosticDelay, maxDiagnosticDelay.Milliseconds()).With("field", "diagnosticDelay")
		}
	}
	if opts.Writes == "" {
		opts.Writes = writesClient
	}
	if opts.Writes != writesClient && opts.Writes != writesServer {
		return nil, diag.Errorf(diag.T9102, "bad initializationOptions: writes is %q; it is \"client\" or \"server\"", opts.Writes).With("field", "writes")
	}
	var policy *tools.Policy
	if len(opts.Policy) > 0 && string(opts.Policy) != "null" {
		if policy, err = tools.ParsePolicy(opts.Policy); err != nil {
			return nil, diag.Errorf(diag.T9102, "bad initializationOptions: %v", err).With("field", "policy")
		}
	}
	caller := opts.Caller
	if op := s.opts.Operator; op != nil {
		if caller, policy, err = s.operatorBinds(op, root, opts, policy); err != nil {
			return nil, err
		}
		opts.Yes = op.Yes
	}
	if caller == "" && s.opts.DefaultCaller != nil {
		caller = s.opts.DefaultCaller(root)
	}
	enc := encUTF16
	for _, e := range p.Capabilities.General.PositionEncodings {
		if e == encUTF8 {
			enc = encUTF8
		}
	}
	ws, err := tools.Open(root, tools.Options{Policy: policy, Caller: caller, Agent: opts.Agent, Approver: &approver{s: s}, Progress: s.progress,
		UnconfinedShell: s.opts.UnconfinedShell, LongLived: true})
	if err != nil {
		return nil, diag.Errorf(diag.T9121, "the workspace folder %s cannot be opened: %v", root, err).With("path", root)
	}
	ws.KeepChecks() // every keystroke checks again
	s.mu.Lock()
	s.ws, s.root, s.caps, s.enc, s.init, s.delay = ws, root, p.Capabilities, enc, opts, delay
	s.mu.Unlock()
	s.startFollowing()
	return map[string]any{
		"capabilities": map[string]any{
			"positionEncoding": enc,
			"textDocumentSync": map[string]any{
				"openClose": true,
				"change":    protocol.TextDocumentSyncKindIncremental,
				"save":      map[string]any{"includeText": false},
			},
			"documentSymbolProvider":  true,
			"workspaceSymbolProvider": true,
			"hoverProvider":           true,
			"definitionProvider":      true,
			"referencesProvider":      true,
			"renameProvider":          map[string]any{"prepareProvider": true},
			"codeActionProvider": map[string]any{
				"codeActionKinds": []string{"quickfix", "refactor"},
				"resolveProvider": true,
			},
			"executeCommandProvider": map[string]any{"commands": []string{"tent.call"}},
		},
		"serverInfo": map[string]any{"name": "tent-tools"},
	}, nil
}

// rootOf finds the one project folder of initialize: workspaceFolders
// (exactly one), else rootUri, else rootPath.
func rootOf(p initializeParams) (string, error) {
	var uri string
	switch {
	case len(p.WorkspaceFolders) > 1:
		var names []string
		for _, f := range p.WorkspaceFolders {
			names = append(names, f.URI)
		}
		return "", diag.Errorf(diag.T9121, "one workspace folder per server, not %d (%s): start one tent-tools lsp per project", len(names), strings.Join(names, ", ")).
			With("folders", names)
	case len(p.WorkspaceFolders) == 1:
		uri = p.WorkspaceFolders[0].URI
	case p.RootURI != "":
		uri = p.RootURI
	case p.RootPath != "":
		return filepath.Clean(p.RootPath), nil
	default:
		return "", diag.Errorf(diag.T9121, "no workspace folder: the client gave neither workspaceFolders nor rootUri")
	}
	path, err := filePath(uri)
	if err != nil {
		return "", diag.Errorf(diag.T9121, "the workspace folder %s: %v", uri, err).With("uri", uri)
	}
	info, err := os.Stat(path)
	if err != nil || !info.IsDir() {
		return "", diag.Errorf(diag.T9121, "the workspace folder %s is not a folder", path).With("path", path)
	}
	return path, nil
}

// operatorBinds holds a client's initializationOptions to the operator of
// a listening server: its folder must lie in the operator's Root, it may
// name no other caller and say no yes of its own, and its policy may only
// narrow the operator's. It answers the caller ("" for the default) and
// the policy the session is judged by.
func (s *server) operatorBinds(op *Operator, root string, opts initOptions, client *tools.Policy) (string, *tools.Policy, error) {
	if op.Root != "" && !within(op.Root, root) {
		return "", nil, diag.Errorf(diag.T9121, "the workspace folder %s is not in %s, the folder this server serves (tent-tools lsp --root)", root, op.Root).
			With("path", root)
	}
	caller := op.Caller
	if caller == "" && s.opts.DefaultCaller != nil {
		caller = s.opts.DefaultCaller(root)
	}
	if opts.Caller != "" && opts.Caller != caller {
		return "", nil, diag.Errorf(diag.T9102, "bad initializationOptions: caller %q: a listening server acts as its operator's caller (%s, tent-tools lsp --caller); a client names no other", opts.Caller, caller).
			With("field", "caller")
	}
	if opts.Yes && !op.Yes {
		return "", nil, diag.Errorf(diag.T9102, "bad initializationOptions: yes: a listening server asks the person where its operator's policy says so (tent-tools lsp --yes); a client may not answer for them").
			With("field", "yes")
	}
	policy, err := op.Policy.Narrow(client)
	if err != nil {
		return "", nil, diag.Errorf(diag.T9102, "bad initializationOptions: policy: %v (a listening server's policy is its operator's, tent-tools lsp --policy; a client may add deny and ask rules to it, no more)", err).
			With("field", "policy")
	}
	return caller, policy, nil
}

// within reports whether the folder dir is root or lies inside it, both
// read through their links.
func within(root, dir string) bool {
	r, err1 := filepath.EvalSymlinks(root)
	d, err2 := filepath.EvalSymlinks(dir)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(r, d)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// filePath is the path of a file: URI.
func filePath(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", err
	}
	if u.Scheme != "file" {
		return "", fmt.Errorf("not a file: URI")
	}
	return filepath.FromSlash(u.Path), nil
}

// warnNoProject tells the person, by window/showMessage and a line of the
// log, where the root the editor gave holds no project.ts: an editor that
// took its current folder for the root (opened from a parent folder)
// indexes the wrong folder, and its hovers and diagnostics would be wrong
// without a word.
func (s *server) warnNoProject(ctx context.Context, root string) {
	if _, err := os.Stat(filepath.Join(root, "project.ts")); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return
	}
	msg := fmt.Sprintf("tent-tools: %s holds no project.ts, so it is no tent project: the editor gave it as the root folder. "+
		"Open the folder that holds project.ts, or have the editor find project.ts upward for the root (tent-tools docs lsp); "+
		"until then, what the server says describes only the files in %s", root, root)
	s.logf("%s", msg)
	if err := s.conn.Notify(context.WithoutCancel(ctx), "window/showMessage", map[string]any{"type": protocol.MessageTypeWarning, "message": msg}); err != nil {
		s.logf("show message: %v", err)
	}
}

// initialized starts watching the folder: through the client where it
// registers watched files dynamically, else by the server itself.
func (s *server) initialized(ctx context.Context) error {
	s.mu.Lock()
	ws, dynamic, root := s.ws, s.caps.Workspace.DidChangeWatchedFiles.DynamicRegistration, s.root
	s.mu.Unlock()
	if ws == nil {
		return nil
	}
	s.warnNoProject(ctx, root)
	if dynamic {
		// The editor watches and tells (didChangeWatchedFiles → Heard): a
		// request looks only at what it told of, the folder walked whole
		// now and then. Where the editor refuses to register, the server
		// watches for itself.
		byEditor := ws.WatchByEditor(func(err error) { s.logf("watch: %v", err) })
		s.mu.Lock()
		s.watcher = byEditor
		s.mu.Unlock()
		go func() {
			params := map[string]any{"registrations": []any{map[string]any{
				"id": "tent-watch", "method": "workspace/didChangeWatchedFiles",
				"registerOptions": map[string]any{"watchers": []any{map[string]any{"globPattern": "**/*"}}},
			}}}
			if _, err := s.conn.Call(context.WithoutCancel(ctx), "client/registerCapability", params, nil); err != nil {
				s.logf("register watched files: %v; the server watches the folder itself", err)
				s.mu.Lock()
				mine := s.watcher == byEditor
				s.mu.Unlock()
				if mine {
					byEditor.Close()
					s.watchItself(ws)
				}
			}
		}()
	} else {
		s.watchItself(ws)
	}
	return s.withProgress(ctx, "Indexing the project", func() error {
		// The history's starting state, so that the editor's saves are
		// changes of it.
		if err := ws.Refresh(ctx); err != nil {
			return err
		}
		if s.opts.Indexed != nil {
			s.opts.Indexed()
		}
		return s.publish(ctx, "")
	})
}

// watchItself starts the server's own watcher of the folder.
func (s *server) watchItself(ws *tools.Workspace) {
	w, err := ws.Watch(func(err error) { s.logf("watch: %v", err) })
	if err != nil {
		s.logf("watch %s: %v", ws.Root(), err)
		return
	}
	s.mu.Lock()
	s.watcher = w
	s.mu.Unlock()
}

// watchedFiles is workspace/didChangeWatchedFiles: the files the editor
// saw change are told to the watcher (Heard) before the refresh looks.
func (s *server) watchedFiles(ctx context.Context, req jsonrpc2.Request) error {
	var params struct {
		Changes []struct {
			URI string `json:"uri"`
		} `json:"changes"`
	}
	if err := json.Unmarshal(req.Params(), &params); err != nil {
		return &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: "didChangeWatchedFiles: " + err.Error()}
	}
	s.mu.Lock()
	w := s.watcher
	s.mu.Unlock()
	if w != nil {
		paths := make([]string, 0, len(params.Changes))
		for _, c := range params.Changes {
			if rel, err := s.relPath(c.URI); err == nil {
				paths = append(paths, rel)
			}
		}
		w.Heard(paths...)
	}
	return s.refresh(ctx)
}

// stop ends what the session started: the watcher, the subscription and
// the workspace.
func (s *server) stop() {
	s.mu.Lock()
	w, unsub := s.watcher, s.unsub
	s.watcher, s.unsub = nil, nil
	if s.debounce != nil {
		s.debounce.Stop()
	}
	follow := s.follow
	s.follow = nil
	s.mu.Unlock()
	if w != nil {
		w.Close()
	}
	if unsub != nil {
		unsub()
	}
	if follow != nil {
		close(follow)
		<-s.followDone
	}
}

// closeWorkspace closes the session's workspace (its databases and locks).
func (s *server) closeWorkspace() {
	s.mu.Lock()
	ws := s.ws
	s.mu.Unlock()
	if ws != nil {
		ws.Close()
	}
}

func (s *server) isExiting() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.exit || s.shutdown
}

func (s *server) logf(format string, args ...any) {
	if s.opts.Log != nil {
		fmt.Fprintf(s.opts.Log, "tent-tools lsp: "+format+"\n", args...)
	}
}

// workspace returns the session's workspace and encoding.
func (s *server) workspace() (*tools.Workspace, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ws, s.enc
}

// approver asks the person through the client: window/showMessageRequest
// with Yes and No. A client that does not support it, no answer or a null
// answer is a no, unless initializationOptions said yes.
type approver struct{ s *server }

// Approve implements tools.Approver.
func (a *approver) Approve(ctx context.Context, question string) (bool, error) {
	a.s.mu.Lock()
	yes, supported := a.s.init.Yes, len(a.s.caps.Window.ShowMessage) > 0 && string(a.s.caps.Window.ShowMessage) != "null"
	a.s.mu.Unlock()
	if yes {
		return true, nil
	}
	if !supported {
		return false, &diag.Unasked{Why: "the editor offers no window/showMessageRequest, so it cannot ask",
			Instead: `an editor that offers it asks the person; initializationOptions {"yes": true} says yes for them`}
	}
	var answer *protocol.MessageActionItem
	params := map[string]any{
		"type":    protocol.MessageTypeWarning,
		"message": question,
		"actions": []protocol.MessageActionItem{{Title: "Yes"}, {Title: "No"}},
	}
	if _, err := a.s.conn.Call(ctx, "window/showMessageRequest", params, &answer); err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		return false, nil // the client failed to ask: a no
	}
	return answer != nil && answer.Title == "Yes", nil
}
