// Package studio serves `tent-tools studio`: the visual editor's page,
// shipped inside the binary (web/dist, built and committed by its own
// build), and the language server over a WebSocket at /lsp on the same
// origin, both behind the token the command prints (docs/pages/studio.md).
//
// It is a face, as lsp is one: it holds no rule of its own about the
// project. The page edits through tent/apply and tent/call of the real
// language server (package lsp, the operator's policy and caller), and
// this package only decides who may reach it: the loopback, the token
// (traded once for a cookie), the Host and the Origin of the page itself.
package studio

import (
	"embed"
	"encoding/json"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/tent-tools/tent-tools/internal/listentoken"
	"github.com/tent-tools/tent-tools/lsp"
)

//go:embed web/dist
var dist embed.FS

// Config is what a studio serves and to whom.
type Config struct {
	// Root is the project folder (absolute): the one workspace folder a
	// page's session may open (lsp.Operator.Root).
	Root string
	// Token is the one the printed URL carries; a request shows it (the
	// token query parameter, Authorization: Bearer) or the cookie it
	// was traded for.
	Token listentoken.Token
	// Session is the cookie's secret, made at start: the token itself
	// never rests in the browser's cookie jar.
	Session listentoken.Token
	// TLS says the page is served over HTTPS (--public): the cookie is
	// Secure and the page's origin https.
	TLS bool
	// Public lets any Host name the server (--public, where the TLS
	// certificate binds the name); else the Host must be the loopback.
	Public bool
	// MaxConns bounds the WebSockets served at once (0:
	// listentoken.DefaultMaxConns).
	MaxConns int
	// Version is the tent-tools version, for the page's about line.
	Version string
	// LSP configures the language server behind /lsp; its Operator binds
	// every session (caller, policy, yes) and its Root is set to Root.
	LSP lsp.Options
}

// CookieName is the cookie the token is traded for on a server listening
// on port. Browsers do not keep cookies apart by port, so each studio's
// cookie carries its own in its name: two studios side by side do not
// overwrite each other's.
func CookieName(port int) string { return "tent_studio_" + strconv.Itoa(port) }

// Handler serves the page, /studio.json and /lsp for a server listening
// on addr (its port names the cookie and, on the loopback, the only
// origins let in).
func Handler(c Config, addr net.Addr) http.Handler { return newServer(c, addr) }

func newServer(c Config, addr net.Addr) *server {
	port := 0
	if tcp, ok := addr.(*net.TCPAddr); ok {
		port = tcp.Port
	}
	op := lsp.Operator{}
	if c.LSP.Operator != nil {
		op = *c.LSP.Operator
	}
	op.Root = c.Root
	lspOpts := c.LSP
	lspOpts.Operator = &op
	// The Origin is checked here (the page's own, by its Host), and the
	// request handed on with the token as its Bearer header: the lsp guard
	// then asks the token again and bounds the connections.
	ws := lsp.Handler(lsp.ListenOptions{Token: c.Token, MaxConns: c.MaxConns}, lspOpts)
	return &server{c: c, port: port, cookie: CookieName(port), ws: ws, page: Page()}
}

// Page is the page's files as embedded (web/dist), index.html at its root.
func Page() fs.FS {
	sub, err := fs.Sub(dist, "web/dist")
	if err != nil {
		panic("studio: the embedded page is unreadable: " + err.Error()) // the embed is built in
	}
	return sub
}

// server is one studio's handler.
type server struct {
	c      Config
	port   int
	cookie string
	ws     http.Handler
	page   fs.FS
	// sessions counts the WebSockets being served: a shutdown waits for
	// them, as http.Server's does not for a hijacked connection.
	sessions sync.WaitGroup
}

// ServeHTTP checks, in order: one Origin header at most (400); the Host
// (403 where it is not the loopback at this port, the defence against a
// DNS rebinding page); the token or the cookie (401); the Origin, which
// must be the page's own (403). Then it routes.
func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if len(r.Header.Values("Origin")) > 1 {
		http.Error(w, "two Origin headers: a request has one at most", http.StatusBadRequest)
		return
	}
	if !s.hostAllowed(r.Host) {
		http.Error(w, "forbidden: the Host "+strconv.Quote(r.Host)+" is not this studio's; open the URL tent-tools studio printed", http.StatusForbidden)
		return
	}
	fromQuery, ok, why := s.authorized(r)
	if !ok {
		w.Header().Set("WWW-Authenticate", `Bearer realm="tent-tools studio"`)
		http.Error(w, "unauthorized: "+why, http.StatusUnauthorized)
		return
	}
	if o := r.Header.Get("Origin"); o != "" && o != s.origin(r.Host) {
		http.Error(w, "origin "+o+" is not allowed: the studio's page is its only client", http.StatusForbidden)
		return
	}
	switch {
	case r.URL.Path == "/lsp":
		s.serveLSP(w, r)
	case r.Method != http.MethodGet && r.Method != http.MethodHead:
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	case fromQuery && r.URL.Path == "/":
		s.tradeToken(w, r)
	case r.URL.Path == "/studio.json":
		s.serveSession(w)
	default:
		s.serveFile(w, r)
	}
}

// hostAllowed reports whether a request's Host names this server: on the
// loopback, 127.0.0.1, localhost or ::1 at its port; with --public any
// name (the TLS certificate is what binds it).
func (s *server) hostAllowed(hostport string) bool {
	if s.c.Public {
		return hostport != ""
	}
	host, port, err := net.SplitHostPort(hostport)
	if err != nil || port != strconv.Itoa(s.port) {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// origin is the page's own origin for a request to host.
func (s *server) origin(host string) string {
	if s.c.TLS {
		return "https://" + host
	}
	return "http://" + host
}

// authorized reports whether r shows the token (query or Bearer; both
// compared where both are given) or the cookie, whether it showed the
// token in its query (to be traded), and why not where it does not.
func (s *server) authorized(r *http.Request) (fromQuery, ok bool, why string) {
	q := r.URL.Query()["token"]
	auth := r.Header.Values("Authorization")
	switch {
	case len(q) > 1:
		return false, false, "two token query parameters"
	case len(auth) > 1:
		return false, false, "two Authorization headers"
	}
	var given []string
	if len(q) == 1 {
		given = append(given, q[0])
	}
	if len(auth) == 1 {
		scheme, token, found := strings.Cut(auth[0], " ")
		if !found || !strings.EqualFold(scheme, "Bearer") {
			return false, false, "the Authorization header is not Bearer TOKEN"
		}
		given = append(given, strings.TrimSpace(token))
	}
	if len(given) > 0 {
		ok := true
		for _, g := range given {
			ok = s.c.Token.Matches(g) && ok // each compared, whatever the first said
		}
		if !ok {
			return false, false, "the token is not this studio's"
		}
		return len(q) == 1, true, ""
	}
	if ck, err := r.Cookie(s.cookie); err == nil {
		if s.c.Session.Matches(ck.Value) {
			return false, true, ""
		}
		return false, false, "the cookie is not this studio's (it was started again); open the URL it printed"
	}
	return false, false, "no token: open the URL tent-tools studio printed (its token query parameter), or send Authorization: Bearer TOKEN"
}

// tradeToken answers the printed URL: it sets the cookie and sends the
// browser to the page without the token, so the token leaves the address
// bar and the history.
func (s *server) tradeToken(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: s.cookie, Value: s.c.Session.String(), Path: "/",
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: s.c.TLS})
	rest := url.Values{}
	for k, v := range r.URL.Query() {
		if k != "token" {
			rest[k] = v
		}
	}
	to := "/"
	if len(rest) > 0 {
		to += "?" + rest.Encode()
	}
	noStore(w)
	http.Redirect(w, r, to, http.StatusSeeOther)
}

// Session is the answer of /studio.json: what the page needs to open its
// language server session.
type Session struct {
	// Root is the project folder; RootURI the same as a file: URI, for
	// initialize.
	Root    string `json:"root"`
	RootURI string `json:"rootUri"`
	// LSP is the WebSocket's path on the page's origin.
	LSP string `json:"lsp"`
	// Version is the tent-tools version ("" where the build knows none).
	Version string `json:"version"`
}

func (s *server) serveSession(w http.ResponseWriter) {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(s.c.Root)}
	data, err := json.Marshal(Session{Root: s.c.Root, RootURI: u.String(), LSP: "/lsp", Version: s.c.Version})
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	noStore(w)
	w.Header().Set("Content-Type", "application/json")
	w.Write(data)
}

// serveLSP hands a WebSocket on to the language server, its token shown as
// the Bearer header where the request showed the cookie, and its Origin,
// checked already against the page's own, set aside (the lsp guard knows
// only its operator's list).
func (s *server) serveLSP(w http.ResponseWriter, r *http.Request) {
	r = r.Clone(r.Context())
	r.Header.Del("Origin")
	q := r.URL.Query()
	if len(q["token"]) == 0 && len(r.Header.Values("Authorization")) == 0 {
		r.Header.Set("Authorization", "Bearer "+s.c.Token.String())
	}
	s.sessions.Add(1)
	defer s.sessions.Done()
	s.ws.ServeHTTP(w, r)
}

// serveFile answers a file of the page: / is index.html; a path that
// names no file is 404.
func (s *server) serveFile(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
	if name == "" {
		name = "index.html"
	}
	if info, err := fs.Stat(s.page, name); err != nil || info.IsDir() {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	if name == "index.html" {
		noStore(w)
		h.Set("X-Frame-Options", "DENY")
		h.Set("Content-Security-Policy", contentPolicy)
	}
	http.ServeFileFS(w, r, s.page, name)
}

// contentPolicy is the page's Content-Security-Policy: everything from
// its own origin (the WebSocket too), pictures also as data: URLs (a
// screen's shot), nothing framing it.
const contentPolicy = "default-src 'self'; connect-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; " +
	"worker-src 'self' blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'"

// noStore keeps an answer out of every cache.
func noStore(w http.ResponseWriter) { w.Header().Set("Cache-Control", "no-store") }
