package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"html/template"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/coder/websocket"

	"github.com/tent-tools/tent-tools/internal/chromiumtest"
	"github.com/tent-tools/tent-tools/shot"
)

// listen starts `tent-tools lsp --listen 127.0.0.1:0` with the origins and
// answers its ws:// address.
func listen(t *testing.T, origins ...string) string {
	t.Helper()
	args := []string{"lsp", "--listen", "127.0.0.1:0"}
	for _, o := range origins {
		args = append(args, "--origin", o)
	}
	cmd := exec.Command(binary, args...)
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

func TestWebSocketRefusesOtherOrigins(t *testing.T) {
	addr := listen(t, "http://127.0.0.1:1")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, resp, err := websocket.Dial(ctx, addr, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": []string{"http://evil.example"}}})
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("an unlisted origin: %v %v; want 403", err, resp)
	}
	c, _, err := websocket.Dial(ctx, addr, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": []string{"http://127.0.0.1:1"}}})
	if err != nil {
		t.Fatalf("a listed origin: %v", err)
	}
	c.Close(websocket.StatusNormalClosure, "")
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
    await call("initialize", {rootUri: {{.Root}}, capabilities: {}, initializationOptions: {writes: "server", caller: "web"}});
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
	addr := listen(t, pages.URL)
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
