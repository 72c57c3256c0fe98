package studio

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"syscall"
	"time"

	"github.com/tent-tools/tent-tools/diag"
)

// DefaultAddr is where a studio listens when --listen is not given. Where
// its port is taken, Listen takes a free one and says so.
const DefaultAddr = "127.0.0.1:7200"

// ListenConfig is where a studio listens.
type ListenConfig struct {
	// Addr is host:port ("" is DefaultAddr, with a free port where 7200
	// is taken); port 0 picks a free one.
	Addr string
	// Public allows an address that is not the loopback (--public); it
	// needs CertFile and KeyFile.
	Public bool
	// CertFile and KeyFile are the TLS certificate and key (PEM).
	CertFile, KeyFile string
}

// Listen opens the studio's socket. An address that is not the loopback
// is refused with T9124 unless Public (with TLS) says so; a port taken is
// T9124 too, unless Addr was left to the default, where a free port is
// taken instead and moved says from which.
func Listen(lc ListenConfig) (ln net.Listener, moved string, err error) {
	addr := lc.Addr
	if addr == "" {
		addr = DefaultAddr
	}
	if err := CheckAddr(addr, lc.Public, lc.CertFile != "" && lc.KeyFile != ""); err != nil {
		return nil, "", err
	}
	ln, err = net.Listen("tcp", addr)
	if err != nil && lc.Addr == "" && errors.Is(err, syscall.EADDRINUSE) {
		host, _, _ := net.SplitHostPort(addr)
		if ln, err = net.Listen("tcp", net.JoinHostPort(host, "0")); err == nil {
			return ln, fmt.Sprintf("%s is taken, so the studio listens on %s instead (--listen chooses)", addr, ln.Addr()), nil
		}
	}
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return nil, "", diag.Errorf(diag.T9124, "--listen %s: the port is taken (another studio, or another server); choose another, or port 0 for a free one", addr).With("addr", addr)
		}
		return nil, "", diag.Errorf(diag.T9124, "--listen %s: %v", addr, err).With("addr", addr)
	}
	return ln, "", nil
}

// CheckAddr holds a listening address to the loopback unless public, and
// public to TLS: the page and its WebSocket carry the project's files.
func CheckAddr(addr string, public, tls bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return diag.Errorf(diag.T9124, "--listen %s is not HOST:PORT: %v", addr, err).With("addr", addr)
	}
	ip := net.ParseIP(host)
	loopback := host == "localhost" || (ip != nil && ip.IsLoopback())
	switch {
	case !loopback && !public:
		return diag.Errorf(diag.T9124, "--listen %s is not a loopback address: the studio serves this machine only; serving others needs --public with --tls-cert and --tls-key", addr).With("addr", addr)
	case public && !tls:
		return diag.Errorf(diag.T9124, "--public needs --tls-cert and --tls-key: the page and its WebSocket carry the project's files").With("addr", addr)
	}
	return nil
}

// Serve serves the studio on ln until ctx ends, then shuts down: the
// WebSockets' sessions are closed and their workspaces with them.
func Serve(ctx context.Context, ln net.Listener, c Config, lc ListenConfig) error {
	h := newServer(c, ln.Addr())
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second,
		BaseContext: func(net.Listener) context.Context { return ctx }}
	done := make(chan error, 1)
	go func() {
		if c.TLS {
			done <- srv.ServeTLS(ln, lc.CertFile, lc.KeyFile)
		} else {
			done <- srv.Serve(ln)
		}
	}()
	select {
	case err := <-done:
		return fmt.Errorf("studio: %w", err)
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	// The WebSockets' handlers end with ctx (their BaseContext); Shutdown
	// waits for them, and the time bound covers one that hangs.
	if err := srv.Shutdown(shut); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("studio: shut down: %w", err)
	}
	ended := make(chan struct{})
	go func() { h.sessions.Wait(); close(ended) }()
	select {
	case <-ended:
	case <-shut.Done():
	}
	return nil
}

// URL is the address the person opens: the page with its token.
func URL(c Config, addr net.Addr) string {
	scheme := "http"
	if c.TLS {
		scheme = "https"
	}
	return c.Token.URL(scheme, addr.String())
}
