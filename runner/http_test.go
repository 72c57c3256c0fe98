package runner

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"
)

// server is a local HTTP server on 127.0.0.1, the host run-http's engine.ts allows.
func server(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/doc":
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"hello":"world"}`)
		case "/echo":
			b, _ := io.ReadAll(r.Body)
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(http.StatusCreated)
			w.Write(b)
		case "/slow": // answers in 25 s
			io.ReadAll(r.Body) // so the server sees the client go
			select {
			case <-r.Context().Done():
			case <-time.After(25 * time.Second):
			}
		case "/trickle": // one byte every half second
			io.ReadAll(r.Body)
			w.WriteHeader(http.StatusOK)
			for i := 0; i < 50; i++ {
				w.Write([]byte("x"))
				w.(http.Flusher).Flush()
				select {
				case <-r.Context().Done():
					return
				case <-time.After(500 * time.Millisecond):
				}
			}
		case "/away":
			http.Redirect(w, r, strings.Replace("http://"+r.Host, "127.0.0.1", "localhost", 1)+"/doc", http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestHTTP(t *testing.T) {
	srv := server(t)
	root := project(t, "run-http")
	ix := index(t, root)
	r := newRunner(t, root, Config{})
	ctx := context.Background()
	in := func(v map[string]string) json.RawMessage {
		b, _ := json.Marshal(v)
		return b
	}

	res, err := r.Run(ctx, ix, Request{Name: "fetchJSON", Trusted: true, Input: in(map[string]string{"url": srv.URL + "/doc"})})
	if err != nil {
		t.Fatal(err)
	}
	if got := decode(t, res.Result); !reflect.DeepEqual(got, map[string]any{"status": 200.0, "ok": true, "body": map[string]any{"hello": "world"}}) {
		t.Errorf("fetchJSON = %v", got)
	}
	wantSent := []Sent{{Kind: "http", To: srv.URL + "/doc", Method: "GET", Status: 200}}
	if !reflect.DeepEqual(res.Sent, wantSent) {
		t.Errorf("sent = %+v, want %+v", res.Sent, wantSent)
	}

	res, err = r.Run(ctx, ix, Request{Name: "post", Trusted: true, Input: in(map[string]string{"url": srv.URL + "/echo", "message": "hi"})})
	if err != nil {
		t.Fatal(err)
	}
	if got := decode(t, res.Result); !reflect.DeepEqual(got, map[string]any{"status": 201.0, "echo": "hi", "type": "text/plain"}) {
		t.Errorf("post = %v", got)
	}
	if res.Sent[0].Method != "POST" || res.Sent[0].Status != 201 {
		t.Errorf("sent = %+v", res.Sent)
	}

	// localhost is the same machine, but not a host engine.ts names.
	other := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1) + "/doc"
	_, err = r.Run(ctx, ix, Request{Name: "fetchJSON", Trusted: true, Input: in(map[string]string{"url": other})})
	if te := toolError(t, err, "T4003"); !strings.Contains(te.Message, "not a host that engine.ts allows") {
		t.Errorf("a host not allowed: %v", te)
	}
	_, err = r.Run(ctx, ix, Request{Name: "fetchJSON", Trusted: true, Input: in(map[string]string{"url": srv.URL + "/away"})})
	if te := toolError(t, err, "T4003"); !strings.Contains(te.Message, "does not allow") {
		t.Errorf("a redirect to a host not allowed: %v", te)
	}
	_, err = r.Run(ctx, ix, Request{Name: "fetchJSON", Trusted: true, Input: in(map[string]string{"url": "file:///etc/passwd"})})
	if te := toolError(t, err, "T4003"); !strings.Contains(te.Message, "no http(s) URL") {
		t.Errorf("a file URL: %v", te)
	}
}

func TestSendingFoundWhileRunning(t *testing.T) {
	srv := server(t)
	root := project(t, "run-http")
	ix := index(t, root)
	r := newRunner(t, root, Config{})
	ctx := context.Background()
	input := json.RawMessage(`{"url":"` + srv.URL + `/doc"}`)

	// The index cannot see what indirect reaches: it is asked when it sends.
	if sends := r.app(ix).callables["indirect"].Sends; len(sends) != 0 {
		t.Fatalf("indirect sends %v by the index; the test needs a send found only while running", sends)
	}
	_, err := r.Run(ctx, ix, Request{Name: "indirect", Approver: no{}, Input: input})
	toolError(t, err, "T3103")

	say := &yes{}
	res, err := r.Run(ctx, ix, Request{Name: "indirect", Approver: say, Input: input})
	if err != nil {
		t.Fatal(err)
	}
	if say.asked != 1 || len(res.Sent) != 1 {
		t.Errorf("asked %d times, sent %+v; want one question and one request", say.asked, res.Sent)
	}

	mail, err := r.Run(ctx, ix, Request{Name: "mailNote", Approver: &yes{}, Input: json.RawMessage(`{"to":"ann@example.com"}`)})
	if err != nil {
		t.Fatal(err)
	}
	want := []Sent{{Kind: "mail", To: "ann@example.com", From: "app@example.com", Subject: "A note", Text: "Hello from the app."}}
	if !reflect.DeepEqual(mail.Sent, want) {
		t.Errorf("mail sent = %+v, want %+v", mail.Sent, want)
	}
}

// slow is an Approver that takes its time to say yes.
type slow struct{ wait time.Duration }

func (s slow) Approve(ctx context.Context, q string) (bool, error) {
	time.Sleep(s.wait)
	return true, nil
}

func TestAskingStopsTheClock(t *testing.T) {
	srv := server(t)
	root := project(t, "run-http")
	ix := index(t, root)
	// The limit leaves room for a loaded machine; the person takes twice
	// as long as the run may, and the time they take is not the run's.
	r := newRunner(t, root, Config{TimeLimit: time.Second})
	_, err := r.Run(context.Background(), ix, Request{Name: "indirect", Approver: slow{wait: 2 * time.Second},
		Input: json.RawMessage(`{"url":"` + srv.URL + `/doc"}`)})
	if err != nil {
		t.Errorf("a run that waited for the person: %v", err)
	}
}

// TestHTTPSlowHost: a host that is slow to answer, or answers a byte at a
// time, holds a run no longer than its time limit (T4004), also where the
// caller's context has a deadline of its own.
func TestHTTPSlowHost(t *testing.T) {
	srv := server(t)
	root := project(t, "run-http")
	ix := index(t, root)
	const limit = time.Second
	r := newRunner(t, root, Config{TimeLimit: limit})
	for _, path := range []string{"/slow", "/trickle"} {
		for _, deadline := range []bool{false, true} {
			ctx := context.Background()
			if deadline {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, time.Minute)
				defer cancel()
			}
			in, _ := json.Marshal(map[string]string{"url": srv.URL + path, "message": "hi"})
			start := time.Now()
			_, err := r.Run(ctx, ix, Request{Name: "post", Trusted: true, Input: in})
			took := time.Since(start)
			if code(err) != "T4004" {
				t.Errorf("%s (deadline %v): err = %v, want T4004", path, deadline, err)
			}
			// The limit ends the call, not the host's answer (25 s): well
			// before that even where a loaded machine is slow to schedule.
			if took > 10*time.Second {
				t.Errorf("%s (deadline %v): took %v with a limit of %v (the host answers in 25 s)", path, deadline, took, limit)
			}
		}
	}
}
