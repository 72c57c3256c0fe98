package lsp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/coder/websocket"
	"go.lsp.dev/jsonrpc2"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/listentoken"
	"github.com/tent-tools/tent-tools/internal/words"
)

// ListenOptions configure the WebSocket face (`tent-tools lsp --listen`),
// for an editor in a browser: one JSON-RPC message per text frame, as
// vscode-ws-jsonrpc and monaco-languageclient speak it, and one session
// (its own workspace state) per connection.
type ListenOptions struct {
	// Addr is host:port to listen on; port 0 picks one.
	Addr string
	// Public allows an address that is not the loopback; it needs TLS.
	Public bool
	// CertFile and KeyFile are the TLS certificate and key (PEM).
	CertFile, KeyFile string
	// Token is the one a connection must carry (the token query
	// parameter or Authorization: Bearer); without it, 401 before the
	// upgrade.
	Token listentoken.Token
	// Origins are the pages allowed to connect (their Origin header, as
	// "http://127.0.0.1:8080"). A request with an Origin not listed is
	// refused (403), one with two Origin headers too (400); one without
	// (not a browser) is let in on its token.
	Origins []string
	// MaxConns bounds the connections served at once (0 is
	// listentoken.DefaultMaxConns, 8); one more is refused, 503 with
	// T9123.
	MaxConns int
	// Ready is told the address listened on, once it is.
	Ready func(addr net.Addr)
}

// ListenAndServe serves the language server over WebSocket until ctx ends.
func ListenAndServe(ctx context.Context, lo ListenOptions, opts Options) error {
	host, _, err := net.SplitHostPort(lo.Addr)
	if err != nil {
		return fmt.Errorf("--listen %s: %w", lo.Addr, err)
	}
	ip := net.ParseIP(host)
	loopback := host == "localhost" || (ip != nil && ip.IsLoopback())
	switch {
	case !loopback && !lo.Public:
		return fmt.Errorf("--listen %s is not a loopback address; serving others needs --public with --tls-cert and --tls-key", lo.Addr)
	case lo.Public && (lo.CertFile == "" || lo.KeyFile == ""):
		return errors.New("--public needs --tls-cert and --tls-key: the protocol carries the project's files")
	}
	ln, err := net.Listen("tcp", lo.Addr)
	if err != nil {
		return fmt.Errorf("--listen %s: %w", lo.Addr, err)
	}
	srv := &http.Server{Handler: Handler(lo, opts), ReadHeaderTimeout: 10 * time.Second,
		BaseContext: func(net.Listener) context.Context { return ctx }}
	if lo.Ready != nil {
		lo.Ready(ln.Addr())
	}
	done := make(chan error, 1)
	go func() {
		if lo.Public {
			done <- srv.ServeTLS(ln, lo.CertFile, lo.KeyFile)
		} else {
			done <- srv.Serve(ln)
		}
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shut)
		return nil
	}
}

// Handler answers WebSocket connections, one server session each, behind
// the guard of lo (listentoken.Guard): the token, the Origin rule, the
// bound of connections, all before the upgrade.
func Handler(lo ListenOptions, opts Options) http.Handler {
	guard := listentoken.Guard{Token: lo.Token, Origins: lo.Origins, OriginFlag: "tent-tools lsp --origin", MaxConns: lo.MaxConns}
	return guard.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The Origin is checked by the guard, against the list, not the host.
		c, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
		if err != nil {
			return
		}
		c.SetReadLimit(-1) // wsStream.Read bounds a message, to refuse it with its code
		err = ServeStream(r.Context(), &wsStream{c: c}, opts)
		if err != nil && !ErrNoShutdown(err) && opts.Log != nil {
			fmt.Fprintf(opts.Log, "tent-tools lsp: %s: %v\n", r.RemoteAddr, err)
		}
		c.Close(websocket.StatusNormalClosure, "")
	}))
}

// MaxMessage is the most a WebSocket message may hold: 8 MB, a 1 MB
// document escaped as JSON with room to spare (as tool input's bound). A
// larger one ends its connection, closed with 1009 (message too big) and
// T9104; the server goes on.
const MaxMessage = 8 << 20

// wsStream is a jsonrpc2.Stream over one WebSocket: a message per text frame.
type wsStream struct{ c *websocket.Conn }

func (s *wsStream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	typ, r, err := s.c.Reader(ctx)
	if err != nil {
		return nil, 0, err
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxMessage+1))
	if err != nil {
		return nil, 0, err
	}
	if len(data) > MaxMessage {
		reason := diag.Errorf(diag.T9104, "a message over %s", words.Bytes(MaxMessage)).Error()
		s.c.Close(websocket.StatusMessageTooBig, reason)
		return nil, int64(len(data)), errors.New(reason)
	}
	if typ != websocket.MessageText {
		return nil, int64(len(data)), errors.New("a binary frame; the protocol is one JSON-RPC message per text frame")
	}
	msg, err := jsonrpc2.DecodeMessage(data)
	return msg, int64(len(data)), err
}

func (s *wsStream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	data, err := wireMessage(nil, msg)
	if err != nil {
		return 0, err
	}
	return int64(len(data)), s.c.Write(ctx, websocket.MessageText, data)
}

func (s *wsStream) Close() error { return s.c.Close(websocket.StatusNormalClosure, "") }
