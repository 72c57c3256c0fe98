package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/dop251/goja"

	"github.com/tent-tools/tent-tools/schema"
)

// maxBody bounds the response body a fetch reads.
const maxBody = 4 << 20

// sendPrimitives are the host side of ctx.mail and ctx.http.
func (s *session) sendPrimitives(set func(string, func(goja.FunctionCall) goja.Value)) {
	set("mail", func(call goja.FunctionCall) goja.Value {
		m := s.row(str(call, 0), "ctx.mail.send")
		var fields [3]string
		for i, k := range []string{"to", "subject", "text"} {
			v, ok := m[k].(string)
			if !ok {
				s.throw("", "ctx.mail.send wants { to, subject, text } as strings; %s is %s", k, schema.JSONKind(m[k]))
			}
			fields[i] = v
		}
		s.mayUse("mail")
		s.sent = append(s.sent, Sent{Kind: "mail", To: fields[0], From: s.app.mailFrom, Subject: fields[1], Text: fields[2]})
		return goja.Undefined()
	})
	set("fetch", func(call goja.FunctionCall) goja.Value {
		raw := str(call, 0)
		init := s.row(str(call, 1), "ctx.http.fetch's init")
		u, err := url.Parse(raw)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			s.throw("", "ctx.http.fetch: %q is no http(s) URL", raw)
		}
		if !hostAllowed(s.app.httpAllow, u) {
			s.throw("", "ctx.http.fetch: %s is not a host that engine.ts allows (http.allow: %s)", u.Host, allowList(s.app.httpAllow))
		}
		s.mayUse("http")
		var ans *fetchAnswer
		var sent Sent
		if s.remote != nil {
			ans, sent, err = s.remote.fetch(u, init, s.watch.remaining())
		} else {
			ans, sent, err = fetchURL(s.watch.ctx, s.http, s.app.httpAllow, u, init)
		}
		s.sent = append(s.sent, sent)
		if err != nil {
			// The run's time ran out while it waited: T4004, not the app's
			// error, even where the wait's own deadline (the time the run
			// had left) ended it before the watchdog's timer fired.
			s.watch.expire()
			s.checkStopped()
			s.throwErr(err)
		}
		return s.jsonText(ans)
	})
}

// mayUse lets a send go ahead, asking the person first where this run has
// not been let send already; a no is T3103 in the app code.
func (s *session) mayUse(kind string) {
	if s.sending {
		return
	}
	var ok bool
	var err error
	s.watch.hold(func() { ok, err = s.ask(kind) })
	if err != nil || !ok {
		s.throwErr(notLet("this run", []string{kind}, err))
	}
	s.sending = true
}

// fetchAnswer is what the prelude makes a response of.
type fetchAnswer struct {
	Status     int               `json:"status"`
	StatusText string            `json:"statusText"`
	URL        string            `json:"url"`
	Headers    map[string]string `json:"headers"`
	Body       string            `json:"body"`
}

// fetchURL makes one HTTP request for ctx.http.fetch with client,
// following redirects only to the hosts of allow, within ctx, the run's
// limits: the request, and the reading of its answer, end when the run
// passes its time limit (a slow host holds a run no longer than any other
// wait). In a worker the host makes it (worker.go): the worker has no
// network of its own.
func fetchURL(ctx context.Context, httpClient *http.Client, allow []string, u *url.URL, init map[string]any) (*fetchAnswer, Sent, error) {
	method := "GET"
	if m, ok := init["method"].(string); ok && m != "" {
		method = strings.ToUpper(m)
	}
	sent := Sent{Kind: "http", To: u.String(), Method: method}
	var body io.Reader
	switch b := init["body"].(type) {
	case nil:
	case string:
		body = strings.NewReader(b)
	default:
		return nil, sent, fmt.Errorf("ctx.http.fetch: body is a string (use JSON.stringify), got %s", schema.JSONKind(b))
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), body)
	if err != nil {
		return nil, sent, fmt.Errorf("ctx.http.fetch: %v", err)
	}
	if hs, ok := init["headers"].(map[string]any); ok {
		for k, v := range hs {
			req.Header.Set(k, fmt.Sprint(v))
		}
	}
	client := *httpClient
	client.CheckRedirect = func(r *http.Request, via []*http.Request) error {
		if len(via) >= 5 {
			return errors.New("more than 5 redirects")
		}
		if !hostAllowed(allow, r.URL) {
			return fmt.Errorf("redirect to %s, a host that engine.ts does not allow", r.URL.Host)
		}
		return nil
	}
	resp, err := client.Do(req)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return nil, sent, fmt.Errorf("ctx.http.fetch %s: the run's time ran out", u)
		}
		return nil, sent, fmt.Errorf("ctx.http.fetch %s: %v", u, err)
	}
	defer resp.Body.Close()
	sent.Status = resp.StatusCode
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return nil, sent, fmt.Errorf("ctx.http.fetch %s: reading the answer: %v", u, err)
	}
	if len(data) > maxBody {
		return nil, sent, fmt.Errorf("ctx.http.fetch %s: the answer is larger than %d MB", u, maxBody>>20)
	}
	ans := &fetchAnswer{Status: resp.StatusCode, StatusText: http.StatusText(resp.StatusCode), URL: resp.Request.URL.String(),
		Headers: map[string]string{}, Body: string(data)}
	for k := range resp.Header {
		ans.Headers[strings.ToLower(k)] = resp.Header.Get(k)
	}
	return ans, sent, nil
}

// hostAllowed reports whether engine.ts's http.allow lets a request reach
// u: an entry with a port must match host and port, one without matches
// the host on any port; "*.example.com" matches every subdomain.
func hostAllowed(allow []string, u *url.URL) bool {
	host := strings.ToLower(u.Hostname())
	for _, a := range allow {
		a = strings.ToLower(strings.TrimSpace(a))
		if h, p, err := net.SplitHostPort(a); err == nil {
			if h == host && p == u.Port() {
				return true
			}
			continue
		}
		if a == host || (strings.HasPrefix(a, "*.") && strings.HasSuffix(host, a[1:])) {
			return true
		}
	}
	return false
}

// allowList says engine.ts's http.allow for a message.
func allowList(allow []string) string {
	if len(allow) == 0 {
		return "none"
	}
	return strings.Join(allow, ", ")
}

// defaultHTTP is the client of ctx.http.fetch where the runner is given none.
func defaultHTTP() *http.Client {
	return &http.Client{Timeout: 30 * time.Second}
}
