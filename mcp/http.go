package mcp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/host"
	"github.com/tent-tools/tent-tools/internal/listentoken"
	"github.com/tent-tools/tent-tools/tools"
)

// Grant is what a bearer token names: who calls, on which workspace,
// through which agent (whose policy binds the calls).
type Grant struct {
	Caller    string `json:"caller"`
	Workspace string `json:"workspace"`
	Agent     string `json:"agent"`
}

// ParseTokens reads a tokens file: a JSON object from each bearer token to
// its grant. Every grant names a caller, a workspace and an agent; a token
// is at least 16 characters long. Unknown fields are errors, so that a
// typo never grants what its author did not mean. The error never quotes
// a token.
func ParseTokens(data []byte) (map[string]Grant, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("not a JSON object of tokens: %w", err)
	}
	grants := make(map[string]Grant, len(raw))
	n := 0
	for _, token := range slices.Sorted(maps.Keys(raw)) {
		n++
		dec := json.NewDecoder(bytes.NewReader(raw[token]))
		dec.DisallowUnknownFields()
		var g Grant
		if err := dec.Decode(&g); err != nil {
			return nil, fmt.Errorf("token %d: %w", n, err)
		}
		switch {
		case len(token) < 16:
			return nil, fmt.Errorf("token %d (of %s): shorter than 16 characters, too easy to guess", n, g.Caller)
		case g.Caller == "" || g.Workspace == "" || g.Agent == "":
			return nil, fmt.Errorf("token %d: it must name a caller, a workspace and an agent", n)
		}
		grants[token] = g
	}
	if len(grants) == 0 {
		return nil, errors.New("no tokens")
	}
	return grants, nil
}

// hostServer is the backend of a host's workspaces: each call runs on the
// workspace of the request's bearer token, as its caller, through its
// agent, by the handle (which admits the caller first: T3101).
type hostServer struct {
	h      *host.Handle
	grants []grantEntry
}

// grantEntry is a grant with the hash of its token: tokens are compared
// as hashes, in constant time, and kept nowhere else.
type grantEntry struct {
	sum [sha256.Size]byte
	Grant
}

// grantKey is where a verified token's grant is kept in its TokenInfo.
const grantKey = "tent-tools/grant"

// verify is the token verifier of the auth middleware: a token is valid
// where its hash is one of the grants'. Every grant is compared, in
// constant time, so the time taken says nothing of how near a guess was.
func (hs *hostServer) verify(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	sum := sha256.Sum256([]byte(token))
	found := -1
	for i := range hs.grants {
		if subtle.ConstantTimeCompare(sum[:], hs.grants[i].sum[:]) == 1 {
			found = i
		}
	}
	if found < 0 {
		return nil, auth.ErrInvalidToken
	}
	// UserID binds a session to its token: the SDK refuses a request of
	// the session under another token.
	return &auth.TokenInfo{UserID: fmt.Sprintf("grant %d", found), Extra: map[string]any{grantKey: found}}, nil
}

// grantOf is the grant of a request whose token verify accepted.
func (hs *hostServer) grantOf(extra *sdk.RequestExtra) (Grant, error) {
	if extra == nil || extra.TokenInfo == nil {
		return Grant{}, errors.New("no verified token") // the middleware lets no such request in
	}
	i, ok := extra.TokenInfo.Extra[grantKey].(int)
	if !ok || i < 0 || i >= len(hs.grants) {
		return Grant{}, errors.New("no verified token")
	}
	return hs.grants[i].Grant, nil
}

func (hs *hostServer) call(ctx context.Context, from caller, name string, input json.RawMessage, ap tools.Approver) (tools.Answer, error) {
	g, err := hs.grantOf(from.extra)
	if err != nil {
		return tools.Answer{}, err
	}
	return hs.h.Tool(ctx, g.Workspace, name, input, host.Call{Caller: g.Caller, Agent: g.Agent, Approver: ap, Bounded: true})
}

// NewHostHandler returns the HTTP handler of a host's workspaces (the MCP
// streamable HTTP transport): a request without a valid bearer token is
// answered 401 before anything is read; a valid token's session reaches
// the one workspace its grant names, as its caller, under its agent's
// policy. Many sessions share the handle: writes to one workspace run one
// after another, to different ones in parallel. A request whose Origin
// opts.Origins does not name is refused 403 (two Origin headers 400); a
// token holds at most opts.MaxSessions sessions (429, T9123), and a
// session no request reached for opts.SessionIdle is closed.
func NewHostHandler(h *host.Handle, grants map[string]Grant, opts Options) http.Handler {
	hs := &hostServer{h: h}
	for _, token := range slices.Sorted(maps.Keys(grants)) {
		hs.grants = append(hs.grants, grantEntry{sum: sha256.Sum256([]byte(token)), Grant: grants[token]})
	}
	calls := newInflight()
	server := newServer(hs, opts, calls)
	idle := opts.SessionIdle
	if idle <= 0 {
		idle = DefaultSessionIdle
	}
	// The SDK closes a session no request reached for idle, and refuses a
	// Host that is not the loopback on a loopback address (DNS rebinding).
	mcpHandler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, &sdk.StreamableHTTPOptions{SessionTimeout: idle})
	max := opts.MaxSessions
	if max <= 0 {
		max = DefaultMaxSessions
	}
	bound := &sessionBound{server: server, max: max, owner: map[string]int{}, pending: map[int]int{}}
	authed := auth.RequireBearerToken(hs.verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(bound.handler(calls.cutHandler(mcpHandler)))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// MCP's streamable HTTP transport: a server must check the Origin
		// of every request, and answer one present and not allowed 403.
		if status, why := listentoken.CheckOrigin(r.Header, opts.Origins, "tent-tools mcp --origin"); status != 0 {
			http.Error(w, why, status)
			return
		}
		authed.ServeHTTP(w, r)
	})
}

// sessionBound bounds the sessions of each grant (a token): an initialize
// (a POST without Mcp-Session-Id) past the bound is refused before the
// SDK makes its session. Sessions are counted as the SDK holds them, so
// one closed by its client, by the idle time or by the server frees its
// place at once.
//
// A request without a session id holds a place only until its answer
// starts (its status line): then it has made its session (the SDK set
// the answer's Mcp-Session-Id, and the place is the session's) or none
// (the place is free). It must not wait for its handler to return: the
// client reads the answer and sends its next request while the handler's
// goroutine may still be unwinding (the SDK's client asks server/discover
// first, a session server refuses it, and the client initializes at
// once; counted until the refusal's handler returned, the discover held a
// second place beside the client's other session, and the initialize got
// 429 on a loaded machine).
type sessionBound struct {
	server *sdk.Server
	max    int

	mu      sync.Mutex
	owner   map[string]int // session id -> the grant that made it
	pending map[int]int    // grant -> its initializes whose answer has not started
}

func (b *sessionBound) handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info := auth.TokenInfoFromContext(r.Context())
		if r.Method != http.MethodPost || r.Header.Get("Mcp-Session-Id") != "" || info == nil {
			next.ServeHTTP(w, r)
			return
		}
		grant, _ := info.Extra[grantKey].(int)
		if n, ok := b.reserve(grant); !ok {
			refuseSessions(w, r, n)
			return
		}
		sw := &settlingWriter{ResponseWriter: w, settle: func(id string) { b.release(grant, id) }}
		defer sw.settleOnce() // an answer never started frees its place too
		next.ServeHTTP(sw, r)
	})
}

// settlingWriter calls settle once, with the answer's Mcp-Session-Id,
// just before the answer's status line is written: before the client can
// read anything of it.
type settlingWriter struct {
	http.ResponseWriter
	settle func(id string)
	once   sync.Once // the SDK may write the answer from another goroutine
}

func (w *settlingWriter) settleOnce() {
	w.once.Do(func() { w.settle(w.Header().Get("Mcp-Session-Id")) })
}

func (w *settlingWriter) WriteHeader(status int) {
	w.settleOnce()
	w.ResponseWriter.WriteHeader(status)
}

func (w *settlingWriter) Write(p []byte) (int, error) {
	w.settleOnce()
	return w.ResponseWriter.Write(p)
}

// Flush writes the status line too where nothing was written yet.
func (w *settlingWriter) Flush() {
	w.settleOnce()
	http.NewResponseController(w.ResponseWriter).Flush()
}

// Unwrap lets http.ResponseController reach the server's writer.
func (w *settlingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// reserve counts a grant's live sessions and initializes under way and,
// below the bound, counts one more initialize; it answers the count.
func (b *sessionBound) reserve(grant int) (int, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	live := map[string]bool{}
	for ss := range b.server.Sessions() {
		live[ss.ID()] = true
	}
	n := b.pending[grant]
	for id, g := range b.owner {
		switch {
		case !live[id]:
			delete(b.owner, id)
		case g == grant:
			n++
		}
	}
	if n >= b.max {
		return n, false
	}
	b.pending[grant]++
	return n, true
}

// release ends an initialize as its answer starts: the session it made
// (id, "" where none) is the grant's.
func (b *sessionBound) release(grant int, id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.pending[grant]--
	if id != "" {
		b.owner[id] = grant
	}
}

// refuseSessions answers an initialize past its token's bound: HTTP 429,
// with a JSON-RPC error carrying T9123 for the request's id.
func refuseSessions(w http.ResponseWriter, r *http.Request, n int) {
	var req struct {
		ID json.RawMessage `json:"id"`
	}
	if data, err := io.ReadAll(io.LimitReader(r.Body, 1<<20)); err == nil {
		json.Unmarshal(data, &req)
	}
	id := req.ID
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	te := diag.Errorf(diag.T9123, "this token holds %d sessions, the bound (tent-tools mcp --max-sessions); close one (DELETE it) or wait for one to be idle for --session-idle", n)
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": -32000, "message": te.Error(), "data": te}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusTooManyRequests)
	w.Write(body)
}

// CheckListen holds a listen address to the rule of the HTTP host mode: a
// loopback address only, unless public (which then needs TLS).
func CheckListen(addr string, public, tls bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--listen %s: %w", addr, err)
	}
	if public {
		if !tls {
			return fmt.Errorf("--listen %s: --public needs --tls-cert and --tls-key: tokens never cross a network in clear", addr)
		}
		return nil
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("--listen %s: not a loopback address; a host reachable from other machines needs --public with --tls-cert and --tls-key", addr)
}
