package tools

import (
	"context"
	"strings"
	"testing"
)

// TestNavigate: what a position names, where it is declared, its hover
// text and the symbol search, on the sample's index.
func TestNavigate(t *testing.T) {
	w, _ := openCopy(t, Options{})
	ix, err := w.Index(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	src := string(ix.File("tables/orders.ts").Src)
	tests := []struct {
		at, name string
		plain    bool
	}{
		{"buyer:", "orders.buyer", true},
		{"orders = table", "orders", true},
		{"'users'", "users", true},
	}
	for _, tt := range tests {
		off := strings.Index(src, tt.at) + 1
		got, ok := TargetAt(ix, "tables/orders.ts", off)
		if !ok || got.Name != tt.name || got.Plain != tt.plain {
			t.Errorf("at %q: %+v %v; want %s", tt.at, got, ok, tt.name)
			continue
		}
		if path, span, ok := Declaration(ix, got.Name); !ok || path == "" || span.End <= span.Start {
			t.Errorf("%s declared at %s %+v %v", got.Name, path, span, ok)
		}
	}
	if h := Describe(ix, "orders.buyer"); !strings.Contains(h, "**column orders.buyer** `ref('users')`") {
		t.Errorf("hover: %s", h)
	}
	syms := Symbols(ix, "ordbuy", 10)
	if len(syms) == 0 || syms[0].Name != "orders.buyer" || !syms[0].Column || syms[0].Container != "orders" {
		t.Errorf("symbols of ordbuy: %+v", syms)
	}
	if all := Symbols(ix, "", 3); len(all) != 3 {
		t.Errorf("the empty query answers %d symbols, want the limit 3", len(all))
	}
}
