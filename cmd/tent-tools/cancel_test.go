package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestChangesThatCancel runs, through the binary, the changes that cancel
// out (a rename and its rename back, an undone rename, an undone move into
// a new folder): compare shows nothing, and the undo leaves no folder of
// the move behind.
func TestChangesThatCancel(t *testing.T) {
	dir := shop(t)
	steps := []struct {
		args []string
		want string // stands in stdout
	}{
		{[]string{"rename", "orders.buyer", "customer"}, "renamed"},
		{[]string{"rename", "orders.customer", "buyer"}, "renamed"},
		{[]string{"compare", "0"}, "from point 0 to point 2, the app:\n  nothing changed\n"},
		{[]string{"rename", "orders.buyer", "customer"}, "renamed"},
		{[]string{"undo"}, "undid point 3"},
		{[]string{"compare", "2"}, "from point 2 to point 4, the app:\n  nothing changed\n"},
		{[]string{"compare", "3", "--to", "4"}, "rename:column orders.customer -> orders.buyer"},
		{[]string{"move", "lib/money.ts", "lib/deep/er/price.ts"}, ""},
		{[]string{"undo"}, "undid point 5"},
		{[]string{"compare", "4"}, "from point 4 to point 6, the app:\n  nothing changed\n"},
		{[]string{"compare", "5", "--to", "6"}, "rename:file lib/deep/er/price.ts -> lib/money.ts"},
		{[]string{"compare", "0"}, "from point 0 to point 6, the app:\n  nothing changed\n"},
	}
	for _, s := range steps {
		r := tentTools(t, dir, "", s.args...)
		if r.exit != 0 || !strings.Contains(r.stdout, s.want) {
			t.Fatalf("%v: exit %d, stdout:\n%s\nstderr: %s\nwant it to hold %q", s.args, r.exit, r.stdout, r.stderr, s.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "lib/deep")); !os.IsNotExist(err) {
		t.Errorf("the undo of the move left lib/deep behind (%v)", err)
	}
}

// TestChangedByFieldLine: changed-by of a column with a field path prints
// that field's line in the text answer, as the JSON answer has it.
func TestChangedByFieldLine(t *testing.T) {
	dir := shop(t)
	if r := tentTools(t, dir, "", "rename", "orders.buyer", "customer"); r.exit != 0 {
		t.Fatalf("rename: %s", r.stderr)
	}
	for _, tt := range []struct {
		args []string
		want []string
		not  []string
	}{
		{[]string{"changed-by", "orders.customer", "--path", "name"}, []string{"columns.customer.name: buyer -> customer"}, []string{"was:", "indexes"}},
		{[]string{"changed-by", "orders.customer"}, []string{"columns.customer.name: buyer -> customer", "columns.customer.was: (none) -> 'buyer'"}, []string{"indexes"}},
		{[]string{"changed-by", "orders", "--path", "indexes"}, []string{"indexes: [['buyer', 'placedAt'], ['status']] -> [['customer', 'placedAt'], ['status']]"}, []string{"columns.customer.name"}},
	} {
		r := tentTools(t, dir, "", tt.args...)
		for _, w := range tt.want {
			if r.exit != 0 || !strings.Contains(r.stdout, w) {
				t.Errorf("%v: exit %d, stdout:\n%s\nwant %q", tt.args, r.exit, r.stdout, w)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(r.stdout, n) {
				t.Errorf("%v: stdout holds %q:\n%s", tt.args, n, r.stdout)
			}
		}
	}
}

// TestRemoveQuotes: remove of a column writes its name in the quote of
// the `removed` list it joins, and a new `removed` in the quote most of the
// file's strings use, whatever the table's first string is quoted with.
func TestRemoveQuotes(t *testing.T) {
	dir := shop(t)
	orders := filepath.Join(dir, "tables/orders.ts")
	src, err := os.ReadFile(orders)
	if err != nil {
		t.Fatal(err)
	}
	// The table's strings in double quotes, its removed list in single.
	text := strings.NewReplacer(`ref('users')`, `ref("users")`, `['new', 'paid', 'shipped', 'cancelled'], { default: 'new' }`,
		`["new", "paid", "shipped", "cancelled"], { default: "new" }`).Replace(string(src))
	if err := os.WriteFile(orders, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := tentTools(t, dir, "", "remove", "orders.note"); r.exit != 0 {
		t.Fatalf("remove: %s", r.stderr)
	}
	// reviews.ts has no removed: a new one, in the file's majority
	// quote (single), though its first string is in double quotes.
	reviews := filepath.Join(dir, "tables/reviews.ts")
	rsrc, _ := os.ReadFile(reviews)
	if strings.Contains(string(rsrc), "removed") || !strings.Contains(string(rsrc), `ref('products')`) {
		t.Fatalf("reviews.ts is not as the test expects:\n%s", rsrc)
	}
	if err := os.WriteFile(reviews, []byte(strings.Replace(string(rsrc), `ref('products')`, `ref("products")`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := tentTools(t, dir, "", "remove", "reviews.body"); r.exit != 0 {
		t.Fatalf("remove reviews.body: %s", r.stderr)
	}
	got, _ := os.ReadFile(orders)
	if !strings.Contains(string(got), "removed: ['couponCode', 'note'],") {
		t.Errorf("orders.ts after remove orders.note:\n%s", got)
	}
	got, _ = os.ReadFile(reviews)
	if !strings.Contains(string(got), "removed: ['body']") {
		t.Errorf("reviews.ts after remove reviews.body:\n%s", got)
	}
}
