package runner

import (
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/runner/testdb"
)

// asSystem is the `as` that runs as the system.
const asSystem = "system"

// findUser answers the row of the users table that as names: by id first,
// then by its email, then by its name column (docs/pages/format.md §2.5). A name that
// two rows share is refused: the id says which.
func findUser(tx *testdb.Tx, a *app, as string) (testdb.Row, error) {
	users := a.tables[a.users]
	if users == nil {
		return nil, diag.Errorf(diag.T9103, "as %q: the project has no users table %s", as, a.users)
	}
	row, err := tx.Get(a.users, as)
	if err != nil {
		return nil, err
	}
	if row != nil {
		return row, nil
	}
	for _, col := range []string{"email", "name"} {
		if users.Schema.Column(col) == nil {
			continue
		}
		rows, err := tx.Select(a.users, testdb.Query{Match: map[string]any{col: as}, Limit: 2})
		if err != nil {
			return nil, err
		}
		switch len(rows) {
		case 1:
			return rows[0], nil
		case 2:
			return nil, diag.Errorf(diag.T9102, "as %q: more than one row of %s has that %s; use the id", as, a.users, col)
		}
	}
	return nil, diag.Errorf(diag.T9103, "as %q: no row of %s has that id, email or name", as, a.users)
}
