package studio_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/tent-tools/tent-tools/internal/sample"
	"github.com/tent-tools/tent-tools/internal/testbin"
)

// This file starts the built binary (`tent-tools studio`) on a copy of a
// sample project and speaks to it as the page does: HTTP for the page and
// /studio.json, and JSON-RPC over the WebSocket at /lsp.

// bin is the tent-tools binary TestMain builds.
var bin string

func TestMain(m *testing.M) {
	testbin.Main(m, &bin, "../cmd/tent-tools", true, closeBrowser)
}

// copyProject copies a sample project, as git tracks it, into a new folder.
func copyProject(t testing.TB, name string) string {
	t.Helper()
	return sample.Copy(t, filepath.Join("..", "testdata", "projects", name))
}

// studioProc is one running `tent-tools studio`.
type studioProc struct {
	dir    string // the project
	url    string // as printed: http://127.0.0.1:PORT/?token=T
	base   string // http://127.0.0.1:PORT
	host   string // 127.0.0.1:PORT
	token  string
	cmd    *exec.Cmd
	stderr *syncBuffer
}

// syncBuffer is a bytes.Buffer that the process's stderr and the test may
// use at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startStudio starts `tent-tools studio -C dir --listen 127.0.0.1:0 args...`
// and waits for the URL it prints. The cleanup sends SIGINT (Ctrl-C) and
// holds the process to ending cleanly: status 0, "stopped".
func startStudio(t testing.TB, dir string, args ...string) *studioProc {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"studio", "-C", dir, "--listen", "127.0.0.1:0"}, args...)...)
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			default:
			}
		}
	}()
	var line string
	select {
	case line = <-lines:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("studio printed no URL within 20s; stderr:\n%s", stderr.String())
	}
	raw, ok := strings.CutPrefix(line, "tent-tools studio: open ")
	if !ok {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("studio printed %q, not its URL; stderr:\n%s", line, stderr.String())
	}
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	s := &studioProc{dir: dir, url: raw, base: "http://" + u.Host, host: u.Host, token: u.Query().Get("token"), cmd: cmd, stderr: stderr}
	t.Cleanup(func() { s.stop(t) })
	return s
}

// stop ends the studio as Ctrl-C does and holds it to a clean end.
func (s *studioProc) stop(t testing.TB) {
	if s.cmd.ProcessState != nil {
		return
	}
	s.cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("studio after SIGINT: %v; stderr:\n%s", err, s.stderr.String())
		} else if !strings.Contains(s.stderr.String(), "tent-tools studio: stopped") {
			t.Errorf("studio ended without saying it stopped; stderr:\n%s", s.stderr.String())
		}
	case <-time.After(15 * time.Second):
		s.cmd.Process.Kill()
		<-done
		t.Errorf("studio did not end within 15s of SIGINT; stderr:\n%s", s.stderr.String())
	}
}

// noRedirect is an HTTP client that shows a redirect instead of following it.
var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	Timeout: 20 * time.Second}

// cookie trades the printed URL's token for the studio's cookie, as a
// browser opening it does.
func (s *studioProc) cookie(t testing.TB) *http.Cookie {
	t.Helper()
	resp, err := noRedirect.Get(s.url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" {
		t.Fatalf("GET the printed URL: %s, Location %q; want 303 to /", resp.Status, resp.Header.Get("Location"))
	}
	for _, c := range resp.Cookies() {
		if strings.HasPrefix(c.Name, "tent_studio_") {
			return c
		}
	}
	t.Fatalf("GET the printed URL set no cookie: %v", resp.Header["Set-Cookie"])
	return nil
}

// get answers a GET of path with the headers h.
func (s *studioProc) get(t testing.TB, path string, h http.Header) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, s.base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range h {
		req.Header[k] = v
	}
	if hs := h.Get("Host"); hs != "" {
		req.Host = hs
	}
	resp, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(body)
}

// rpcError is a JSON-RPC error answer.
type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("%d %s", e.Code, e.Message) }

// message is any JSON-RPC message.
type message struct {
	ID     *json.RawMessage `json:"id,omitempty"`
	Method string           `json:"method,omitempty"`
	Params json.RawMessage  `json:"params,omitempty"`
	Result json.RawMessage  `json:"result,omitempty"`
	Error  *rpcError        `json:"error,omitempty"`
}

// session is one page's language server session over the WebSocket.
type session struct {
	c       *websocket.Conn
	mu      sync.Mutex
	next    int
	waiting map[string]chan message
	closed  bool // the connection ended
	notes   chan message
	// answer answers the server's requests to the client (the policy's
	// ask: window/showMessageRequest); nil answers null.
	answer func(method string, params json.RawMessage) any
}

// dial opens the WebSocket at /lsp with the headers h, answering the
// upgrade's response where it is refused.
func (s *studioProc) dial(t testing.TB, path string, h http.Header) (*session, *http.Response, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, resp, err := websocket.Dial(ctx, "ws://"+s.host+path, &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		return nil, resp, err
	}
	c.SetReadLimit(64 << 20)
	ss := &session{c: c, waiting: map[string]chan message{}, notes: make(chan message, 256)}
	go ss.read()
	t.Cleanup(func() { c.Close(websocket.StatusNormalClosure, "") })
	return ss, resp, nil
}

// open dials /lsp with the cookie and the page's Origin and initializes a
// session on the project, writes "server" (the page's mode) unless opts
// say otherwise.
func (s *studioProc) open(t testing.TB, opts map[string]any) *session {
	t.Helper()
	ck := s.cookie(t)
	h := http.Header{"Cookie": {ck.String()}, "Origin": {s.base}}
	ss, resp, err := s.dial(t, "/lsp", h)
	if err != nil {
		t.Fatalf("dial /lsp with the cookie: %v (%v)", err, status(resp))
	}
	code, _, body := s.get(t, "/studio.json", http.Header{"Cookie": {ck.String()}})
	var info struct{ RootURI string }
	if code != http.StatusOK || json.Unmarshal([]byte(body), &info) != nil || info.RootURI == "" {
		t.Fatalf("/studio.json: %d %s", code, body)
	}
	if opts == nil {
		opts = map[string]any{"writes": "server"}
	}
	if _, err := ss.call("initialize", map[string]any{"rootUri": info.RootURI, "capabilities": map[string]any{"window": map[string]any{"showMessage": map[string]any{}}},
		"initializationOptions": opts}); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	ss.notify("initialized", map[string]any{})
	return ss
}

func status(resp *http.Response) string {
	if resp == nil {
		return "no response"
	}
	return resp.Status
}

func (ss *session) read() {
	for {
		_, data, err := ss.c.Read(context.Background())
		if err != nil {
			ss.mu.Lock()
			for _, ch := range ss.waiting {
				close(ch)
			}
			ss.waiting = map[string]chan message{}
			ss.closed = true
			ss.mu.Unlock()
			close(ss.notes)
			return
		}
		var m message
		if json.Unmarshal(data, &m) != nil {
			continue
		}
		switch {
		case m.ID != nil && m.Method != "": // a request of the server's
			var result any
			if ss.answer != nil {
				result = ss.answer(m.Method, m.Params)
			}
			ss.send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
		case m.ID != nil:
			ss.mu.Lock()
			ch := ss.waiting[string(*m.ID)]
			delete(ss.waiting, string(*m.ID))
			ss.mu.Unlock()
			if ch != nil {
				ch <- m
			}
		default:
			select {
			case ss.notes <- m:
			default:
			}
		}
	}
}

func (ss *session) send(v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return ss.c.Write(ctx, websocket.MessageText, data)
}

// call sends a request and waits for its answer.
func (ss *session) call(method string, params any) (json.RawMessage, error) {
	ss.mu.Lock()
	if ss.closed {
		ss.mu.Unlock()
		return nil, fmt.Errorf("%s: the connection closed", method)
	}
	ss.next++
	id := fmt.Sprint(ss.next)
	ch := make(chan message, 1)
	ss.waiting[id] = ch
	ss.mu.Unlock()
	if err := ss.send(map[string]any{"jsonrpc": "2.0", "id": ss.next, "method": method, "params": params}); err != nil {
		return nil, err
	}
	select {
	case m, ok := <-ch:
		if !ok {
			return nil, fmt.Errorf("%s: the connection closed", method)
		}
		if m.Error != nil {
			return nil, m.Error
		}
		return m.Result, nil
	case <-time.After(30 * time.Second):
		return nil, fmt.Errorf("%s: no answer within 30s", method)
	}
}

func (ss *session) notify(method string, params any) {
	ss.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// waitNote waits for a notification of method.
func (ss *session) waitNote(t testing.TB, method string, within time.Duration) json.RawMessage {
	t.Helper()
	deadline := time.After(within)
	for {
		select {
		case m, ok := <-ss.notes:
			if !ok {
				t.Fatalf("the connection closed before %s", method)
			}
			if m.Method == method {
				return m.Params
			}
		case <-deadline:
			t.Fatalf("no %s within %s", method, within)
		}
	}
}
