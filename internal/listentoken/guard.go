package listentoken

import (
	"fmt"
	"net/http"
	"slices"
	"sync"

	"github.com/tent-tools/tent-tools/diag"
)

// DefaultMaxConns is the bound of connections a listening face serves at
// once where its operator gives none (lsp --max-connections).
const DefaultMaxConns = 8

// Guard is the door of a listening face: what a request must show before
// its handler runs.
type Guard struct {
	// Token is the one a request must carry (the token query parameter or
	// Authorization: Bearer).
	Token Token
	// Origins are the pages allowed to connect (their Origin header, as
	// "http://127.0.0.1:8080"). A request with an Origin not listed is
	// refused; one without (not a browser) is let in on its token.
	Origins []string
	// OriginFlag names the flag that lists Origins, for the refusal's
	// message ("tent-tools lsp --origin").
	OriginFlag string
	// MaxConns bounds the requests served at once (a WebSocket is one for
	// its whole life); 0 is DefaultMaxConns, a negative number no bound.
	MaxConns int
}

// Handler wraps next behind the guard. In order, a request is refused:
// with two Origin headers (400); without the token or with another (401,
// WWW-Authenticate: Bearer); with an Origin not listed (403); past
// MaxConns (503, T9123, Retry-After). Each refusal is answered before
// anything else of the request is read, and never quotes a token.
func (g Guard) Handler(next http.Handler) http.Handler {
	max := g.MaxConns
	if max == 0 {
		max = DefaultMaxConns
	}
	var mu sync.Mutex
	open := 0
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(r.Header.Values("Origin")) > 1 {
			http.Error(w, errTwoOrigins, http.StatusBadRequest)
			return
		}
		if err := g.Token.check(r.URL.Query(), r.Header.Values("Authorization")); err != nil {
			w.Header().Set("WWW-Authenticate", `Bearer realm="tent-tools"`)
			http.Error(w, "unauthorized: "+err.Error(), http.StatusUnauthorized)
			return
		}
		if status, msg := CheckOrigin(r.Header, g.Origins, g.OriginFlag); status != 0 {
			http.Error(w, msg, status)
			return
		}
		mu.Lock()
		full := max > 0 && open >= max
		if !full {
			open++
		}
		mu.Unlock()
		if full {
			w.Header().Set("Retry-After", "5")
			http.Error(w, diag.Errorf(diag.T9123, "the server serves %d connections at once, its bound (--max-connections); try again when one closes", max).Error(),
				http.StatusServiceUnavailable)
			return
		}
		defer func() {
			mu.Lock()
			open--
			mu.Unlock()
		}()
		next.ServeHTTP(w, r)
	})
}

const errTwoOrigins = "two Origin headers: a request has one at most"

// CheckOrigin holds a request's Origin header to the pages allowed
// (origins, as "http://127.0.0.1:8080"), as MCP's streamable HTTP
// transport asks of a server and a WebSocket face needs against DNS
// rebinding: two Origin headers are refused (400), an Origin not listed
// (403, the message naming flag, the one that lists them); a request
// without one (not a browser) passes. It answers 0 where the request
// passes, else the status and why.
func CheckOrigin(h http.Header, origins []string, flag string) (status int, why string) {
	given := h.Values("Origin")
	switch {
	case len(given) > 1:
		return http.StatusBadRequest, errTwoOrigins
	case len(given) == 1 && !slices.Contains(origins, given[0]):
		msg := fmt.Sprintf("origin %s is not allowed", given[0])
		if flag != "" {
			msg += fmt.Sprintf(" (%s names the pages that are)", flag)
		}
		return http.StatusForbidden, msg
	}
	return 0, ""
}
