package testdb

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"sort"

	"github.com/tent-tools/tent-tools/schema"
)

// The test database keeps data both ways. A rename writes the old name
// into was, and Migrate renames the table or column by it; but an undo of
// the rename, or a rename back (which cuts was at the old name,
// docs/pages/format.md §3), leaves definitions that no longer say where the data is.
// So the database remembers, beside its tables, the names each of its
// tables and columns had (namesTable), and a live table or column that
// finds neither its name nor a was name takes the one table or column that
// no definition names and that was once called so. Likewise, what removed
// drops is kept aside (keptTable for a column's values, a table renamed
// under gonePrefix for a whole table) until a reset, and comes back when a
// definition names it again, as an undo of the remove does.

// namesTable keeps, for each table (col "") and column of the database by
// its current name, the earlier names the database knew it by.
const namesTable = internalPrefix + "names"

// keptTable keeps the values of columns that removed dropped, by the
// database table's name at the drop, with the column's declared type.
const keptTable = internalPrefix + "kept"

// gonePrefix starts the name a table removed on purpose is kept under.
const gonePrefix = internalPrefix + "gone_"

// lineageSteps are the schema steps of the tables above (schemaSteps).
var lineageSteps = []string{
	`CREATE TABLE ` + namesTable + ` (tbl TEXT NOT NULL, col TEXT NOT NULL, name TEXT NOT NULL, PRIMARY KEY (tbl, col, name))`,
	`CREATE TABLE ` + keptTable + ` (tbl TEXT NOT NULL, col TEXT NOT NULL, id TEXT NOT NULL, type TEXT NOT NULL, value, PRIMARY KEY (tbl, col, id))`,
}

// readEarlier adds to each table of have the earlier names the database
// knows its table and columns by.
func readEarlier(ctx context.Context, q querier, have map[string]*dbTable) error {
	rows, err := q.QueryContext(ctx, `SELECT tbl, col, name FROM `+namesTable)
	if err != nil {
		return fmt.Errorf("list earlier names: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var tbl, col, name string
		if err := rows.Scan(&tbl, &col, &name); err != nil {
			return fmt.Errorf("list earlier names: %w", err)
		}
		if t := have[tbl]; t != nil {
			if t.earlier == nil {
				t.earlier = map[string][]string{}
			}
			t.earlier[col] = append(t.earlier[col], name)
		}
	}
	return rows.Err()
}

// wasCalled reports whether a table (col "") or column of d was once
// called by one of names.
func (d *dbTable) wasCalled(col string, names []string) bool {
	for _, n := range d.earlier[col] {
		if slices.Contains(names, n) {
			return true
		}
	}
	return false
}

// sources maps each live table to the database table it is or becomes,
// and each of its columns to the database column.
type sources struct {
	tables  map[string]*dbTable
	columns map[string]map[string]string // live table → live column → database column
}

// resolve finds the sources of m's tables in have: a table's (or column's)
// own name where the database has it, else the first of its was names
// that it has (docs/pages/format.md §3), else the one table (column) of the database
// that no definition names and that the database once knew by the name or
// a was name.
func resolve(m *Model, have map[string]*dbTable) sources {
	s := sources{tables: map[string]*dbTable{}, columns: map[string]map[string]string{}}
	named := tableNames(m)
	claimed := map[string]bool{}
	var loose []*dbTable
	for _, name := range sortedNames(have) {
		if !named[name] {
			loose = append(loose, have[name])
		}
	}
	for _, t := range m.Tables {
		src := byName(t.Name, t.Was, have)
		if src == nil {
			src = onceCalled(loose, claimed, "", append([]string{t.Name}, t.Was...))
		}
		if src == nil {
			continue
		}
		claimed[src.Name] = true
		s.tables[t.Name] = src
		s.columns[t.Name] = resolveColumns(t, src)
	}
	return s
}

// byName is the database table named name, or else the first was name.
func byName(name string, was []string, have map[string]*dbTable) *dbTable {
	if d := have[name]; d != nil {
		return d
	}
	for _, w := range was {
		if d := have[w]; d != nil {
			return d
		}
	}
	return nil
}

// onceCalled is the one unclaimed table of loose that the database once
// knew by one of names (col "" for a table), nil where none or several.
func onceCalled(loose []*dbTable, claimed map[string]bool, col string, names []string) *dbTable {
	var found *dbTable
	for _, d := range loose {
		if claimed[d.Name] || !d.wasCalled(col, names) {
			continue
		}
		if found != nil {
			return nil
		}
		found = d
	}
	return found
}

// resolveColumns is resolve for the columns of one table.
func resolveColumns(t *schema.Table, src *dbTable) map[string]string {
	out := map[string]string{}
	named := columnNames(t)
	claimed := map[string]bool{}
	for _, c := range t.Columns {
		from := ""
		if src.has(c.Name) {
			from = c.Name
		} else {
			for _, w := range c.Was {
				if src.has(w) {
					from = w
					break
				}
			}
		}
		if from == "" {
			names := append([]string{c.Name}, c.Was...)
			for _, x := range src.Columns {
				if named[x] || claimed[x] || !src.wasCalled(x, names) {
					continue
				}
				if from != "" {
					from = ""
					break
				}
				from = x
			}
		}
		if from != "" {
			claimed[from] = true
			out[c.Name] = from
		}
	}
	return out
}

// claims reports whether the database column col of src is some live
// column's source.
func (s sources) claims(live, col string) bool {
	for _, from := range s.columns[live] {
		if from == col {
			return true
		}
	}
	return false
}

// claimsTable reports whether the database table name is some live
// table's source.
func (s sources) claimsTable(name string) bool {
	for _, d := range s.tables {
		if d.Name == name {
			return true
		}
	}
	return false
}

func sortedNames(have map[string]*dbTable) []string {
	names := make([]string, 0, len(have))
	for n := range have {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// noteRename records that the database table (col "") or column now
// called to was called from, with all the earlier names from had.
func noteRename(ctx context.Context, tx *sql.Tx, tbl, from, to string, column bool) error {
	var qs []string
	var args [][]any
	if column {
		qs = []string{
			`UPDATE OR REPLACE ` + namesTable + ` SET col = ? WHERE tbl = ? AND col = ?`,
			`INSERT OR IGNORE INTO ` + namesTable + ` (tbl, col, name) VALUES (?, ?, ?)`,
			`DELETE FROM ` + namesTable + ` WHERE tbl = ? AND col = ? AND name = ?`,
		}
		args = [][]any{{to, tbl, from}, {tbl, to, from}, {tbl, to, to}}
	} else {
		qs = []string{
			`UPDATE OR REPLACE ` + namesTable + ` SET tbl = ? WHERE tbl = ?`,
			`INSERT OR IGNORE INTO ` + namesTable + ` (tbl, col, name) VALUES (?, '', ?)`,
			`DELETE FROM ` + namesTable + ` WHERE tbl = ? AND col = '' AND name = ?`,
			`UPDATE OR REPLACE ` + keptTable + ` SET tbl = ? WHERE tbl = ?`,
		}
		args = [][]any{{to, from}, {to, from}, {to, to}, {to, from}}
	}
	for i, q := range qs {
		if _, err := tx.ExecContext(ctx, q, args[i]...); err != nil {
			return fmt.Errorf("migrate: note the rename of %s to %s: %w", from, to, err)
		}
	}
	return nil
}

// keepColumn sets aside the values of column col of table tbl before
// removed drops it, with its declared type.
func keepColumn(ctx context.Context, tx *sql.Tx, tbl, col string) error {
	q := `INSERT OR REPLACE INTO ` + keptTable + ` (tbl, col, id, type, value)
		SELECT ?, ?, id, (SELECT type FROM pragma_table_info(?) WHERE name = ?), ` + quote(col) + ` FROM ` + quote(tbl) +
		` WHERE ` + quote(col) + ` IS NOT NULL`
	if _, err := tx.ExecContext(ctx, q, tbl, col, tbl, col); err != nil {
		return fmt.Errorf("migrate: keep the values of %s.%s: %w", tbl, col, err)
	}
	return nil
}

// restoreColumn gives a column just added to table tbl the values kept of
// the first of names that has some of the same declared type, and forgets
// them. It reports the name it restored from ("" for none).
func restoreColumn(ctx context.Context, tx *sql.Tx, tbl string, c *schema.Column, names []string) (string, error) {
	for _, n := range names {
		var count int
		err := tx.QueryRowContext(ctx, `SELECT count(*) FROM `+keptTable+` WHERE tbl = ? AND col = ? AND type = ?`, tbl, n, sqlType(c.Type)).Scan(&count)
		if err != nil {
			return "", fmt.Errorf("migrate: read the kept values of %s.%s: %w", tbl, n, err)
		}
		if count == 0 {
			continue
		}
		qs := []string{
			`UPDATE ` + quote(tbl) + ` SET ` + quote(c.Name) + ` = (SELECT value FROM ` + keptTable + ` AS k WHERE k.tbl = ? AND k.col = ? AND k.id = ` + quote(tbl) + `.id)
				WHERE id IN (SELECT id FROM ` + keptTable + ` WHERE tbl = ? AND col = ?)`,
			`DELETE FROM ` + keptTable + ` WHERE tbl = ? AND col = ?`,
		}
		args := [][]any{{tbl, n, tbl, n}, {tbl, n}}
		for i, q := range qs {
			if _, err := tx.ExecContext(ctx, q, args[i]...); err != nil {
				return "", fmt.Errorf("migrate: restore %s.%s: %w", tbl, c.Name, err)
			}
		}
		if n != c.Name {
			if err := noteRename(ctx, tx, tbl, n, c.Name, true); err != nil {
				return "", err
			}
		}
		return n, nil
	}
	// A new column: what the database knew of an earlier column of the
	// same name, dropped and never restored, is not its past.
	if _, err := tx.ExecContext(ctx, `DELETE FROM `+namesTable+` WHERE tbl = ? AND col = ?`, tbl, c.Name); err != nil {
		return "", fmt.Errorf("migrate: %w", err)
	}
	return "", nil
}

// goneTable answers the table kept under gonePrefix for the first of
// names that has one, with its columns, nil where none.
func goneTable(ctx context.Context, tx *sql.Tx, names []string) (*dbTable, error) {
	for _, n := range names {
		rows, err := tx.QueryContext(ctx, `SELECT c.name FROM sqlite_master AS m JOIN pragma_table_info(m.name) AS c
			WHERE m.type = 'table' AND m.name = ? ORDER BY c.cid`, gonePrefix+n)
		if err != nil {
			return nil, fmt.Errorf("migrate: read kept table %s: %w", n, err)
		}
		var d *dbTable
		for rows.Next() {
			var col string
			if err := rows.Scan(&col); err != nil {
				rows.Close()
				return nil, fmt.Errorf("migrate: read kept table %s: %w", n, err)
			}
			if d == nil {
				d = &dbTable{Name: gonePrefix + n}
			}
			if col != "id" {
				d.Columns = append(d.Columns, col)
			}
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("migrate: read kept table %s: %w", n, err)
		}
		if d != nil {
			if err := readEarlier(ctx, tx, map[string]*dbTable{d.Name: d}); err != nil {
				return nil, err
			}
			return d, nil
		}
	}
	return nil, nil
}

// keepTable sets a table removed on purpose aside under gonePrefix, with
// its earlier names and kept values (an older one kept so is dropped).
func keepTable(ctx context.Context, tx *sql.Tx, name string, exec func(string, ...any) error) error {
	gone := gonePrefix + name
	if _, err := tx.ExecContext(ctx, `DROP TABLE IF EXISTS `+quote(gone)); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	for _, q := range []string{`DELETE FROM ` + namesTable + ` WHERE tbl = ?`, `DELETE FROM ` + keptTable + ` WHERE tbl = ?`} {
		if _, err := tx.ExecContext(ctx, q, gone); err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
	}
	if err := exec("ALTER TABLE " + quote(name) + " RENAME TO " + quote(gone)); err != nil {
		return err
	}
	return noteMove(ctx, tx, name, gone)
}

// noteMove moves the earlier names and kept values of table from to to,
// keeping its earlier names as they were (a kept table is no rename).
func noteMove(ctx context.Context, tx *sql.Tx, from, to string) error {
	for _, q := range []string{
		`UPDATE OR REPLACE ` + namesTable + ` SET tbl = ? WHERE tbl = ?`,
		`UPDATE OR REPLACE ` + keptTable + ` SET tbl = ? WHERE tbl = ?`,
	} {
		if _, err := tx.ExecContext(ctx, q, to, from); err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
	}
	return nil
}

// clearLineage forgets every earlier name and kept value and drops the
// kept tables, for a reset.
func clearLineage(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' AND substr(name, 1, ?) = ?`, len(gonePrefix), gonePrefix)
	if err != nil {
		return fmt.Errorf("reset: %w", err)
	}
	var gone []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return fmt.Errorf("reset: %w", err)
		}
		gone = append(gone, n)
	}
	rows.Close()
	for _, n := range gone {
		if _, err := tx.ExecContext(ctx, `DROP TABLE `+quote(n)); err != nil {
			return fmt.Errorf("reset: %w", err)
		}
	}
	for _, q := range []string{`DELETE FROM ` + namesTable, `DELETE FROM ` + keptTable} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("reset: %w", err)
		}
	}
	return nil
}

// tableNames is every table name the model states: its tables' names and
// was names, and its removed names. A table of the database under none of
// them is one no definition names.
func tableNames(m *Model) map[string]bool {
	named := map[string]bool{}
	for _, n := range m.Removed {
		named[n] = true
	}
	for _, t := range m.Tables {
		named[t.Name] = true
		for _, w := range t.Was {
			named[w] = true
		}
	}
	return named
}

// columnNames is tableNames for the columns of one table.
func columnNames(t *schema.Table) map[string]bool {
	named := map[string]bool{}
	for _, n := range t.Removed {
		named[n] = true
	}
	for _, c := range t.Columns {
		named[c.Name] = true
		for _, w := range c.Was {
			named[w] = true
		}
	}
	return named
}
