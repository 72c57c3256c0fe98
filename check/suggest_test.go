package check

import "testing"

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
