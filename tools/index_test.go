package tools

import (
	"os"
	"path/filepath"
	"testing"
)

func TestIndexFollowsTheDisk(t *testing.T) {
	w, dir := openCopy(t, Options{})
	ctx := t.Context()
	ix1, err := w.Index(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if ix1.Definition("orders") == nil || ix1.Definition("placeOrder") == nil {
		t.Fatal("the index of shop lacks orders or placeOrder")
	}
	if ix, _ := w.Index(ctx); ix != ix1 {
		t.Error("an unchanged project gave a new snapshot")
	}

	// A tool's write updates the index; other files stay shared.
	if _, err := call(w, "edit", `{"path": "tables/orders.ts", "find": "export const orders", "with": "export const purchases"}`); err != nil {
		t.Fatal(err)
	}
	ix2, _ := w.Index(ctx)
	if ix2.Definition("purchases") == nil || ix2.Definition("orders") != nil {
		t.Error("the edit did not reach the index")
	}
	if ix2.File("tables/users.ts") != ix1.File("tables/users.ts") {
		t.Error("an unchanged file was indexed again")
	}

	// Changes made outside the tools are found at the next call.
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("tables/coupons.ts", "import { table, text } from 'tent'\nexport const coupons = table({ columns: { code: text() } })\n")
	if err := os.Remove(filepath.Join(dir, "flows/fulfilment.ts")); err != nil {
		t.Fatal(err)
	}
	ix3, _ := w.Index(ctx)
	if ix3.Definition("coupons") == nil || ix3.Definition("fulfilment") != nil {
		t.Error("a new or removed file did not reach the index")
	}
	if ix3.File("tables/users.ts") != ix1.File("tables/users.ts") {
		t.Error("an unchanged file was indexed again")
	}

	// A changed .gitignore builds the index anew.
	write(".gitignore", ".tent/\ntables/coupons.ts\n")
	ix4, _ := w.Index(ctx)
	if ix4.Definition("coupons") != nil {
		t.Error("a file that .gitignore now names is still indexed")
	}
}
