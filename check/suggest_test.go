package check

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/internal/spelling"
)

func TestSuggest(t *testing.T) {
	tables := []string{"users", "orders", "orderItems", "products", "categories"}
	cases := []struct {
		name, want string
	}{
		{"user", "users"},          // singular of a table
		{"category", "categories"}, // y -> ies
		{"ordrs", "orders"},        // one edit
		{"prodcts", "products"},    // one edit
		{"odrers", "orders"},       // a swap
		{"odrres", "orders"},       // two edits
		{"orderItem", "orderItems"},
		{"invoices", ""}, // nothing near
		{"users", ""},    // itself is no suggestion
		{"ab", ""},       // too short for two edits to mean anything
	}
	for _, c := range cases {
		if got := suggest(c.name, tables); got != c.want {
			t.Errorf("suggest(%q) = %q, want %q", c.name, got, c.want)
		}
	}
	// A tie at the smallest distance is no certain suggestion.
	if got := suggest("cat", []string{"bat", "car"}); got != "" {
		t.Errorf("tie: got %q, want none", got)
	}
}

// TestSuggestAsWritten: suggest answers what its rule says, written out
// plainly (every distance in full, plurals by concatenation), over random
// names of a small alphabet, so that near misses, plurals and ties abound.
func TestSuggestAsWritten(t *testing.T) {
	plural := func(singular, plural string) bool {
		return singular != "" && plural != "" && (plural == singular+"s" || plural == singular+"es" ||
			strings.HasSuffix(singular, "y") && plural == strings.TrimSuffix(singular, "y")+"ies")
	}
	written := func(name string, candidates []string) string {
		best, bestDist, tie := "", 3, false
		for _, c := range candidates {
			if c == name {
				continue
			}
			if plural(name, c) || plural(c, name) {
				return c
			}
			d := spelling.Distance(name, c)
			if d > 2 || 2*d >= max(len(name), len(c)) {
				continue
			}
			switch {
			case d < bestDist:
				best, bestDist, tie = c, d, false
			case d == bestDist:
				tie = true
			}
		}
		if tie {
			return ""
		}
		return best
	}
	rng := rand.New(rand.NewPCG(3, 4))
	word := func() string {
		b := make([]byte, 1+rng.IntN(7))
		for i := range b {
			b[i] = "aeisy"[rng.IntN(5)]
		}
		return string(b)
	}
	for range 3000 {
		candidates := make([]string, rng.IntN(12))
		for i := range candidates {
			candidates[i] = word()
		}
		name := word()
		if got, want := suggest(name, candidates), written(name, candidates); got != want {
			t.Fatalf("suggest(%q, %q) = %q, the rule says %q", name, candidates, got, want)
		}
	}
}

func TestRouteShape(t *testing.T) {
	if routeShape("/orders/:id") != routeShape("/orders/:status/") {
		t.Error("routes that differ only in parameter names must clash")
	}
	if routeShape("/orders/:id") == routeShape("/orders/new") {
		t.Error("a parameter and a fixed segment must not clash")
	}
}

// TestRules checks the list of rules: one per code, in code order, each
// with a title and help, and a severity.
func TestRules(t *testing.T) {
	rules := Rules()
	for i, r := range rules {
		if r.Title == "" || r.Help == "" || r.Severity == "" {
			t.Errorf("%s lacks a title, help or severity", r.Code)
		}
		if i > 0 && rules[i-1].Code >= r.Code {
			t.Errorf("%s after %s: codes must be unique and in order", r.Code, rules[i-1].Code)
		}
	}
}
