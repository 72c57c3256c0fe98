package rename

import (
	"context"
	"errors"
	"maps"
	"path/filepath"
	"testing"

	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/change/changetest"
	"github.com/tent-tools/tent-tools/definitions"
)

// TestRename renames over sample projects and compares the diff of every
// changed file and the answer with a golden file; then it re-indexes the
// result and asserts no new T1xxx finding (changetest.Projects.Golden).
func TestRename(t *testing.T) {
	tests := []struct {
		golden, project, name, to string
	}{
		// Tables: the name, its own `was`, ref, users, imports (aliased,
		// barrel, re-exported, namespace), identifiers, shorthand, the test
		// data file, code sites.
		{"table-orders", "refactor-basic", "orders", "purchases"},
		{"table-users", "refactor-basic", "people", "customers"},
		{"table-with-was", "refactor-basic", "products", "wares"},
		{"table-back-to-was", "refactor-basic", "products", "items"},
		{"table-neighbour", "refactor-basic", "categories", "sections"},
		{"table-column-has-was", "refactor-basic", "orders", "sales"},
		// Columns: the key, `was` made / extended / cut, indexes, test data
		// keys (a nested json key untouched), code sites.
		{"column-buyer", "refactor-basic", "orders.buyer", "customer"},
		{"column-qualified-to", "refactor-basic", "orders.total", "orders.amount"},
		{"column-was-string", "refactor-basic", "orders.placedAt", "orderedAt"},
		{"column-back-to-was", "refactor-basic", "orders.placedAt", "created"},
		{"column-was-array", "refactor-basic", "people.nickname", "handleName"},
		{"column-back-to-first-was", "refactor-basic", "people.nickname", "handle"},
		{"column-back-to-second-was", "refactor-basic", "people.nickname", "alias"},
		{"column-with-options", "refactor-basic", "people.email", "mail"},
		// Functions, flows, screens.
		{"fn-step-and-call", "refactor-basic", "placeOrder", "submitOrder"},
		{"fn-chargeCard", "refactor-basic", "chargeCard", "chargePayment"},
		{"flow", "refactor-basic", "checkout", "payAndPlace"},
		{"screen", "refactor-basic", "ordersScreen", "orderList"},
		// A project already in conflict: removed and was entries that name
		// the renamed thing follow it, so the check still reports them.
		{"conflict-column", "refactor-conflict", "orders.note", "remark"},
		{"conflict-table", "refactor-conflict", "orders", "purchases"},
		// CRLF files stay CRLF.
		{"crlf-table-orders", "refactor-basic+crlf", "orders", "purchases"},
		{"crlf-column-buyer", "refactor-basic+crlf", "orders.buyer", "customer"},
		{"crlf-column-back-to-was", "refactor-basic+crlf", "orders.placedAt", "created"},
		// Another style: double quotes, four spaces, no trailing commas,
		// a `was` over several lines.
		{"style-column-was-lines", "refactor-style", "members.handle", "moniker"},
		{"style-column-cut-to-string", "refactor-style", "members.handle", "alias"},
		{"style-column-cut-whole", "refactor-style", "members.handle", "nick"},
		{"style-table", "refactor-style", "members", "people"},
		{"style-crlf-column-cut-whole", "refactor-style+crlf", "members.handle", "nick"},
		// Rows followed through the code: ctx.user (clinic's users are
		// staff), a helper given to map, an element of what map gives
		// through Promise.all and an object, what ctx.call gives.
		{"column-row-ctx-user", "clinic", "staff.name", "displayName"},
		{"column-row-mapped", "clinic", "staff.email", "mail"},
		{"column-row-ctx-call", "clinic", "visits.reason", "why"},
		// Refusals.
		{"refuse-taken-definition", "refactor-basic", "orders", "people"},
		{"refuse-taken-across-kinds", "refactor-basic", "orders", "placeOrder"},
		{"refuse-taken-column", "refactor-basic", "orders.buyer", "total"},
		{"refuse-column-was-of-another", "refactor-basic", "orders.total", "created"},
		{"refuse-column-key-in-test-data", "refactor-basic", "people.name", "vip"},
		{"refuse-column-removed", "refactor-basic", "orders.total", "couponCode"},
		{"refuse-table-removed", "refactor-basic", "orders", "coupons"},
		{"refuse-table-was-of-another", "refactor-basic", "orders", "items"},
		{"refuse-not-identifier", "refactor-basic", "orders", "2orders"},
		{"refuse-not-identifier-dash", "refactor-basic", "orders.buyer", "the-buyer"},
		{"refuse-reserved", "refactor-basic", "orders", "delete"},
		{"refuse-reserved-column", "refactor-basic", "orders.buyer", "class"},
		{"refuse-id", "refactor-basic", "orders.buyer", "id"},
		{"refuse-test-database-name", "refactor-basic", "orders", "_tent_seq"},
		{"refuse-test-database-name-column", "refactor-basic", "orders.buyer", "_tent_x"},
		{"refuse-sqlite-name", "refactor-basic", "orders", "sqlite_master"},
		{"refuse-sqlite-name-column", "refactor-basic", "orders.buyer", "SQLITE_x"},
		{"refuse-same", "refactor-basic", "orders", "orders"},
		{"refuse-unknown", "refactor-basic", "nothing", "something"},
		{"refuse-unknown-column", "refactor-basic", "orders.nothing", "something"},
		{"refuse-id-column", "refactor-basic", "orders.id", "key"},
		{"refuse-input-field", "refactor-basic", "placeOrder.buyer", "customer"},
		{"refuse-capture", "refactor-basic", "orders", "order"},
		{"table-import-alias-on-clash", "refactor-basic", "orders", "countOrders"},
		{"table-import-alias-becomes-name", "refactor-basic", "orders", "o"},
		{"table-export-alias-becomes-name", "refactor-basic", "products", "goods"},
	}
	projects := &changetest.Projects{Dir: "../testdata/projects"}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			projects.Golden(t, tt.project, filepath.Join("testdata", tt.golden+".golden"), func(ix *definitions.Index) (*change.Set, any, error) {
				s, err := Plan(context.Background(), ix, tt.name, tt.to)
				if err != nil {
					return nil, nil, err
				}
				a, err := NewAnswer(s)
				return s, a, err
			})
		})
	}
}

// TestPlanRenamed: a plan names what it renames on purpose as data, by
// full names, so that the pipeline's definition diff takes it as a rename
// without reading the set's strings again (a column given with its table
// or bare, a definition).
func TestPlanRenamed(t *testing.T) {
	ix, err := definitions.Build(context.Background(), "../testdata/projects/refactor-basic")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, to string
		want     map[string]string
	}{
		{"orders", "purchases", map[string]string{"orders": "purchases"}},
		{"orders.buyer", "customer", map[string]string{"orders.buyer": "orders.customer"}},
		{"orders.total", "orders.amount", map[string]string{"orders.total": "orders.amount"}},
		{"placeOrder", "submitOrder", map[string]string{"placeOrder": "submitOrder"}},
	}
	for _, tc := range tests {
		s, err := Plan(context.Background(), ix, tc.name, tc.to)
		if err != nil {
			t.Fatalf("Plan(%s, %s): %v", tc.name, tc.to, err)
		}
		if !maps.Equal(s.Renamed, tc.want) {
			t.Errorf("Plan(%s, %s).Renamed = %v; want %v", tc.name, tc.to, s.Renamed, tc.want)
		}
	}
}

// TestPlanCancelled: a rename whose context is done plans nothing and
// says why; the capture check's reading runs under the caller's context.
func TestPlanCancelled(t *testing.T) {
	ix, err := definitions.Build(context.Background(), "../testdata/projects/shop")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if s, err := Plan(ctx, ix, "orders", "purchases"); !errors.Is(err, context.Canceled) || s != nil {
		t.Errorf("Plan on a cancelled context: %v, %v; want context.Canceled", s, err)
	}
}
