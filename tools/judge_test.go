package tools

import (
	"context"
	"maps"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/sample"
)

// countingApprover answers yes or no and counts the questions.
type countingApprover struct {
	yes   bool
	asked []string
}

func (a *countingApprover) Approve(_ context.Context, q string) (bool, error) {
	a.asked = append(a.asked, q)
	return a.yes, nil
}

// TestPolicyMatrix writes one change (a column's type, in
// tables/orders.ts: change:table orders, change:column orders.total,
// change:file tables/orders.ts) under a policy made of each kind of rule
// (a path glob, ACTION:KIND, a rule with *) in each list: deny, ask with a
// yes, ask with a no, allow, and an allow that does not name it. A refused
// write leaves every file byte for byte, and records no point.
func TestPolicyMatrix(t *testing.T) {
	rules := []struct {
		kind, names, other string // a rule that names the change, one that does not
	}{
		{"path glob", "tables/**", "lib/**"},
		{"ACTION:KIND", "change:column", "add:fn"},
		{"wildcard", "change:*", "remove:*"},
	}
	type outcome struct {
		code  string // "" where written
		asked bool
	}
	for _, r := range rules {
		// A change rule in allow only lets changes; the paths need a glob.
		allowAll := []string{"**"}
		if r.kind == "path glob" {
			allowAll = nil
		}
		modes := []struct {
			name     string
			policy   Policy
			yes      bool
			want     outcome
			wantRule string
		}{
			{"deny", Policy{Allow: []string{"**"}, Deny: []string{r.names}}, true, outcome{code: diag.T9105}, r.names},
			{"ask yes", Policy{Allow: []string{"**"}, Ask: []string{r.names}}, true, outcome{asked: true}, ""},
			{"ask no", Policy{Allow: []string{"**"}, Ask: []string{r.names}}, false, outcome{code: diag.T3103, asked: true}, ""},
			{"allow", Policy{Allow: append(allowAll, r.names)}, true, outcome{}, ""},
			{"not allowed", Policy{Allow: append(allowAll, r.other)}, true, outcome{code: diag.T9105}, ""},
			{"deny beats ask and allow", Policy{Allow: []string{"**", r.names}, Ask: []string{r.names}, Deny: []string{r.names}}, true, outcome{code: diag.T9105}, r.names},
			{"named elsewhere only", Policy{Allow: []string{"**"}, Deny: []string{r.other}, Ask: []string{r.other}}, true, outcome{}, ""},
		}
		for _, m := range modes {
			t.Run(r.kind+" "+m.name, func(t *testing.T) {
				ap := &countingApprover{yes: m.yes}
				pol := m.policy
				w, dir := openCopy(t, Options{Policy: &pol, Approver: ap})
				before := snapshot(t, dir)
				ans, err := call(w, "edit", editInput("tables/orders.ts", "total: money()", "total: int()"))
				if (len(ap.asked) > 0) != m.want.asked {
					t.Errorf("asked %d times; want asked %v", len(ap.asked), m.want.asked)
				}
				hs, _ := w.state.HistoryStore(context.Background())
				last, _ := hs.Last(context.Background())
				if m.want.code == "" {
					if err != nil {
						t.Fatalf("refused: %v", err)
					}
					if p := ans.Data.(Changed).Point; p == nil || last != 1 {
						t.Errorf("written without a point: %v, last %d", p, last)
					}
					if !strings.Contains(readFile(t, dir, "tables/orders.ts"), "total: int()") {
						t.Error("not written")
					}
					return
				}
				te := wantCode(t, err, m.want.code)
				if m.wantRule != "" && te.Data["rule"] != m.wantRule {
					t.Errorf("refusal names rule %v; want %q", te.Data["rule"], m.wantRule)
				}
				if te.Data["path"] == nil && te.Data["change"] == nil && m.want.code == diag.T9105 {
					t.Errorf("refusal names no path or change: %+v", te.Data)
				}
				if after := snapshot(t, dir); !maps.Equal(before, after) {
					t.Error("a refused write changed files")
				}
				if last != 0 {
					t.Errorf("a refused write recorded point %d", last)
				}
				sample.NoTemps(t, dir)
			})
		}
	}
}

// TestPolicyAskNamesWhat checks what the person is asked: who, the
// change, and each rule that asks.
func TestPolicyAskNamesWhat(t *testing.T) {
	ap := &countingApprover{yes: true}
	w, _ := openCopy(t, Options{Caller: "ann", Agent: "builder", Approver: ap,
		Policy: &Policy{Ask: []string{"rename:column", "testdata/**"}}})
	mustCall(t, w, "rename", `{"name": "orders.buyer", "to": "customer"}`)
	if len(ap.asked) != 1 {
		t.Fatalf("asked %d times", len(ap.asked))
	}
	q := ap.asked[0]
	for _, want := range []string{"ann (agent builder) wants to rename orders.buyer to customer",
		`rename:column orders.buyer -> orders.customer (ask rule "rename:column")`,
		`testdata/orders.json (ask rule "testdata/**")`} {
		if !strings.Contains(q, want) {
			t.Errorf("question lacks %q:\n%s", want, q)
		}
	}
}

// TestPolicyNoApprover checks that a write the policy asks about is a no
// where there is nobody to ask.
func TestPolicyNoApprover(t *testing.T) {
	w, dir := openCopy(t, Options{Policy: &Policy{Ask: []string{"remove:*"}}})
	before := snapshot(t, dir)
	_, err := call(w, "remove", `{"name": "reviews"}`)
	wantCode(t, err, diag.T3103)
	if !maps.Equal(before, snapshot(t, dir)) {
		t.Error("files changed")
	}
}

// TestPolicyJudgesEveryWriter holds undo and move to the policy too.
func TestPolicyJudgesEveryWriter(t *testing.T) {
	pol := &Policy{}
	w, dir := openCopy(t, Options{Policy: pol})
	mustCall(t, w, "edit", editInput("lib/format.ts", "slice(0, 10)", "slice(0, 7)"))
	*pol = Policy{Deny: []string{"lib/**"}}
	before := snapshot(t, dir)
	_, err := call(w, "undo", `{}`)
	wantCode(t, err, diag.T9105)
	_, err = call(w, "move", `{"path": "tables/users.ts", "to": "lib/users.ts"}`)
	wantCode(t, err, diag.T9105)
	*pol = Policy{Deny: []string{"rename:file"}}
	_, err = call(w, "move", `{"path": "tables/users.ts", "to": "tables/people.ts"}`)
	wantCode(t, err, diag.T9105)
	if !maps.Equal(before, snapshot(t, dir)) {
		t.Error("files changed")
	}
}
