package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tent-tools/tent-tools/host"
	"github.com/tent-tools/tent-tools/mcp"
	"github.com/tent-tools/tent-tools/tools"
)

// hostFixture is a host's workspaces served over streamable HTTP on
// 127.0.0.1, in this process (so -race sees the server too).
type hostFixture struct {
	dir    string
	h      *host.Handle
	url    string
	srv    *httptest.Server
	grants map[string]mcp.Grant
}

// newHost makes a workspaces folder, lets setup create workspaces and
// grants, and serves them.
func newHost(t testing.TB, policies map[string]*tools.Policy, setup func(f *hostFixture)) *hostFixture {
	t.Helper()
	return newHostWith(t, policies, mcp.Options{}, setup)
}

// newHostWith is newHost with the host's options.
func newHostWith(t testing.TB, policies map[string]*tools.Policy, opts mcp.Options, setup func(f *hostFixture)) *hostFixture {
	t.Helper()
	f := &hostFixture{dir: t.TempDir(), grants: map[string]mcp.Grant{}}
	h, err := host.Open(f.dir, host.Config{Policies: policies})
	if err != nil {
		t.Fatal(err)
	}
	f.h = h
	setup(f)
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewHostHandler(h, f.grants, opts))
	srv := httptest.NewServer(mux) // 127.0.0.1, port 0
	t.Cleanup(func() {
		srv.Close()
		h.Close()
	})
	f.srv = srv
	f.url = srv.URL + "/mcp"
	return f
}

// create makes a workspace of owner from shop and a token for it.
func (f *hostFixture) create(t testing.TB, owner, agent string) (id, token string) {
	t.Helper()
	info, err := f.h.Create(context.Background(), owner, filepath.Join("..", "testdata", "projects", "shop"))
	if err != nil {
		t.Fatal(err)
	}
	token = fmt.Sprintf("token-%s-%d-%s", owner, len(f.grants), info.ID[:6])
	f.grants[token] = mcp.Grant{Caller: owner, Workspace: info.ID, Agent: agent}
	return info.ID, token
}

// bearer adds a bearer token to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// connectHTTP connects the Go SDK's client to the host with a token.
func connectHTTP(t testing.TB, url, token string, opts *sdk.ClientOptions, session *sdk.ClientSessionOptions) *sdk.ClientSession {
	t.Helper()
	client := sdk.NewClient(&sdk.Implementation{Name: "http-agent", Version: "v1"}, opts)
	transport := &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{token, http.DefaultTransport}}}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, transport, session)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

var allowAll = &tools.Policy{Allow: []string{"**"}}

// TestHTTPTokens: no token and a bad token are 401 before anything is
// read; a token reaches its workspace as its caller and agent; a token's
// session cannot be taken over with another token; a caller no longer
// let into the workspace (a revoked owner) gets T3101.
func TestHTTPTokens(t *testing.T) {
	var idA, tokA, tokB, tokRevoked string
	f := newHost(t, map[string]*tools.Policy{"builder": allowAll}, func(f *hostFixture) {
		idA, tokA = f.create(t, "ann", "builder")
		_, tokB = f.create(t, "bob", "builder")
		tokRevoked = "token-of-eve-who-is-no-owner"
		f.grants[tokRevoked] = mcp.Grant{Caller: "eve", Workspace: idA, Agent: "builder"}
	})
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	post := func(token, session, body string) *http.Response {
		req, _ := http.NewRequest("POST", f.url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	for _, token := range []string{"", "not-a-token-of-this-host", tokA + "x", strings.ToUpper(tokA)} {
		if resp := post(token, "", initialize); resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("token %q: status %d, want 401", token, resp.StatusCode)
		}
	}
	// A session made with token A is refused under token B.
	resp := post(tokA, "", initialize)
	session := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || session == "" {
		t.Fatalf("initialize with token A: %d, session %q", resp.StatusCode, session)
	}
	post(tokA, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	if resp := post(tokB, session, list); resp.StatusCode == http.StatusOK {
		t.Errorf("token B used token A's session: %d", resp.StatusCode)
	}
	if resp := post(tokA, session, list); resp.StatusCode != http.StatusOK {
		t.Errorf("token A in its own session: %d", resp.StatusCode)
	}

	cs := connectHTTP(t, f.url, tokA, nil, nil)
	res := call(t, cs, "edit", `{"path": "tables/orders.ts", "find": "total: money(),", "with": "total: money(), // cents"}`)
	if res.IsError {
		t.Fatal(text(res))
	}
	h := structured(t, call(t, cs, "history", `{}`))
	p := h["points"].([]any)[0].(map[string]any)
	if p["who"] != "ann" || p["agent"] != "builder" {
		t.Errorf("point by %v through %v, want ann through builder", p["who"], p["agent"])
	}
	eve := connectHTTP(t, f.url, tokRevoked, nil, nil)
	if code := errorCode(t, call(t, eve, "read", `{"path": "tables/orders.ts"}`)); code != "T3101" {
		t.Errorf("a caller not let in: %q", code)
	}
	if _, err := eve.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: "tent://map"}); err == nil || !strings.Contains(err.Error(), "T3101") {
		t.Errorf("tent://map for a caller not let in: %v", err)
	}
}

// TestHTTPIsolation: token A's session cannot read or write workspace B
// by any input: paths out of A, B's folder by its absolute path, and a
// link in A that leads into B.
func TestHTTPIsolation(t *testing.T) {
	var idA, idB, tokA string
	f := newHost(t, map[string]*tools.Policy{"builder": allowAll}, func(f *hostFixture) {
		idA, tokA = f.create(t, "ann", "builder")
		idB, _ = f.create(t, "bob", "builder")
	})
	const secret = "SECRET-OF-B"
	bOrders := filepath.Join(f.dir, idB, "tables", "orders.ts")
	b, _ := os.ReadFile(bOrders)
	if err := os.WriteFile(bOrders, append(b, []byte("// "+secret+"\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(f.dir, idB), filepath.Join(f.dir, idA, "lib", "peek")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(bOrders, filepath.Join(f.dir, idA, "lib", "orders-of-b.ts")); err != nil {
		t.Fatal(err)
	}
	cs := connectHTTP(t, f.url, tokA, nil, nil)
	attempts := []struct{ tool, input string }{
		{"read", fmt.Sprintf(`{"path": "../%s/tables/orders.ts"}`, idB)},
		{"read", fmt.Sprintf(`{"path": "tables/../../%s/tables/orders.ts"}`, idB)},
		{"read", fmt.Sprintf(`{"path": %q}`, bOrders)},
		{"read", `{"path": "lib/peek/tables/orders.ts"}`},
		{"read", `{"path": "lib/orders-of-b.ts"}`},
		{"list", `{"path": "lib/peek"}`},
		{"list", `{"path": ".."}`},
		{"search", `{"text": "SECRET", "in": "lib/peek"}`},
		{"search", `{"text": "SECRET"}`},
		{"edit", `{"path": "lib/peek/tables/orders.ts", "find": "SECRET", "with": "x"}`},
		{"write", `{"path": "lib/peek/tables/new.ts", "text": "export const x = 1\n"}`},
		{"write", `{"path": "lib/orders-of-b.ts", "text": "export const x = 1\n"}`},
		{"move", `{"path": "lib/peek/tables/orders.ts", "to": "lib/mine.ts"}`},
		{"move", `{"path": "lib/x.ts", "to": "../` + idB + `/lib/x.ts"}`},
		{"remove", fmt.Sprintf(`{"path": "../%s/tables/orders.ts"}`, idB)},
		{"docs", fmt.Sprintf(`{"topic": "../%s/tables/orders"}`, idB)},
	}
	for _, a := range attempts {
		res := call(t, cs, a.tool, a.input)
		all, _ := json.Marshal(res)
		if strings.Contains(string(all), secret) {
			t.Errorf("%s %s showed B's file: %s", a.tool, a.input, all)
		}
		if a.tool == "search" || a.tool == "list" && a.input == `{"path": "lib/peek"}` {
			continue // may answer (nothing of B); checked above
		}
		if !res.IsError {
			t.Errorf("%s %s was not refused: %s", a.tool, a.input, text(res))
		}
	}
	after, _ := os.ReadFile(bOrders)
	if !strings.Contains(string(after), secret) || strings.Count(string(after), "\n") != strings.Count(string(b), "\n")+1 {
		t.Errorf("B's file changed:\n%s", after)
	}
	if _, err := os.Stat(filepath.Join(f.dir, idB, "tables", "new.ts")); err == nil {
		t.Error("a file was written into B")
	}
	if n := points(t, f, idB, "bob"); n != 0 {
		t.Errorf("B has %d points, want none", n)
	}
}

// points counts a workspace's points through the handle.
func points(t testing.TB, f *hostFixture, id, owner string) int {
	t.Helper()
	ans, err := f.h.Tool(context.Background(), id, "history", json.RawMessage(`{"newest": 1000}`), host.Call{Caller: owner})
	if err != nil {
		t.Fatal(err)
	}
	return len(ans.Data.(tools.HistoryAnswer).Points)
}

// TestHTTPConcurrent: 20 sessions edit their own workspaces and 10 edit
// one shared workspace, all at once: every edit lands, each as its point.
func TestHTTPConcurrent(t *testing.T) {
	const own, shared, edits = 20, 10, 3
	type session struct{ id, token string }
	var owners []session
	var sharedID string
	var sharedTokens []string
	lines := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "export const v%02d = 0\n", i)
		}
		return b.String()
	}
	f := newHost(t, map[string]*tools.Policy{"builder": allowAll}, func(f *hostFixture) {
		for i := range own {
			id, tok := f.create(t, fmt.Sprintf("user%02d", i), "builder")
			owners = append(owners, session{id, tok})
		}
		var tok string
		sharedID, tok = f.create(t, "team", "builder")
		sharedTokens = append(sharedTokens, tok)
		for i := 1; i < shared; i++ {
			tok := fmt.Sprintf("token-team-shared-%02d", i)
			f.grants[tok] = mcp.Grant{Caller: "team", Workspace: sharedID, Agent: "builder"}
			sharedTokens = append(sharedTokens, tok)
		}
	})
	for _, o := range owners {
		if err := os.WriteFile(filepath.Join(f.dir, o.id, "lib", "values.ts"), []byte(lines(edits)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(f.dir, sharedID, "lib", "values.ts"), []byte(lines(shared)), 0o644); err != nil {
		t.Fatal(err)
	}
	edit := func(i, n int) string {
		return fmt.Sprintf(`{"path": "lib/values.ts", "find": "v%02d = 0", "with": "v%02d = %d"}`, i, i, n)
	}
	var wg sync.WaitGroup
	errs := make(chan string, own*edits+shared)
	for _, o := range owners {
		wg.Go(func() {
			cs := connectHTTP(t, f.url, o.token, nil, nil)
			for i := range edits {
				if res := call(t, cs, "edit", edit(i, i+1)); res.IsError {
					errs <- text(res)
				}
			}
		})
	}
	for i, tok := range sharedTokens {
		wg.Go(func() {
			cs := connectHTTP(t, f.url, tok, nil, nil)
			if res := call(t, cs, "edit", edit(i, i+1)); res.IsError {
				errs <- text(res)
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	check := func(id, owner string, n int) {
		got, _ := os.ReadFile(filepath.Join(f.dir, id, "lib", "values.ts"))
		for i := range n {
			if !strings.Contains(string(got), fmt.Sprintf("v%02d = %d\n", i, i+1)) {
				t.Errorf("workspace of %s: edit %d was lost:\n%s", owner, i, got)
			}
		}
		// One point per edit (the file the test wrote before the first
		// call is where the history starts).
		if p := points(t, f, id, owner); p != n {
			t.Errorf("workspace of %s: %d points, want %d", owner, p, n)
		}
	}
	for i, o := range owners {
		check(o.id, fmt.Sprintf("user%02d", i), edits)
	}
	check(sharedID, "team", shared)
}

// TestHTTPCut: a session whose connection is cut while its write waits
// for the person leaves no half change: the call stops, nothing is
// written, no point is recorded, and the next write of the workspace
// lands (the write lock is free).
func TestHTTPCut(t *testing.T) {
	var id, tok string
	f := newHost(t, map[string]*tools.Policy{"careful": {Allow: []string{"**"}, Ask: []string{"tables/**"}}}, func(f *hostFixture) {
		id, tok = f.create(t, "ann", "careful")
	})
	orders := filepath.Join(f.dir, id, "tables", "orders.ts")
	before, _ := os.ReadFile(orders)
	asked, release := make(chan struct{}), make(chan struct{})
	opts := &sdk.ClientOptions{ElicitationHandler: func(ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
		close(asked)
		<-release // the person never answers: the connection is cut meanwhile
		return &sdk.ElicitResult{Action: "cancel"}, nil
	}}
	// An older protocol: the server waits inside the call for the answer.
	cs := connectHTTP(t, f.url, tok, opts, &sdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "edit",
			Arguments: json.RawMessage(`{"path": "tables/orders.ts", "find": "total: money(),", "with": "total: int(),"}`)})
		done <- err
	}()
	select {
	case <-asked:
	case <-time.After(20 * time.Second):
		t.Fatal("the person was never asked")
	}
	f.srv.CloseClientConnections() // the network is cut
	// The next write waits for the write lock, which the cut call frees.
	next := connectHTTP(t, f.url, tok, nil, nil)
	res := call(t, next, "write", `{"path": "lib/after.ts", "text": "export const after = 1\n"}`)
	if res.IsError {
		t.Errorf("the next write: %s", text(res))
	}
	close(release)
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Error("the cut call never ended on the client")
	}
	after, _ := os.ReadFile(orders)
	if string(after) != string(before) {
		t.Errorf("the cut write changed the file:\n%s", after)
	}
	h := structured(t, call(t, next, "history", `{}`))
	if ps := h["points"].([]any); len(ps) != 1 || ps[0].(map[string]any)["tool"] != "write" {
		t.Errorf("points after the cut edit and a write: %v", ps)
	}
}

// rawInitialize is an initialize request of a client that is no SDK.
const rawInitialize = `{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// postRaw posts a body to the host with a token and headers, and answers
// the response with its body read.
func postRaw(t *testing.T, url, token, body string, header http.Header) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp, string(data)
}

// TestHTTPSessionBound: a token holds at most MaxSessions sessions; one
// more initialize is refused 429 with T9123 (for its request's id) while
// the others go on, another token is not held by it, and a session its
// client closes frees its place.
func TestHTTPSessionBound(t *testing.T) {
	var tokA, tokB string
	f := newHostWith(t, map[string]*tools.Policy{"builder": allowAll}, mcp.Options{MaxSessions: 2}, func(f *hostFixture) {
		_, tokA = f.create(t, "ann", "builder")
		_, tokB = f.create(t, "bob", "builder")
	})
	first := connectHTTP(t, f.url, tokA, nil, nil)
	connectHTTP(t, f.url, tokA, nil, nil)
	resp, body := postRaw(t, f.url, tokA, rawInitialize, nil)
	if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(body, "T9123") || !strings.Contains(body, `"id":7`) {
		t.Fatalf("a third session of one token: %d %s; want 429 with T9123", resp.StatusCode, body)
	}
	if res := call(t, first, "read", `{"path": "project.ts"}`); res.IsError {
		t.Fatalf("a session within the bound: %s", text(res))
	}
	connectHTTP(t, f.url, tokB, nil, nil) // another token's bound is its own
	// The client closes its session with a DELETE, as the SDK's Close does;
	// sent here without the SDK's 5 s bound on it, which a loaded machine
	// passed (the client then gave up, and the initialize below raced the
	// server's close). The place is free once the DELETE is answered.
	if resp, body := deleteSession(t, f.url, tokA, first.ID()); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE of a session: %d %s; want 204", resp.StatusCode, body)
	}
	if resp, body := postRaw(t, f.url, tokA, rawInitialize, nil); resp.StatusCode != http.StatusOK {
		t.Fatalf("after one closed: %d %s", resp.StatusCode, body)
	}
}

// deleteSession ends a session as its client does: DELETE with its id.
func deleteSession(t *testing.T, url, token, session string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodDelete, url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Mcp-Session-Id", session)
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp, string(data)
}

// TestHTTPSessionIdle: a session that no request reaches for SessionIdle
// is closed (its id is then unknown, 404), and frees its token's place.
func TestHTTPSessionIdle(t *testing.T) {
	var tok string
	f := newHostWith(t, map[string]*tools.Policy{"builder": allowAll}, mcp.Options{MaxSessions: 1, SessionIdle: 200 * time.Millisecond}, func(f *hostFixture) {
		_, tok = f.create(t, "ann", "builder")
	})
	resp, body := postRaw(t, f.url, tok, rawInitialize, nil)
	session := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || session == "" {
		t.Fatalf("initialize: %d %s", resp.StatusCode, body)
	}
	inSession := http.Header{"Mcp-Session-Id": {session}, "Mcp-Protocol-Version": {"2025-11-25"}}
	postRaw(t, f.url, tok, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, inSession)
	if resp, body := postRaw(t, f.url, tok, rawInitialize, nil); resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("a second session within the idle time: %d %s; want 429", resp.StatusCode, body)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, _ := postRaw(t, f.url, tok, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, inSession)
		if resp.StatusCode == http.StatusNotFound {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the idle session still answers: %d", resp.StatusCode)
		}
		time.Sleep(400 * time.Millisecond) // longer than the idle time: the request itself kept it alive
	}
	if resp, body := postRaw(t, f.url, tok, rawInitialize, nil); resp.StatusCode != http.StatusOK {
		t.Fatalf("after the idle one closed: %d %s", resp.StatusCode, body)
	}
}

// TestHTTPOrigin: as MCP's transport asks, a request whose Origin is not
// allowed is refused 403 before its token is looked at, two Origin
// headers 400; an allowed Origin and none (not a browser) are let in.
func TestHTTPOrigin(t *testing.T) {
	var tok string
	f := newHostWith(t, map[string]*tools.Policy{"builder": allowAll}, mcp.Options{Origins: []string{"https://app.example"}}, func(f *hostFixture) {
		_, tok = f.create(t, "ann", "builder")
	})
	for _, tt := range []struct {
		name   string
		origin []string
		status int
	}{
		{"another origin", []string{"https://evil.example"}, http.StatusForbidden},
		{"the loopback's own page", []string{"http://127.0.0.1:1"}, http.StatusForbidden},
		{"two origins", []string{"https://app.example", "https://evil.example"}, http.StatusBadRequest},
		{"the allowed origin", []string{"https://app.example"}, http.StatusOK},
		{"no origin", nil, http.StatusOK},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var h http.Header
			if tt.origin != nil {
				h = http.Header{"Origin": tt.origin}
			}
			if resp, body := postRaw(t, f.url, tok, rawInitialize, h); resp.StatusCode != tt.status {
				t.Fatalf("%d %s; want %d", resp.StatusCode, body, tt.status)
			}
		})
	}
}
