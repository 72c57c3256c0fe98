package listentoken

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestNewTokens(t *testing.T) {
	a, err := New()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := New()
	if a.String() == b.String() {
		t.Fatal("two new tokens are the same")
	}
	if n := len(a.String()); n != 43 {
		t.Fatalf("a new token has %d characters; want 43 (256 bits)", n)
	}
	if _, err := Parse(a.String()); err != nil {
		t.Fatalf("a new token does not parse: %v", err)
	}
	if got, want := a.URL("ws", "127.0.0.1:7100"), "ws://127.0.0.1:7100/?token="+a.String(); got != want {
		t.Fatalf("URL = %s; want %s", got, want)
	}
	if (Token{}).Matches("") {
		t.Fatal("the zero token matches the empty one")
	}
}

func TestParse(t *testing.T) {
	for _, tt := range []struct{ text, err string }{
		{"0123456789abcdef0123456789abcdef", ""},
		{"  0123456789abcdef0123456789abcdef\n", ""},
		{"short", "the token has 5 characters; it needs at least 32"},
		{"0123456789abcdef0123456789abcde/", "the token's character 32 is not one of"},
		{"0123456789abcdef 0123456789abcdef", "the token's character 17 is not one of"},
	} {
		_, err := Parse(tt.text)
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("Parse(%q): %v", tt.text, err)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("Parse(%q) = %v; want %q", tt.text, err, tt.err)
		case err != nil && strings.Contains(err.Error(), strings.TrimSpace(tt.text)):
			t.Errorf("Parse(%q)'s error quotes the token: %v", tt.text, err)
		}
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	os.WriteFile(good, []byte("0123456789abcdef0123456789abcdef\n"), 0o600)
	open := filepath.Join(dir, "open")
	os.WriteFile(open, []byte("0123456789abcdef0123456789abcdef\n"), 0o644)
	os.Chmod(open, 0o644)
	tok, err := ReadFile(good)
	if err != nil || tok.String() != "0123456789abcdef0123456789abcdef" {
		t.Fatalf("ReadFile = %q, %v", tok.String(), err)
	}
	if _, err := ReadFile(open); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Fatalf("a file others may read: %v", err)
	}
	if _, err := ReadFile(filepath.Join(dir, "none")); err == nil {
		t.Fatal("a missing file gave a token")
	}
	if tok, err := Load(""); err != nil || len(tok.String()) != 43 {
		t.Fatalf("Load without a file: %q %v", tok.String(), err)
	}
}

func TestGuard(t *testing.T) {
	tok, _ := Parse("0123456789abcdef0123456789abcdef")
	g := Guard{Token: tok, Origins: []string{"http://127.0.0.1:8080"}, OriginFlag: "tent-tools lsp --origin"}
	h := g.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTeapot) }))
	good := tok.String()
	for _, tt := range []struct {
		name   string
		query  string
		header http.Header
		status int
		body   string
	}{
		{"no token", "", nil, 401, "no token"},
		{"a wrong token", "token=0123456789abcdef0123456789abcdeX", nil, 401, "not this server's"},
		{"a prefix of the token", "token=0123456789abcdef", nil, 401, "not this server's"},
		{"the token in the query", "token=" + good, nil, 418, ""},
		{"the token as a bearer", "", http.Header{"Authorization": {"Bearer " + good}}, 418, ""},
		{"bearer in any case", "", http.Header{"Authorization": {"bearer " + good}}, 418, ""},
		{"basic auth", "", http.Header{"Authorization": {"Basic " + good}}, 401, "not Bearer"},
		{"a right query and a wrong header", "token=" + good, http.Header{"Authorization": {"Bearer nope"}}, 401, "not this server's"},
		{"two token parameters", "token=" + good + "&token=" + good, nil, 401, "two token"},
		{"a listed origin", "token=" + good, http.Header{"Origin": {"http://127.0.0.1:8080"}}, 418, ""},
		{"an unlisted origin", "token=" + good, http.Header{"Origin": {"http://evil.example"}}, 403, "--origin names the pages"},
		{"two origins", "token=" + good, http.Header{"Origin": {"http://127.0.0.1:8080", "http://evil.example"}}, 400, "two Origin headers"},
		{"two origins without a token", "", http.Header{"Origin": {"http://127.0.0.1:8080", "http://127.0.0.1:8080"}}, 400, "two Origin headers"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/?"+tt.query, nil)
			for k, v := range tt.header {
				r.Header[k] = v
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != tt.status || !strings.Contains(w.Body.String(), tt.body) {
				t.Fatalf("%d %q; want %d %q", w.Code, w.Body.String(), tt.status, tt.body)
			}
			if strings.Contains(w.Body.String(), good) {
				t.Fatalf("the answer quotes the token: %s", w.Body.String())
			}
			if tt.status == 401 && w.Header().Get("WWW-Authenticate") == "" {
				t.Fatal("a 401 without WWW-Authenticate")
			}
		})
	}
}

// TestGuardBound: past MaxConns a request is refused with T9123 while
// those in are served, and one more is let in once one of them ends.
func TestGuardBound(t *testing.T) {
	tok, _ := New()
	release := make(chan struct{})
	var in sync.WaitGroup
	h := Guard{Token: tok, MaxConns: 2}.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		in.Done()
		<-release
	}))
	req := func() *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", "/?token="+tok.String(), nil))
		return w
	}
	in.Add(2)
	var done sync.WaitGroup
	for range 2 {
		done.Add(1)
		go func() { defer done.Done(); req() }()
	}
	in.Wait()
	w := req()
	if w.Code != http.StatusServiceUnavailable || !strings.Contains(w.Body.String(), "T9123") || w.Header().Get("Retry-After") == "" {
		t.Fatalf("a third connection: %d %q; want 503 T9123", w.Code, w.Body.String())
	}
	close(release)
	done.Wait()
	in.Add(1)
	if w := req(); w.Code != http.StatusOK {
		t.Fatalf("after the two ended: %d %q", w.Code, w.Body.String())
	}
}
