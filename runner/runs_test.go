package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/internal/golden"
)

// fakePayments answers the payment provider's API of shop without a network.
type fakePayments struct{ calls []string }

func (f *fakePayments) RoundTrip(req *http.Request) (*http.Response, error) {
	f.calls = append(f.calls, req.Method+" "+req.URL.String())
	body := `{"id":"ch_test_1"}`
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(body)), Request: req}, nil
}

// shopWithProbe is a copy of shop with testdata/probe.ts added as functions/probe.ts.
func shopWithProbe(t testing.TB) string {
	t.Helper()
	root := project(t, "shop")
	probe, err := os.ReadFile("testdata/probe.ts")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "functions", "probe.ts"), probe, 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// fixedNow is ctx.now() in the golden runs.
var fixedNow = time.Date(2024, 7, 1, 12, 0, 0, 0, time.UTC)

// TestShopRuns runs a sequence of shop's functions and flows on one test
// database, and compares each answer (or error) with the golden file.
func TestShopRuns(t *testing.T) {
	root := shopWithProbe(t)
	ix := index(t, root)
	pay := &fakePayments{}
	r := newRunner(t, root, Config{HTTP: &http.Client{Transport: pay}})
	checkShopRuns(t, pay, func(req Request) (*Result, error) {
		return r.Run(context.Background(), ix, req)
	})
}

// checkShopRuns runs shop's sequence through run, on a test database not
// built yet, and compares the answers with the golden file.
func checkShopRuns(t *testing.T, pay *fakePayments, run func(Request) (*Result, error)) {
	t.Helper()
	say := &yes{}
	cases := []struct {
		label string
		req   Request
	}{
		{"products for anybody", Request{Name: "listProducts"}},
		{"products of a category in stock", Request{Name: "listProducts", Input: json.RawMessage(`{"category":"c2","inStockOnly":true}`)}},
		{"every ctx.db method", Request{Name: "probeDB"}},
		{"as nobody", Request{Name: "whoami"}},
		{"as by id", Request{Name: "whoami", As: "u2"}},
		{"as by email", Request{Name: "whoami", As: "chen@example.com"}},
		{"as by name", Request{Name: "whoami", As: "Dana Ruiz"}},
		{"as the system", Request{Name: "whoami", As: "system", AllowSystem: true}},
		{"as the system, not let", Request{Name: "whoami", As: "system"}},
		{"as nobody known", Request{Name: "whoami", As: "eve@example.com"}},
		{"read rule: the buyer's orders", Request{Name: "myOrders", As: "u3"}},
		{"read rule: staff sees all", Request{Name: "myOrders", As: "u2"}},
		{"read rule: nobody sees none", Request{Name: "myOrders"}},
		{"fn may refuses nobody", Request{Name: "addReview", Input: json.RawMessage(`{"product":"p1","rating":4}`)}},
		{"app throws", Request{Name: "addReview", As: "u3", Input: json.RawMessage(`{"product":"p1","rating":9}`)}},
		{"input: ref to no row", Request{Name: "addReview", As: "u3", Input: json.RawMessage(`{"product":"p9","rating":4}`)}},
		{"input: wrong type and missing", Request{Name: "addReview", As: "u3", Input: json.RawMessage(`{"rating":"five"}`)}},
		{"input: unknown key", Request{Name: "addReview", As: "u3", Input: json.RawMessage(`{"product":"p1","rating":4,"stars":4}`)}},
		{"input: not JSON", Request{Name: "addReview", As: "u3", Input: json.RawMessage(`{"product":`)}},
		{"insert through a fn", Request{Name: "addReview", As: "u3", Input: json.RawMessage(`{"product":"p1","rating":4,"body":"Good pan."}`)}},
		{"a bad value written", Request{Name: "badWrite"}},
		{"unknown name", Request{Name: "nope"}},
		{"a table is not run", Request{Name: "orders"}},
		{"sending: the person says no", Request{Name: "placeOrder", As: "u3", Approver: no{}, Input: json.RawMessage(`{"buyer":"u3","items":[{"product":"p2","quantity":1}],"shipTo":"Leith"}`)}},
		{"sending: nobody to ask", Request{Name: "placeOrder", As: "u3", Input: json.RawMessage(`{"buyer":"u3","items":[{"product":"p2","quantity":1}],"shipTo":"Leith"}`)}},
		{"sending: trusted", Request{Name: "placeOrder", As: "u3", Trusted: true, Input: json.RawMessage(`{"buyer":"u3","items":[{"product":"p2","quantity":1}],"shipTo":"Leith","note":"ring twice"}`)}},
		{"sending: the person says yes", Request{Name: "registerUser", As: "system", AllowSystem: true, Approver: say, Input: json.RawMessage(`{"name":"Erin","email":"erin@example.com"}`)}},
		{"table write rule refuses", Request{Name: "reserveStock", As: "u3", Input: json.RawMessage(`{"items":[{"product":"p1","quantity":1}]}`)}},
		{"flow: sending through a step, the person says no", Request{Name: "checkout", As: "u2", Approver: no{}, Input: json.RawMessage(`{"buyer":"u3","items":[{"product":"p1","quantity":2}],"shipTo":"Leith"}`)}},
		{"flow threads its steps", Request{Name: "checkout", As: "u2", Trusted: true, Input: json.RawMessage(`{"buyer":"u3","items":[{"product":"p1","quantity":2}],"shipTo":"Leith"}`)}},
		{"flow stops at a failing step", Request{Name: "checkout", As: "u3", Trusted: true, Input: json.RawMessage(`{"buyer":"u3","items":[{"product":"p1","quantity":1}],"shipTo":"Leith"}`)}},
		{"flow with ctx.call inside a step", Request{Name: "fulfilment", As: "u2", Trusted: true, Input: json.RawMessage(`{"order":"o2"}`)}},
		{"a read rule hides orders from an admin", Request{Name: "exportOrders", As: "u1", Input: json.RawMessage(`{"status":"shipped"}`)}},
	}
	var out bytes.Buffer
	for _, c := range cases {
		c.req.Now = fixedNow
		res, err := run(c.req)
		var ans any = res
		if err != nil {
			ans = map[string]any{"error": err}
		} else {
			res.MS = 0
		}
		b, jerr := json.MarshalIndent(ans, "", "  ")
		if jerr != nil {
			t.Fatal(jerr)
		}
		fmt.Fprintf(&out, "## %s: %s as %q\n%s\n\n", c.label, c.req.Name, c.req.As, b)
	}
	golden.Check(t, "testdata/shop_runs.golden", out.Bytes())
	if say.asked != 1 {
		t.Errorf("the approver was asked %d times, want 1 (registerUser)", say.asked)
	}
	if len(pay.calls) != 1 || pay.calls[0] != "POST https://api.payments.example/v1/charges" {
		t.Errorf("payment provider calls = %q", pay.calls)
	}
}
