package mcp

import (
	"context"
	"io"
	"net/http"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// inflight keeps the calls under way per session, so that a call whose
// client is gone stops: closing a session in the SDK waits for its calls
// to end, and a call waiting for the person's answer (elicitation) would
// otherwise wait for ever. A call that stops writes nothing, or lands
// whole (the change pipeline), and frees the workspace's write lock.
type inflight struct {
	mu    sync.Mutex
	calls map[string]map[*context.CancelFunc]struct{} // session id -> cancels
}

func newInflight() *inflight {
	return &inflight{calls: map[string]map[*context.CancelFunc]struct{}{}}
}

// middleware gives each tool call and resource read a context that
// cancelSession cancels.
func (f *inflight) middleware(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if method != "tools/call" && method != "resources/read" {
			return next(ctx, method, req)
		}
		session := ""
		if s := req.GetSession(); s != nil {
			session = s.ID()
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		f.mu.Lock()
		if f.calls[session] == nil {
			f.calls[session] = map[*context.CancelFunc]struct{}{}
		}
		f.calls[session][&cancel] = struct{}{}
		f.mu.Unlock()
		defer func() {
			f.mu.Lock()
			delete(f.calls[session], &cancel)
			if len(f.calls[session]) == 0 {
				delete(f.calls, session)
			}
			f.mu.Unlock()
		}()
		return next(ctx, method, req)
	}
}

// cancelSession stops every call under way of a session.
func (f *inflight) cancelSession(session string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for cancel := range f.calls[session] {
		(*cancel)()
	}
}

// cutHandler stops a session's calls where its client is gone: it ends
// the session (DELETE), or hangs up while a request is answered.
func (f *inflight) cutHandler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		session := r.Header.Get("Mcp-Session-Id")
		if r.Method == http.MethodDelete && session != "" {
			f.cancelSession(session)
		}
		next.ServeHTTP(w, r)
		if session != "" && r.Context().Err() != nil {
			f.cancelSession(session) // the client hung up before its answer
		}
	})
}

// eofReader is stdin that stops the calls under way once the client
// closes it.
type eofReader struct {
	io.ReadCloser
	f    *inflight
	once sync.Once
}

func (r *eofReader) Read(p []byte) (int, error) {
	n, err := r.ReadCloser.Read(p)
	if err != nil {
		r.once.Do(func() { r.f.cancelSession("") })
	}
	return n, err
}
