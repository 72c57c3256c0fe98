package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/policy"
	"github.com/tent-tools/tent-tools/runner"
)

// answers is an Approver with a fixed answer that keeps the questions.
type answers struct {
	yes       bool
	questions []string
}

func (a *answers) Approve(ctx context.Context, q string) (bool, error) {
	a.questions = append(a.questions, q)
	return a.yes, nil
}

const placeOrder = `{"name":"placeOrder","as":"u3","input":{"buyer":"u3","items":[{"product":"p2","quantity":1}],"shipTo":"Leith"}}`

func TestRunPolicy(t *testing.T) {
	tests := []struct {
		name   string
		policy *Policy
		yes    bool
		input  string
		code   string
		asked  int
	}{
		{"system without also", nil, false, `{"name":"listProducts","as":"system"}`, "T3102", 0},
		{"system with also", &Policy{Also: []string{policy.AlsoRunAsSystem}}, false, `{"name":"listProducts","as":"system"}`, "", 0},
		{"sending, the person says no", nil, false, placeOrder, "T3103", 1},
		{"sending, the person says yes", nil, true, placeOrder, "", 1},
		{"sending, trusted", &Policy{Trust: []string{policy.TrustRun}}, false, placeOrder, "", 0},
		{"nothing sent, nothing asked", nil, false, `{"name":"listProducts"}`, "", 0},
		{"unknown function", nil, false, `{"name":"nope"}`, "T4001", 0},
		{"input that is no object", nil, false, `{"name":"listProducts","input":[1]}`, "T4002", 0},
		{"no name", nil, false, `{"input":{}}`, "T9102", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ap := &answers{yes: tt.yes}
			w, _ := openCopy(t, Options{Policy: tt.policy, Approver: ap})
			ans, err := call(w, "run", tt.input)
			if tt.code != "" {
				wantCode(t, err, tt.code)
			} else if err != nil {
				t.Fatal(err)
			} else if _, ok := ans.Data.(*runner.Result); !ok || !strings.HasPrefix(ans.Text, "result: ") {
				t.Errorf("answer = %#v", ans)
			}
			if len(ap.questions) != tt.asked {
				t.Errorf("asked %d times (%q), want %d", len(ap.questions), ap.questions, tt.asked)
			}
		})
	}
}

func TestRunAnswer(t *testing.T) {
	w, _ := openCopy(t, Options{Policy: &Policy{Trust: []string{policy.TrustRun}}})
	ans, err := call(w, "run", placeOrder)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`result: {"order":"orders_1","total":3450}`, "mail to chen@example.com: Order orders_1 placed (captured, not delivered)", "took "} {
		if !strings.Contains(ans.Text, want) {
			t.Errorf("text lacks %q:\n%s", want, ans.Text)
		}
	}
	data, err := JSON(ans.Data)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"result", "logged", "sent", "ms"} {
		if _, ok := got[k]; !ok {
			t.Errorf("the data answer lacks %q: %s", k, data)
		}
	}
}

func TestRowsLogsReset(t *testing.T) {
	w, _ := openCopy(t, Options{})
	ans, err := call(w, "rows", `{"table":"users","limit":2}`)
	if err != nil {
		t.Fatal(err)
	}
	rows := ans.Data.(*runner.Rows)
	if len(rows.Rows) != 2 || rows.Total != 4 || strings.Contains(ans.Text, "passwordHash\":") {
		t.Errorf("rows = %s", ans.Text)
	}
	if !strings.Contains(ans.Text, "users: 2 of 4 rows") || !strings.Contains(ans.Text, "private columns left out: passwordHash, address") {
		t.Errorf("rows text:\n%s", ans.Text)
	}
	wantCode(t, func() error { _, err := call(w, "rows", `{"table":"nope"}`); return err }(), "T9103")

	call(w, "run", `{"name":"addReview","as":"u3","input":{"product":"p1","rating":4}}`)
	call(w, "run", `{"name":"addReview","as":"u3","input":{"product":"p1","rating":9}}`)
	ans, err = call(w, "logs", `{"errors":true,"since":"1h"}`)
	if err != nil {
		t.Fatal(err)
	}
	logs := ans.Data.(*runner.Logs)
	if len(logs.Entries) != 1 || !strings.Contains(ans.Text, "error T4003: a rating is 1 to 5 stars (at functions/catalogue.ts:29:13)") ||
		!strings.Contains(ans.Text, "at run (functions/catalogue.ts:29:13)") {
		t.Errorf("logs:\n%s", ans.Text)
	}
	wantCode(t, func() error { _, err := call(w, "logs", `{"since":"soon"}`); return err }(), "T9102")

	ans, _ = call(w, "rows", `{"table":"reviews"}`)
	if n := ans.Data.(*runner.Rows).Total; n != 5 {
		t.Fatalf("reviews before reset: %d", n)
	}
	if _, err := call(w, "reset", `{}`); err != nil {
		t.Fatal(err)
	}
	ans, _ = call(w, "rows", `{"table":"reviews"}`)
	if n := ans.Data.(*runner.Rows).Total; n != 4 {
		t.Errorf("reviews after reset: %d, want the 4 of the test data", n)
	}
}
