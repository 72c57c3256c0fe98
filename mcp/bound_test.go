package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestSessionBoundLateReturn: a request's handler may return well after
// its answer reached the client (a loaded machine, the race detector).
// The SDK's client first asks server/discover, which a session server
// refuses, then initializes at once; the refused request must not still
// hold a place when the initialize comes, nor one initialize the place of
// the next. The delay after each answer makes the window certain.
func TestSessionBoundLateReturn(t *testing.T) {
	server := sdk.NewServer(&sdk.Implementation{Name: "bound", Version: "v1"}, nil)
	sessions := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, nil)
	late := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sessions.ServeHTTP(w, r)
		if r.Header.Get("Mcp-Session-Id") == "" {
			time.Sleep(300 * time.Millisecond) // the answer is out; the handler has not returned
		}
	})
	bound := &sessionBound{server: server, max: 2, owner: map[string]int{}, pending: map[int]int{}}
	verify := func(context.Context, string, *http.Request) (*auth.TokenInfo, error) {
		return &auth.TokenInfo{UserID: "grant 0", Extra: map[string]any{grantKey: 0}}, nil
	}
	srv := httptest.NewServer(auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(bound.handler(late)))
	t.Cleanup(srv.Close) // after the clients close (cleanups run last first): it waits for their streams
	connect := func() error {
		client := sdk.NewClient(&sdk.Implementation{Name: "agent", Version: "v1"}, nil)
		transport := &sdk.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: &http.Client{Transport: withToken{http.DefaultTransport}}}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cs, err := client.Connect(ctx, transport, nil)
		if err == nil {
			t.Cleanup(func() { cs.Close() })
		}
		return err
	}
	for i := range 2 {
		if err := connect(); err != nil {
			t.Fatalf("session %d of a bound of 2: %v", i+1, err)
		}
	}
	if err := connect(); err == nil {
		t.Fatal("a third session of a bound of 2 was let in")
	}
}

// withToken adds a bearer token to every request (any: the test's verify
// takes every token).
type withToken struct{ next http.RoundTripper }

func (w withToken) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer any")
	return w.next.RoundTrip(r)
}
