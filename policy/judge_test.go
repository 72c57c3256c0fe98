package policy

import (
	"errors"
	"slices"
	"testing"

	"github.com/tent-tools/tent-tools/defchange"
	"github.com/tent-tools/tent-tools/diag"
)

// TestJudge holds one change against policies of each kind of rule, in
// each list, and checks the outcome: refused (T9105 with the rule), asked
// (what ask names), or allowed. The whole pipeline is tested through the
// tools that write (tools.TestPolicyMatrix); this is the rule alone.
func TestJudge(t *testing.T) {
	colType := defchange.DefChange{Definition: "orders.total", Kind: defchange.KindColumn, Action: defchange.Change,
		Fields: []defchange.Field{{Path: "type"}}}
	table := defchange.DefChange{Definition: "orders", Kind: "table", Action: defchange.Change,
		Fields: []defchange.Field{{Path: "columns.total.type"}}}
	addTable := defchange.DefChange{Definition: "refunds", Kind: "table", Action: defchange.Add}
	paths := []string{"tables/orders.ts"}
	change := []defchange.DefChange{table, colType}
	tests := []struct {
		name    string
		policy  *Policy
		paths   []string
		changes []defchange.DefChange
		refused bool
		rule    string   // the rule of a refusal ("" for the allow that names nothing)
		ask     []string // what the person is asked
	}{
		{name: "nil policy allows all", policy: nil, paths: paths, changes: change},
		{name: "zero policy allows all", policy: &Policy{}, paths: paths, changes: change},
		{name: "allow everything", policy: &Policy{Allow: []string{"**"}}, paths: paths, changes: change},
		{name: "deny a path glob", policy: &Policy{Allow: []string{"**"}, Deny: []string{"tables/**"}}, paths: paths, changes: change, refused: true, rule: "tables/**"},
		{name: "deny a change rule", policy: &Policy{Allow: []string{"**"}, Deny: []string{"change:column"}}, paths: paths, changes: change, refused: true, rule: "change:column"},
		{name: "deny a wildcard", policy: &Policy{Allow: []string{"**"}, Deny: []string{"*:*"}}, paths: paths, changes: change, refused: true, rule: "*:*"},
		{name: "ask a change", policy: &Policy{Allow: []string{"**"}, Ask: []string{"change:column"}}, paths: paths, changes: change,
			ask: []string{`change:column orders.total (ask rule "change:column")`}},
		{name: "ask a path", policy: &Policy{Allow: []string{"lib/**"}, Ask: []string{"tables/**"}}, paths: paths, changes: change,
			ask: []string{`tables/orders.ts (ask rule "tables/**")`}},
		{name: "allow names no path", policy: &Policy{Allow: []string{"lib/**"}}, paths: paths, changes: change, refused: true},
		{name: "column rule covers the table's column change", policy: &Policy{Allow: []string{"**", "change:column"}}, paths: paths, changes: change},
		{name: "change rule names no change", policy: &Policy{Allow: []string{"**", "add:fn"}}, paths: paths, changes: change, refused: true},
		{name: "path-only allow adds no table", policy: &Policy{Allow: []string{"tables/**"}}, paths: []string{"tables/refunds.ts"},
			changes: []defchange.DefChange{addTable}, refused: true},
		{name: "add:table allows it", policy: &Policy{Allow: []string{"tables/**", "add:table"}}, paths: []string{"tables/refunds.ts"},
			changes: []defchange.DefChange{addTable}},
		{name: "a narrowing deny refuses", policy: narrowed(t, &Policy{Allow: []string{"**"}}, &Policy{Deny: []string{"tables/**"}}), paths: paths, changes: change,
			refused: true, rule: "tables/**"},
		{name: "a narrowing deny of the default policy", policy: narrowed(t, nil, &Policy{Deny: []string{"change:column"}}), paths: paths, changes: change,
			refused: true, rule: "change:column"},
		{name: "a narrowing ask asks", policy: narrowed(t, nil, &Policy{Ask: []string{"change:column"}}), paths: paths, changes: change,
			ask: []string{`change:column orders.total (ask rule "change:column")`}},
		{name: "a narrowing ask lets nothing more through", policy: narrowed(t, &Policy{Allow: []string{"lib/**"}}, &Policy{Ask: []string{"tables/**"}}), paths: paths, changes: change,
			refused: true},
		{name: "a narrowing ask lets no denied path through", policy: narrowed(t, &Policy{Deny: []string{"tables/**"}}, &Policy{Ask: []string{"tables/**"}}), paths: paths, changes: change,
			refused: true, rule: "tables/**"},
		{name: "the operator's ask and a narrowing one", policy: narrowed(t, &Policy{Ask: []string{"tables/**"}}, &Policy{Ask: []string{"change:column"}}), paths: paths, changes: change,
			ask: []string{`tables/orders.ts (ask rule "tables/**")`, `change:column orders.total (ask rule "change:column")`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ask, err := tc.policy.Judge(tc.paths, tc.changes)
			if !tc.refused {
				if err != nil {
					t.Fatalf("Judge = %v; want no refusal", err)
				}
				if !slices.Equal(ask, tc.ask) {
					t.Errorf("asked %q; want %q", ask, tc.ask)
				}
				return
			}
			var te *diag.ToolError
			if !errors.As(err, &te) || te.Code != diag.T9105 {
				t.Fatalf("Judge = %v, %v; want a T9105 refusal", ask, err)
			}
			if got, _ := te.Data["rule"].(string); got != tc.rule {
				t.Errorf("refused by rule %q; want %q (%v)", got, tc.rule, err)
			}
		})
	}
}

// TestValidate refuses unknown words and malformed rules, and Lets answers
// only what also names.
func TestValidate(t *testing.T) {
	for _, bad := range []Policy{
		{Allow: []string{""}}, {Deny: []string{"drop:table"}}, {Ask: []string{"rename:index"}},
		{Allow: []string{"lib/[x"}}, {Also: []string{"everything"}}, {Trust: []string{"rename"}},
	} {
		if err := bad.Validate(); err == nil {
			t.Errorf("Validate(%+v) = nil; want an error", bad)
		}
	}
	good := Policy{Allow: []string{"**", "*:table"}, Also: []string{AlsoEngine, AlsoShell}, Trust: []string{TrustRun}}
	if err := good.Validate(); err != nil {
		t.Errorf("Validate(%+v) = %v", good, err)
	}
	if !good.Lets(AlsoShell) || good.Lets(AlsoRunAsSystem) || (*Policy)(nil).Lets(AlsoEngine) {
		t.Error("Lets answers what also does not name")
	}
}

// narrowed is p narrowed by by, which must be let.
func narrowed(t *testing.T, p, by *Policy) *Policy {
	t.Helper()
	n, err := p.Narrow(by)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestNarrowNeverWidens: a narrowing policy with an allow, also or trust
// of its own is refused, and a narrowed policy lets no more be done.
func TestNarrowNeverWidens(t *testing.T) {
	op := &Policy{Allow: []string{"lib/**"}, Also: []string{AlsoEngine}}
	for _, by := range []*Policy{
		{Allow: []string{"**"}},
		{Also: []string{AlsoShell}},
		{Trust: []string{TrustRun}},
	} {
		if _, err := op.Narrow(by); err == nil {
			t.Errorf("Narrow(%+v) was let", by)
		}
	}
	n := narrowed(t, op, &Policy{Deny: []string{"lib/secret/**"}})
	if !n.Lets(AlsoEngine) || n.Lets(AlsoShell) {
		t.Errorf("the narrowed policy lets engine %v, shell %v; want the operator's", n.Lets(AlsoEngine), n.Lets(AlsoShell))
	}
	if len(op.Deny) != 0 {
		t.Errorf("Narrow changed the operator's policy: %+v", op)
	}
	if n, err := (*Policy)(nil).Narrow(nil); err != nil || n != nil {
		t.Errorf("nil narrowed by nil: %v %v", n, err)
	}
	if n := narrowed(t, nil, &Policy{Deny: []string{"x/**"}}); n.Lets(AlsoShell) || n.Lets(AlsoEngine) {
		t.Error("the default policy narrowed lets more")
	}
}
