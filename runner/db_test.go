package runner

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/definitions"
)

// edit replaces old with new in a file of the project at root.
func edit(t *testing.T, root, file, old, new string) {
	t.Helper()
	p := filepath.Join(root, file)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s does not hold %q", file, old)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// ids answers the ids of rows.
func ids(t *testing.T, rows *Rows) []string {
	t.Helper()
	var out []string
	for _, r := range rows.Rows {
		var m map[string]any
		if err := json.Unmarshal(r, &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m["id"].(string))
	}
	return out
}

func TestRenameWithWasKeepsRows(t *testing.T) {
	root := shopWithProbe(t)
	r := newRunner(t, root, Config{})
	ctx := context.Background()
	order := json.RawMessage(`{"buyer":"u3","items":[{"product":"p2","quantity":1}],"shipTo":"Leith"}`)
	if _, err := r.Run(ctx, index(t, root), Request{Name: "placeOrder", As: "u3", Trusted: true, Input: order}); err != nil {
		t.Fatal(err)
	}

	// Rename the table orders to purchases, and its column buyer to
	// customer, each stating its old name in was; the code follows.
	edit(t, root, "tables/orders.ts", "export const orders = table({", "export const purchases = table({\n  was: 'orders',")
	edit(t, root, "tables/orders.ts", "buyer: ref('users'),", "customer: ref('users', { was: 'buyer' }),")
	edit(t, root, "tables/orders.ts", "ctx.user?.id === row.buyer || ctx.user?.role === 'staff',\n    write", "ctx.user?.id === row.customer || ctx.user?.role === 'staff',\n    write")
	edit(t, root, "functions/probe.ts", "(await ctx.db.orders.all()).map((o) => o.id)", "(await ctx.db.purchases.where({ customer: ctx.user.id })).map((o) => o.id)")
	res, err := r.Run(ctx, index(t, root), Request{Name: "myOrders", As: "u3"})
	if err != nil {
		t.Fatal(err)
	}
	if got := decode(t, res.Result); !reflect.DeepEqual(got, []any{"o1", "o2", "orders_1"}) {
		t.Errorf("u3's purchases after the rename = %v, want the two test rows and the one the run added", got)
	}

	// A second Runner (a new process) sees the migrated database as it is.
	r2 := newRunner(t, root, Config{})
	rows, err := r2.Rows(ctx, index(t, root), "purchases", 0)
	if err != nil {
		t.Fatal(err)
	}
	if rows.Total != 5 {
		t.Errorf("purchases has %d rows, want 5", rows.Total)
	}
}

func TestDriftRefusesRun(t *testing.T) {
	root := shopWithProbe(t)
	r := newRunner(t, root, Config{})
	ctx := context.Background()
	if _, err := r.Run(ctx, index(t, root), Request{Name: "listProducts"}); err != nil {
		t.Fatal(err)
	}
	// shippedAt vanishes from orders without being named in removed.
	edit(t, root, "tables/orders.ts", "    shippedAt: time({ optional: true }),\n", "")
	ix := index(t, root)
	_, err := r.Run(ctx, ix, Request{Name: "listProducts"})
	te := toolError(t, err, "T2011")
	if !reflect.DeepEqual(te.Data["drift"], []string{"column orders.shippedAt"}) {
		t.Errorf("drift = %v", te.Data["drift"])
	}
	fs := Drift(ctx, ix, TestDBPath(root))
	if len(fs) != 1 || fs[0].Code != "T2011" || fs[0].Path != "tables/orders.ts" || fs[0].Line != 3 || fs[0].Definition != "orders" {
		t.Fatalf("Drift = %v", fs)
	}
	if !strings.Contains(fs[0].Message, `add "shippedAt" to removed on orders`) {
		t.Errorf("message = %q", fs[0].Message)
	}

	// Stated in removed, the column is dropped and runs go on.
	edit(t, root, "tables/orders.ts", "removed: ['couponCode'],", "removed: ['couponCode', 'shippedAt'],")
	ix = index(t, root)
	if fs := Drift(ctx, ix, TestDBPath(root)); len(fs) != 0 {
		t.Errorf("Drift after stating it = %v", fs)
	}
	if _, err := r.Run(ctx, ix, Request{Name: "listProducts"}); err != nil {
		t.Errorf("run after stating the drop: %v", err)
	}

	// A table dropped without removed on project.
	edit(t, root, "tables/reviews.ts", "export const reviews = table({", "const reviews = table({")
	edit(t, root, "functions/catalogue.ts", "return ctx.db.reviews.insert", "return ctx.db.products.get")
	ix = index(t, root)
	fs = Drift(ctx, ix, TestDBPath(root))
	if len(fs) != 1 || fs[0].Path != "project.ts" || !strings.Contains(fs[0].Message, "table reviews") {
		t.Errorf("Drift of a table = %v", fs)
	}
}

func TestDriftOfNoDatabase(t *testing.T) {
	root := project(t, "shop")
	if fs := Drift(context.Background(), index(t, root), TestDBPath(root)); fs != nil {
		t.Errorf("Drift without a database = %v", fs)
	}
	if _, err := os.Stat(TestDBPath(root)); err == nil {
		t.Error("Drift made a database")
	}
}

func TestRollbackOfFailedRun(t *testing.T) {
	root := project(t, "shop")
	ix := index(t, root)
	r := newRunner(t, root, Config{})
	ctx := context.Background()
	// p1 is in stock and is taken off the shelf first; p3 is not: the run
	// fails, and p1's stock must be as it was.
	_, err := r.Run(ctx, ix, Request{Name: "reserveStock", As: "u2", Input: json.RawMessage(`{"items":[{"product":"p1","quantity":1},{"product":"p3","quantity":1}]}`)})
	te := toolError(t, err, "T4003")
	if !strings.HasPrefix(te.Message, "only 0 of Hand grinder left (at functions/orders.ts:") {
		t.Errorf("message = %q", te.Message)
	}
	res, err := r.Run(ctx, ix, Request{Name: "listProducts"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(res.Result), `"name":"Cast iron pan","price":"49.00 EUR","stock":14`) {
		t.Errorf("p1 after the failed run: %s", res.Result)
	}
}

func TestRowsHidePrivateColumns(t *testing.T) {
	root := project(t, "shop")
	ix := index(t, root)
	r := newRunner(t, root, Config{})
	ctx := context.Background()
	rows, err := r.Rows(ctx, ix, "orders", 2)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(rows)
	want := `{"table":"orders","rows":[` +
		`{"id":"o1","buyer":"u3","total":8350,"status":"shipped","placedAt":"2024-06-01T10:12:00Z","shippedAt":"2024-06-02T08:30:00Z"},` +
		`{"id":"o2","buyer":"u3","total":6500,"status":"paid","placedAt":"2024-06-10T16:45:00Z","shippedAt":null}],` +
		`"hidden":["note","shipTo"],"total":4}`
	if string(b) != want {
		t.Errorf("rows =\n%s\nwant\n%s", b, want)
	}
	for _, c := range []struct {
		table string
		limit int
		code  string
	}{{"nope", 0, "T9103"}, {"placeOrder", 0, "T9103"}, {"orders", -1, "T9102"}} {
		if _, err := r.Rows(ctx, ix, c.table, c.limit); code(err) != c.code {
			t.Errorf("rows %s limit %d: err = %v, want %s", c.table, c.limit, err, c.code)
		}
	}
	all, _ := r.Rows(ctx, ix, "users", 0)
	if len(all.Rows) != 4 || !reflect.DeepEqual(all.Hidden, []string{"passwordHash", "address"}) {
		t.Errorf("users: %d rows, hidden %v", len(all.Rows), all.Hidden)
	}
}

func TestLogs(t *testing.T) {
	root := project(t, "shop")
	ix := index(t, root)
	r := newRunner(t, root, Config{})
	ctx := context.Background()
	r.Run(ctx, ix, Request{Name: "listProducts"})
	r.Run(ctx, ix, Request{Name: "addReview", As: "u3", Input: json.RawMessage(`{"product":"p1","rating":9}`)})
	r.Run(ctx, ix, Request{Name: "placeOrder", As: "chen@example.com", Trusted: true,
		Input: json.RawMessage(`{"buyer":"u3","items":[{"product":"p2","quantity":1}],"shipTo":"4 Harbour Street","note":"ring twice"}`)})
	r.Run(ctx, ix, Request{Name: "myOrders"})

	logs, err := r.Logs(ctx, LogsQuery{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range logs.Entries {
		names = append(names, e.Name)
	}
	if !reflect.DeepEqual(names, []string{"myOrders", "placeOrder", "addReview", "listProducts"}) {
		t.Fatalf("logs = %v, want the four runs newest first", names)
	}
	placed := logs.Entries[1]
	if placed.As != "chen@example.com" || placed.MS <= 0 || placed.Error != nil {
		t.Errorf("placeOrder entry = %+v", placed)
	}
	if in := string(placed.Input); strings.Contains(in, "ring twice") || strings.Contains(in, "Harbour") || !strings.Contains(in, `"note":"(private)"`) {
		t.Errorf("the log shows a private input: %s", in)
	}
	failed := logs.Entries[2]
	if failed.Error == nil || failed.Error.Code != "T4003" || failed.Error.Data["at"] != "functions/catalogue.ts:29:13" {
		t.Errorf("addReview entry = %+v", failed)
	}

	errs, err := r.Logs(ctx, LogsQuery{Errors: true})
	if err != nil || len(errs.Entries) != 2 {
		t.Errorf("errors only: %d entries, %v; want addReview and myOrders", len(errs.Entries), err)
	}
	recent, err := r.Logs(ctx, LogsQuery{Since: "10m"})
	if err != nil || len(recent.Entries) != 4 {
		t.Errorf("since 10m: %d entries, %v", len(recent.Entries), err)
	}
	future, err := r.Logs(ctx, LogsQuery{Since: time.Now().Add(time.Hour).Format(time.RFC3339)})
	if err != nil || len(future.Entries) != 0 {
		t.Errorf("since an hour ahead: %d entries, %v", len(future.Entries), err)
	}
	if _, err := r.Logs(ctx, LogsQuery{Since: "last week"}); code(err) != "T9102" {
		t.Errorf("a bad since: %v", err)
	}
}

func TestReset(t *testing.T) {
	root := project(t, "shop")
	ix := index(t, root)
	r := newRunner(t, root, Config{})
	ctx := context.Background()
	if _, err := r.Run(ctx, ix, Request{Name: "addReview", As: "u3", Input: json.RawMessage(`{"product":"p1","rating":4}`)}); err != nil {
		t.Fatal(err)
	}
	before, _ := r.Rows(ctx, ix, "reviews", 0)
	if err := r.Reset(ctx, ix); err != nil {
		t.Fatal(err)
	}
	after, _ := r.Rows(ctx, ix, "reviews", 0)
	if before.Total != 5 || after.Total != 4 || slices.Contains(ids(t, after), "reviews_1") {
		t.Errorf("reviews before reset %d, after %d (%v)", before.Total, after.Total, ids(t, after))
	}
}

// reader is an Approver that reads the test database while it is asked,
// as a person's other tools might, and says yes.
type reader struct {
	r   *Runner
	ix  *definitions.Index
	err error
}

func (a *reader) Approve(ctx context.Context, q string) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	_, a.err = a.r.Rows(ctx, a.ix, "orders", 1)
	return true, nil
}

func TestAskingHoldsNoLock(t *testing.T) {
	root := project(t, "shop")
	ix := index(t, root)
	r := newRunner(t, root, Config{})
	a := &reader{r: r, ix: ix}
	_, err := r.Run(context.Background(), ix, Request{Name: "placeOrder", As: "u3", Approver: a,
		Input: json.RawMessage(`{"buyer":"u3","items":[{"product":"p2","quantity":1}],"shipTo":"Leith"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if a.err != nil {
		t.Errorf("reading the test database while the person is asked: %v", a.err)
	}
}
