package tools

import (
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/policy"
)

func TestParsePolicy(t *testing.T) {
	// The example of docs/pages/policy.md.
	p, err := ParsePolicy([]byte(`{
	  "allow": ["**"],
	  "deny":  ["lib/vendor/**", "remove:table"],
	  "ask":   ["tables/**", "rename:column"],
	  "also":  ["engine", "runAsSystem"],
	  "trust": ["run"]
	}`))
	if err != nil {
		t.Fatal(err)
	}
	if !p.Lets(policy.AlsoEngine) || !p.Lets(policy.AlsoRunAsSystem) || len(p.Deny) != 2 {
		t.Errorf("parsed %+v", p)
	}
	var none *Policy
	if none.Lets(policy.AlsoEngine) || (&Policy{Allow: []string{"**"}}).Lets(policy.AlsoEngine) {
		t.Error("the default policy lets engine")
	}
	bad := []struct{ json, message string }{
		{`{"allow": ["**"], "deny": ["x"], "extra": 1}`, `unknown field "extra"`},
		{`{"Also": ["engine"]}`, `unknown field "Also"`},
		{`{"also": ["everything"]}`, `also: unknown name "everything"`},
		{`{"trust": ["rename"]}`, `trust: unknown name "rename"`},
		{`{"deny": ["drop:table"]}`, `unknown action "drop"`},
		{`{"ask": ["rename:index"]}`, `unknown kind "index"`},
		{`{"allow": ["lib/[x"]}`, `not a valid path glob`},
		{`{"allow": [""]}`, `empty rule`},
		{`{"allow": ["**"]} {}`, `more than one JSON value`},
		{`[]`, `must be a JSON object`},
	}
	for _, b := range bad {
		_, err := ParsePolicy([]byte(b.json))
		if err == nil || !strings.Contains(err.Error(), b.message) {
			t.Errorf("ParsePolicy(%s) = %v; want an error with %q", b.json, err, b.message)
		}
	}
}
