package remove

import (
	"path/filepath"
	"testing"

	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/change/changetest"
	"github.com/tent-tools/tent-tools/definitions"
)

// TestRemove removes over sample projects and compares the diff of every
// changed file and the answer with a golden file; then it re-indexes the
// result and asserts no new T1xxx finding (changetest.Projects.Golden).
func TestRemove(t *testing.T) {
	tests := []struct {
		golden, project, name, path string
	}{
		// Columns: the property, indexes (an index left empty goes),
		// `removed` extended or made, test data keys (a nested json key
		// untouched), was names stated, code sites and places left.
		{"column-buyer", "refactor-basic", "orders.buyer", ""},
		{"column-with-was", "refactor-basic", "orders.placedAt", ""},
		{"column-last-index", "refactor-basic", "people.email", ""},
		{"column-makes-removed", "refactor-basic", "people.nickname", ""},
		{"column-last-of-table", "refactor-basic", "categories.label", ""},
		{"column-json", "refactor-basic", "orders.meta", ""},
		// Tables: the statement (or the file), project.ts's removed, test
		// data deleted, refs and imports of other files left.
		{"table-own-file", "refactor-basic", "orders", ""},
		{"table-neighbour", "refactor-basic", "categories", ""},
		{"table-with-was", "refactor-basic", "products", ""},
		{"table-users", "refactor-basic", "people", ""},
		// Functions, flows, screens.
		{"fn", "refactor-basic", "placeOrder", ""},
		{"flow-only-definition", "refactor-basic", "checkout", ""},
		{"screen", "refactor-basic", "ordersScreen", ""},
		// Files.
		{"file-two-tables", "refactor-basic", "", "tables/catalog.ts"},
		{"file-lib", "refactor-basic", "", "lib/report.ts"},
		{"file-testdata", "refactor-basic", "", "testdata/orders.json"},
		// Names already in removed are not written twice.
		{"conflict-column", "refactor-conflict", "orders.note", ""},
		{"conflict-table", "refactor-conflict", "orders", ""},
		// CRLF files stay CRLF.
		{"crlf-column-makes-removed", "refactor-basic+crlf", "people.nickname", ""},
		{"crlf-column-json", "refactor-basic+crlf", "orders.meta", ""},
		{"crlf-table-neighbour", "refactor-basic+crlf", "categories", ""},
		{"style-crlf-table-last", "refactor-style+crlf", "teams", ""},
		// Another style: double quotes, four spaces, no trailing commas.
		{"style-column", "refactor-style", "members.handle", ""},
		{"style-table-last", "refactor-style", "teams", ""},
		{"style-crlf-column", "refactor-style+crlf", "members.handle", ""},
		// Refusals.
		{"refuse-unknown", "refactor-basic", "nothing", ""},
		{"refuse-unknown-column", "refactor-basic", "orders.nothing", ""},
		{"refuse-id", "refactor-basic", "orders.id", ""},
		{"refuse-unknown-file", "refactor-basic", "", "tables/nothing.ts"},
	}
	projects := &changetest.Projects{Dir: "../testdata/projects"}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			projects.Golden(t, tt.project, filepath.Join("testdata", tt.golden+".golden"), func(ix *definitions.Index) (*change.Set, any, error) {
				var s *change.Set
				var err error
				if tt.path != "" {
					s, err = PlanFile(ix, tt.path)
				} else {
					s, err = Plan(ix, tt.name)
				}
				if err != nil {
					return nil, nil, err
				}
				a, err := NewAnswer(s)
				return s, a, err
			})
		})
	}
}
