package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/coder/websocket"

	"github.com/tent-tools/tent-tools/internal/chromiumtest"
	"github.com/tent-tools/tent-tools/shot"
)

// listen starts `tent-tools lsp --listen 127.0.0.1:0` with the flags and
// answers the URL it prints (its ws:// address with the token).
func listen(t testing.TB, flags ...string) string {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"lsp", "--listen", "127.0.0.1:0"}, flags...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Error("the server did not stop on SIGINT")
		}
	})
	lines := bufio.NewScanner(stderr)
	for lines.Scan() {
		if addr, ok := strings.CutPrefix(lines.Text(), "tent-tools lsp: listening on "); ok {
			go func() {
				for lines.Scan() {
				}
			}()
			return addr
		}
	}
	t.Fatal("the server did not say where it listens")
	return ""
}

// origins are the --origin flags of pages.
func origins(pages ...string) []string {
	var flags []string
	for _, p := range pages {
		flags = append(flags, "--origin", p)
	}
	return flags
}

// withoutToken is a URL without its query (the token).
func withoutToken(u string) string { base, _, _ := strings.Cut(u, "?"); return base }

// dialStatus dials a URL with the headers and answers the HTTP status of
// a refusal (0 where the upgrade was let in) and its body.
func dialStatus(t *testing.T, url string, header http.Header) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, resp, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: header})
	if err == nil {
		c.Close(websocket.StatusNormalClosure, "")
		return 0, ""
	}
	if resp == nil {
		t.Fatalf("dial %s: %v", withoutToken(url), err)
	}
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

func TestWebSocketRefusesOtherOrigins(t *testing.T) {
	addr := listen(t, origins("http://127.0.0.1:1")...)
	if status, _ := dialStatus(t, addr, http.Header{"Origin": {"http://evil.example"}}); status != http.StatusForbidden {
		t.Fatalf("an unlisted origin: %d; want 403", status)
	}
	if status, body := dialStatus(t, addr, http.Header{"Origin": {"http://127.0.0.1:1"}}); status != 0 {
		t.Fatalf("a listed origin: %d %s", status, body)
	}
}

// TestWebSocketToken: a connection without the printed token, or with
// another, is refused 401 before the upgrade; a request with two Origin
// headers is refused; the token is let in as a query parameter or a
// bearer header, and one read from --token-file is the one printed.
func TestWebSocketToken(t *testing.T) {
	addr := listen(t, origins("http://127.0.0.1:1")...)
	base, query, _ := strings.Cut(addr, "?")
	token, ok := strings.CutPrefix(query, "token=")
	if !ok || len(token) < 43 || !strings.HasPrefix(addr, "ws://127.0.0.1:") {
		t.Fatalf("the printed URL %s has no token of 256 bits", withoutToken(addr))
	}
	for _, tt := range []struct {
		name   string
		url    string
		header http.Header
		status int
	}{
		{"no token", base, nil, http.StatusUnauthorized},
		{"no token, a listed origin", base, http.Header{"Origin": {"http://127.0.0.1:1"}}, http.StatusUnauthorized},
		{"a wrong token", base + "?token=" + strings.Repeat("A", 43), nil, http.StatusUnauthorized},
		{"a wrong bearer", base, http.Header{"Authorization": {"Bearer " + strings.Repeat("A", 43)}}, http.StatusUnauthorized},
		{"the token as a bearer", base, http.Header{"Authorization": {"Bearer " + token}}, 0},
		{"the token in the query", addr, nil, 0},
		{"two Origin headers", addr, http.Header{"Origin": {"http://127.0.0.1:1", "http://evil.example"}}, http.StatusBadRequest},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if status, body := dialStatus(t, tt.url, tt.header); status != tt.status {
				t.Fatalf("%d %s; want %d", status, body, tt.status)
			}
		})
	}

	file := filepath.Join(t.TempDir(), "token")
	given := "0123456789abcdef0123456789abcdef"
	os.WriteFile(file, []byte(given+"\n"), 0o600)
	addr = listen(t, "--token-file", file)
	if !strings.HasSuffix(addr, "/?token="+given) {
		t.Fatalf("with --token-file the URL is %s", addr)
	}
	if status, _ := dialStatus(t, addr, nil); status != 0 {
		t.Fatalf("the token of the file: %d", status)
	}
}

// TestWebSocketTokenFileRefused: a token file others may read, or a short
// token, stops the server before it listens (exit 2), naming no token.
func TestWebSocketTokenFileRefused(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ name, text, want string }{
		{"open", "0123456789abcdef0123456789abcdef", "chmod 600"},
		{"short", "0123456789", "at least 32"},
	} {
		file := filepath.Join(dir, tt.name)
		os.WriteFile(file, []byte(tt.text), 0o600)
		if tt.name == "open" {
			os.Chmod(file, 0o644)
		}
		out, err := exec.Command(binary, "lsp", "--listen", "127.0.0.1:0", "--token-file", file).CombinedOutput()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(string(out), tt.want) || strings.Contains(string(out), tt.text) {
			t.Errorf("%s: %v %s; want exit 2 and %q", tt.name, err, out, tt.want)
		}
	}
}

// TestWebSocketConnectionBound: past --max-connections a connection is
// refused 503 with T9123, those in go on, and a closed one frees its place.
func TestWebSocketConnectionBound(t *testing.T) {
	addr := listen(t, "--max-connections", "2")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var conns []*websocket.Conn
	for range 2 {
		c, _, err := websocket.Dial(ctx, addr, nil)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	if status, body := dialStatus(t, addr, nil); status != http.StatusServiceUnavailable || !strings.Contains(body, "T9123") {
		t.Fatalf("a third connection: %d %s; want 503 T9123", status, body)
	}
	// Those in are served still.
	if err := conns[0].Write(ctx, websocket.MessageText, []byte(`{"jsonrpc":"2.0","id":1,"method":"shutdown"}`)); err != nil {
		t.Fatal(err)
	}
	if _, data, err := conns[0].Read(ctx); err != nil || !strings.Contains(string(data), `"id":1`) {
		t.Fatalf("the first connection's answer: %s %v", data, err)
	}
	conns[0].Close(websocket.StatusNormalClosure, "")
	for {
		status, body := dialStatus(t, addr, nil)
		if status == 0 {
			break
		}
		if status != http.StatusServiceUnavailable || ctx.Err() != nil {
			t.Fatalf("after one closed: %d %s", status, body)
		}
		time.Sleep(50 * time.Millisecond)
	}
	conns[1].Close(websocket.StatusNormalClosure, "")
}

// page is the test page: a minimal LSP client over the browser's own
// WebSocket, which records what it got in window.result.
var page = template.Must(template.New("page").Parse(`<!doctype html>
<title>tent lsp over WebSocket</title>
<script>
const ws = new WebSocket({{.WS}});
const result = window.result = {diagnostics: [], changed: []};
let next = 0;
const pending = {};
const send = (m) => ws.send(JSON.stringify(Object.assign({jsonrpc: "2.0"}, m)));
const call = (method, params) => new Promise((ok, bad) => { const id = ++next; pending[id] = {ok, bad}; send({id, method, params}); });
const until = (cond) => new Promise((ok) => { const tick = () => cond() ? ok() : setTimeout(tick, 10); tick(); });
ws.onmessage = (ev) => {
  const m = JSON.parse(ev.data);
  if (m.method && m.id !== undefined) { send({id: m.id, result: null}); return; }
  if (m.method === "textDocument/publishDiagnostics") result.diagnostics.push(m.params);
  if (m.method === "tent/changed") result.changed.push(m.params);
  if (m.method) return;
  const p = pending[m.id]; delete pending[m.id];
  m.error ? p.bad(m.error) : p.ok(m.result);
};
ws.onopen = async () => {
  try {
    const uri = {{.Root}} + "/tables/orders.ts";
    await call("initialize", {rootUri: {{.Root}}, capabilities: {}, initializationOptions: {writes: "server"}});
    send({method: "initialized", params: {}});
    const text = {{.Text}};
    send({method: "textDocument/didOpen", params: {textDocument: {uri, languageId: "typescript", version: 1, text}}});
    await until(() => result.diagnostics.some((d) => d.uri === uri && d.version === 1));
    send({method: "textDocument/didChange", params: {textDocument: {uri, version: 2}, contentChanges: [{text: text.replace("ref('users')", "ref('userz')")}]}});
    await until(() => result.diagnostics.some((d) => d.uri === uri && d.version === 2 && d.diagnostics.some((x) => x.code === "T2003")));
    send({method: "textDocument/didChange", params: {textDocument: {uri, version: 3}, contentChanges: [{text}]}});
    await until(() => result.diagnostics.some((d) => d.uri === uri && d.version === 3));
    const line = text.split("\n").findIndex((l) => l.includes("buyer:"));
    result.edit = await call("textDocument/rename", {textDocument: {uri}, position: {line, character: 5}, newName: "customer"});
    await until(() => result.changed.some((c) => c.point !== null));
    result.done = true;
  } catch (e) {
    result.error = JSON.stringify(e);
  }
};
</script>`))

func TestWebSocketFromABrowser(t *testing.T) {
	chromiumtest.Need(t, shot.Find)
	exe, _ := shot.Find()
	dir := copyShop(t)
	c := &client{dir: dir}
	pages := httptest.NewServer(nil)
	defer pages.Close()
	addr := listen(t, append(origins(pages.URL), "--root", dir, "--caller", "web")...)
	pages.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		page.Execute(w, map[string]string{"WS": addr, "Root": c.uri(""), "Text": readText(t, dir, "tables/orders.ts")})
	})
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("no-zygote", true), chromedp.Flag("disable-crash-reporter", true))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	defer cancelT()
	var result struct {
		Done        bool            `json:"done"`
		Error       string          `json:"error"`
		Edit        json.RawMessage `json:"edit"`
		Diagnostics []published     `json:"diagnostics"`
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(pages.URL)); err != nil {
		t.Fatalf("the page: %v", err)
	}
	raw, err := chromedp.Run(ctx, chromedp.Poll[json.RawMessage](`window.result && (window.result.done || window.result.error) ? JSON.stringify(window.result) : null`,
		chromedp.WithPollingInterval(50*time.Millisecond)))
	if err != nil {
		t.Fatalf("the page's result: %v", err)
	}
	var text string
	if err := json.Unmarshal(raw, &text); err != nil || json.Unmarshal([]byte(text), &result) != nil {
		t.Fatalf("the page's result: %s", raw)
	}
	if result.Error != "" || !result.Done {
		t.Fatalf("the page's client: %s", result.Error)
	}
	if !strings.Contains(string(result.Edit), c.uri("tables/orders.ts")) || !strings.Contains(readText(t, dir, "tables/orders.ts"), "customer: ref('users'") {
		t.Errorf("the rename from the page: edit %s", result.Edit)
	}
	points := historyOf(t, dir)
	if len(points) == 0 || points[0].Who != "web" || points[0].Tool != "rename" {
		t.Errorf("history: %+v", points)
	}
}

func readText(t *testing.T, dir, rel string) string {
	t.Helper()
	c := &client{t: t, dir: dir}
	return c.file(rel)
}

var interrupt = os.Interrupt

// dialClient is a client of the project dir over a WebSocket of url: the
// test client's framed stdio carried one message per text frame.
func dialClient(t testing.TB, url, dir string) *client {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ws, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		cancel()
		t.Fatalf("dial: %v", err)
	}
	ws.SetReadLimit(-1)
	pr, pw := io.Pipe()
	c := &client{t: t, dir: dir, in: &wsWriter{ctx: ctx, c: ws}, done: make(chan struct{}), pending: map[string]chan message{}, changed: make(chan struct{}, 1)}
	go func() {
		for {
			_, data, err := ws.Read(ctx)
			if err != nil {
				pw.CloseWithError(err)
				return
			}
			fmt.Fprintf(pw, "Content-Length: %d\r\n\r\n%s", len(data), data)
		}
	}()
	go c.read(bufio.NewReader(pr))
	t.Cleanup(func() {
		ws.Close(websocket.StatusNormalClosure, "")
		cancel()
	})
	return c
}

// wsWriter sends each framed message the client writes as one text frame.
type wsWriter struct {
	ctx context.Context
	c   *websocket.Conn
}

func (w *wsWriter) Write(p []byte) (int, error) {
	_, body, ok := bytes.Cut(p, []byte("\r\n\r\n"))
	if !ok {
		return 0, errors.New("not one framed message")
	}
	return len(p), w.c.Write(w.ctx, websocket.MessageText, body)
}

func (w *wsWriter) Close() error { return w.c.Close(websocket.StatusNormalClosure, "") }

// refusedWith answers a call's error, which must carry the code.
func refusedWith(t *testing.T, err *rpcError, code string) string {
	t.Helper()
	if err == nil || !strings.Contains(err.Message, code) {
		t.Fatalf("answer %v; want a refusal %s", err, code)
	}
	return err.Message
}

// TestWebSocketOperatorBinds: a listening server's caller, policy and yes
// are its operator's: a client that names another caller, says yes, or
// widens the policy (also, trust, allow) is refused at initialize with
// T9102; one whose folder is not in --root with T9121; a client's deny
// narrows what it may write, and what it writes is the operator's caller's.
func TestWebSocketOperatorBinds(t *testing.T) {
	dir := copyShop(t)
	policy := filepath.Join(t.TempDir(), "policy.json")
	os.WriteFile(policy, []byte(`{"deny": ["tables/**"]}`), 0o600)
	addr := listen(t, "--root", filepath.Dir(dir), "--caller", "ops", "--policy", policy)
	init := func(c *client, opts map[string]any) *rpcError {
		_, err := c.call("initialize", map[string]any{"processId": nil, "rootUri": c.uri(""), "capabilities": map[string]any{}, "initializationOptions": opts})
		return err
	}
	for _, tt := range []struct {
		name  string
		opts  map[string]any
		field string
	}{
		{"also", map[string]any{"policy": map[string]any{"also": []string{"shell"}}}, "also"},
		{"trust", map[string]any{"policy": map[string]any{"trust": []string{"run"}}}, "trust"},
		{"allow", map[string]any{"policy": map[string]any{"allow": []string{"**"}}}, "allow"},
		{"yes", map[string]any{"yes": true}, "yes"},
		{"another caller", map[string]any{"caller": "mallory"}, "mallory"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			msg := refusedWith(t, init(dialClient(t, addr, dir), tt.opts), "T9102")
			if !strings.Contains(msg, tt.field) {
				t.Errorf("the refusal %q does not name %s", msg, tt.field)
			}
		})
	}
	t.Run("a folder outside --root", func(t *testing.T) {
		refusedWith(t, init(dialClient(t, addr, t.TempDir()), nil), "T9121")
	})

	c := dialClient(t, addr, dir)
	if err := init(c, map[string]any{"caller": "ops", "policy": map[string]any{"deny": []string{"lib/**"}}}); err != nil {
		t.Fatalf("a narrowing policy: %v", err)
	}
	c.notify("initialized", map[string]any{})
	write := func(path string) *rpcError {
		_, err := c.call("tent/call", map[string]any{"tool": "write", "input": map[string]any{"path": path, "text": "export const x = 1\n"}})
		return err
	}
	refusedWith(t, write("lib/narrowed.ts"), "T9105")    // the client's deny
	refusedWith(t, write("tables/operator.ts"), "T9105") // the operator's, which the client cannot lift
	if err := write("notes.ts"); err != nil {
		t.Fatalf("a write the policies let: %v", err)
	}
	if points := historyOf(t, dir); len(points) == 0 || points[0].Who != "ops" {
		t.Errorf("history: %+v; want the operator's caller", points)
	}
}

// TestWebSocketDocumentBounds: past --max-documents, a document over the
// 1 MB of write, and a message over 8 MB are refused with their codes,
// and the server goes on serving.
func TestWebSocketDocumentBounds(t *testing.T) {
	dir := copyShop(t)
	addr := listen(t, "--root", dir, "--max-documents", "2")
	c := dialClient(t, addr, dir)
	c.initialize(fullCapabilities(), nil)
	shown := func(code string) {
		t.Helper()
		c.waitFor(0, "window/showMessage", func(p json.RawMessage) bool { return strings.Contains(string(p), code) })
	}
	c.open("tables/orders.ts")
	c.open("tables/users.ts")
	c.open("tables/products.ts")
	c.waitFor(0, "window/showMessage", func(p json.RawMessage) bool {
		return strings.Contains(string(p), "T9123") && strings.Contains(string(p), "tables/products.ts is not opened")
	})
	big := "// " + strings.Repeat("x", 1<<20) + "\n"
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": c.uri("lib/big.ts"), "languageId": "typescript", "version": 1, "text": big}})
	shown("T9104")
	// A document that grows past the bound is closed, not kept stale.
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": c.uri("tables/users.ts"), "version": 2},
		"contentChanges": []map[string]any{{"text": big}}})
	c.waitFor(0, "window/showMessage", func(p json.RawMessage) bool {
		return strings.Contains(string(p), "users.ts") && strings.Contains(string(p), "T9104")
	})
	c.open("tables/products.ts") // its place is free again
	if _, err := c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": c.uri("tables/products.ts")}}); err != nil {
		t.Fatalf("the server after the refusals: %v", err)
	}
	// A message over 8 MB ends its connection with 1009 and T9104.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	huge := `{"jsonrpc":"2.0","method":"x","params":"` + strings.Repeat("x", 9<<20) + `"}`
	ws.Write(ctx, websocket.MessageText, []byte(huge))
	_, _, err = ws.Read(ctx)
	if websocket.CloseStatus(err) != websocket.StatusMessageTooBig || !strings.Contains(err.Error(), "T9104") {
		t.Fatalf("a 9 MB message: %v; want a close 1009 with T9104", err)
	}
	if status, body := dialStatus(t, addr, nil); status != 0 {
		t.Fatalf("a connection after: %d %s", status, body)
	}
}
