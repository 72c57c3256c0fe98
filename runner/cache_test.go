package runner

import (
	"context"
	"encoding/json"
	"testing"
)

func TestBundleCache(t *testing.T) {
	root := project(t, "shop")
	ctx := context.Background()
	placeOrder := Request{Name: "placeOrder", As: "u3", Trusted: true,
		Input: json.RawMessage(`{"buyer":"u3","items":[{"product":"p2","quantity":1}],"shipTo":"Leith"}`)}

	ix := index(t, root)
	r1 := newRunner(t, root, Config{})
	if _, err := r1.Run(ctx, ix, placeOrder); err != nil {
		t.Fatal(err)
	}
	// functions/orders.ts, and tables/orders.ts and tables/users.ts for
	// their may rules (products has only a write rule, and is only read).
	first := r1.cache.builds.Load()
	if first != 3 {
		t.Errorf("first run bundled %d files, want 3", first)
	}
	if _, err := r1.Run(ctx, ix, placeOrder); err != nil {
		t.Fatal(err)
	}
	if n := r1.cache.builds.Load(); n != first {
		t.Errorf("a second run in the same process bundled %d more", n-first)
	}

	// A new Runner, as in a new process: the disk cache serves every bundle.
	r2 := newRunner(t, root, Config{})
	if _, err := r2.Run(ctx, index(t, root), placeOrder); err != nil {
		t.Fatal(err)
	}
	if n := r2.cache.builds.Load(); n != 0 {
		t.Errorf("a new process of an unchanged project bundled %d files", n)
	}

	// A change to lib/money.ts, which functions/orders.ts imports, rebuilds
	// that bundle only.
	edit(t, root, "lib/money.ts", "return `${sign}${whole}.${rest} ${currency}`", "return `${currency} ${sign}${whole}.${rest}`")
	res, err := r2.Run(ctx, index(t, root), placeOrder)
	if err != nil {
		t.Fatal(err)
	}
	if n := r2.cache.builds.Load(); n != 1 {
		t.Errorf("after a change to lib/money.ts %d files were bundled, want 1", n)
	}
	if got := res.Sent[0].Text; got != "Thank you, Chen Wei. Your order comes to EUR 34.50." {
		t.Errorf("the run used stale code: %q", got)
	}
}
