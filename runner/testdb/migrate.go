package testdb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/tent-tools/tent-tools/schema"
)

// Drift is a table or a column that the database has and that no
// definition names, as name, was or removed (finding T2011). Column is ""
// for a whole table.
type Drift struct {
	Table  string
	Column string
	// Live is the live table the drifting column's database table becomes,
	// "" for a whole table.
	Live string
}

// String says what drifted, for messages.
func (d Drift) String() string {
	if d.Column == "" {
		return "table " + d.Table
	}
	return "column " + d.Table + "." + d.Column
}

// DriftError is the error Migrate answers when the database has something
// that no definition names; nothing was changed.
type DriftError struct{ Drift []Drift }

// Error lists what drifted.
func (e *DriftError) Error() string {
	var parts []string
	for _, d := range e.Drift {
		parts = append(parts, d.String())
	}
	return "the test database has what no definition names: " + strings.Join(parts, ", ")
}

// Drift lists what the database has that no definition names, sorted.
func (d *DB) Drift(ctx context.Context, m *Model) ([]Drift, error) {
	have, err := tables(ctx, d.sql)
	if err != nil {
		return nil, err
	}
	return drift(m, have), nil
}

func drift(m *Model, have map[string]*dbTable) []Drift {
	s := resolve(m, have)
	named := tableNames(m)
	var out []Drift
	for name := range have {
		if !named[name] && !s.claimsTable(name) {
			out = append(out, Drift{Table: name})
		}
	}
	for _, t := range m.Tables {
		src := s.tables[t.Name]
		if src == nil {
			continue
		}
		cols := columnNames(t)
		for _, c := range src.Columns {
			if !cols[c] && !s.claims(t.Name, c) {
				out = append(out, Drift{Table: src.Name, Column: c, Live: t.Name})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Table != out[j].Table {
			return out[i].Table < out[j].Table
		}
		return out[i].Column < out[j].Column
	})
	return out
}

// Migrate brings the database to the model, keeping its data: tables and
// columns renamed by was, tables created (and filled from their test data),
// columns added with their default, and tables and columns dropped only
// where removed names them. Where the database has something no definition
// names, it changes nothing and answers a *DriftError. It answers the steps
// it took, as SQL, in order (none when the database already fits).
func (d *DB) Migrate(ctx context.Context, m *Model) ([]string, error) {
	tx, err := d.sql.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	defer tx.Rollback()
	if fits, err := brought(ctx, tx, m); err != nil || fits {
		return nil, err
	}
	have, err := tables(ctx, tx)
	if err != nil {
		return nil, err
	}
	if dr := drift(m, have); len(dr) > 0 {
		return nil, &DriftError{Drift: dr}
	}
	var steps []string
	exec := func(q string, args ...any) error {
		if _, err := tx.ExecContext(ctx, q, args...); err != nil {
			return fmt.Errorf("migrate: %s: %w", q, err)
		}
		steps = append(steps, q)
		return nil
	}
	for _, n := range m.Removed {
		if have[n] != nil && m.Table(n) == nil {
			if err := keepTable(ctx, tx, n, exec); err != nil {
				return nil, err
			}
			delete(have, n)
		}
	}
	srcs := resolve(m, have)
	for _, t := range m.Tables {
		src, cols, restored := srcs.tables[t.Name], srcs.columns[t.Name], false
		if src == nil {
			gone, err := goneTable(ctx, tx, append([]string{t.Name}, t.Was...))
			if err != nil {
				return nil, err
			}
			if gone == nil {
				if err := exec(createSQL(t)); err != nil {
					return nil, err
				}
				rows, err := m.testData(t.Name)
				if err != nil {
					return nil, err
				}
				if err := fill(ctx, tx, t, rows); err != nil {
					return nil, err
				}
				continue
			}
			// A table removed on purpose and named again (an undo of the
			// remove) comes back with its rows.
			base := strings.TrimPrefix(gone.Name, gonePrefix)
			if err := exec("ALTER TABLE " + quote(gone.Name) + " RENAME TO " + quote(base)); err != nil {
				return nil, err
			}
			if err := noteMove(ctx, tx, gone.Name, base); err != nil {
				return nil, err
			}
			gone.Name, src, restored = base, gone, true
			cols = resolveColumns(t, src)
		}
		if src.Name != t.Name {
			if err := exec("ALTER TABLE " + quote(src.Name) + " RENAME TO " + quote(t.Name)); err != nil {
				return nil, err
			}
			if err := noteRename(ctx, tx, src.Name, src.Name, t.Name, false); err != nil {
				return nil, err
			}
			delete(have, src.Name)
			src.Name = t.Name
			have[t.Name] = src
		}
		if err := migrateColumns(ctx, tx, t, src, cols, restored, exec); err != nil {
			return nil, err
		}
	}
	if err := keepBrought(ctx, tx, m); err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	return steps, nil
}

// brought reports whether the database was last brought to m (the same
// fingerprint) and no table changed since (the same schema version): then
// it fits m, as Migrate left it, without reading its tables.
func brought(ctx context.Context, tx *sql.Tx, m *Model) (bool, error) {
	if m.Fingerprint == "" {
		return false, nil
	}
	var fingerprint string
	var kept, now int64
	err := tx.QueryRowContext(ctx, `SELECT fingerprint, schema FROM `+broughtTable+` WHERE id = 1`).Scan(&fingerprint, &kept)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("migrate: %w", err)
	}
	if err := tx.QueryRowContext(ctx, `PRAGMA schema_version`).Scan(&now); err != nil {
		return false, fmt.Errorf("migrate: %w", err)
	}
	return fingerprint == m.Fingerprint && kept == now, nil
}

// keepBrought notes that the database was brought to m, with the schema
// version that left; a model without a fingerprint clears the note.
func keepBrought(ctx context.Context, tx *sql.Tx, m *Model) error {
	if m.Fingerprint == "" {
		if _, err := tx.ExecContext(ctx, `DELETE FROM `+broughtTable); err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		return nil
	}
	var now int64
	if err := tx.QueryRowContext(ctx, `PRAGMA schema_version`).Scan(&now); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO `+broughtTable+` (id, fingerprint, schema) VALUES (1, ?, ?)`, m.Fingerprint, now); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

// migrateColumns renames, adds and drops the columns of one table, cols
// being each live column's database column (resolve). A column added
// takes the values kept of it where removed dropped it before; a column
// removed keeps its values aside. A table restored from its kept copy
// (restored) also sets aside the columns no definition names any more.
func migrateColumns(ctx context.Context, tx *sql.Tx, t *schema.Table, src *dbTable, cols map[string]string, restored bool, exec func(string, ...any) error) error {
	tq := quote(t.Name)
	for _, c := range t.Columns {
		from := cols[c.Name]
		switch {
		case from == "":
			q := "ALTER TABLE " + tq + " ADD COLUMN " + quote(c.Name) + " " + sqlType(c.Type)
			if c.Default != nil {
				lit, err := literal(c, c.Default)
				if err != nil {
					return err
				}
				q += " DEFAULT " + lit
			}
			if err := exec(q); err != nil {
				return err
			}
			if _, err := restoreColumn(ctx, tx, t.Name, c, append([]string{c.Name}, c.Was...)); err != nil {
				return err
			}
		case from != c.Name:
			if err := exec("ALTER TABLE " + tq + " RENAME COLUMN " + quote(from) + " TO " + quote(c.Name)); err != nil {
				return err
			}
			if err := noteRename(ctx, tx, t.Name, from, c.Name, true); err != nil {
				return err
			}
			src.Columns[slices.Index(src.Columns, from)] = c.Name
		}
	}
	drop := func(n string) error {
		if err := keepColumn(ctx, tx, t.Name, n); err != nil {
			return err
		}
		return exec("ALTER TABLE " + tq + " DROP COLUMN " + quote(n))
	}
	for _, n := range t.Removed {
		if src.has(n) && t.Column(n) == nil {
			if err := drop(n); err != nil {
				return err
			}
		}
	}
	if restored {
		for _, n := range slices.Clone(src.Columns) {
			if t.Column(n) == nil && !slices.Contains(t.Removed, n) {
				if err := drop(n); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// literal writes a default value as an SQL literal for ADD COLUMN.
func literal(c *schema.Column, v any) (string, error) {
	s, err := store(c, v)
	if err != nil {
		return "", err
	}
	switch x := s.(type) {
	case nil:
		return "NULL", nil
	case int64:
		return fmt.Sprint(x), nil
	case float64:
		return fmt.Sprint(x), nil
	case string:
		return "'" + strings.ReplaceAll(x, "'", "''") + "'", nil
	}
	return "", fmt.Errorf("default of %s: cannot store %T", c.Name, s)
}

// createSQL is the CREATE TABLE statement of a live table.
func createSQL(t *schema.Table) string {
	var b strings.Builder
	b.WriteString("CREATE TABLE " + quote(t.Name) + " (id TEXT PRIMARY KEY")
	for _, c := range t.Columns {
		b.WriteString(", " + quote(c.Name) + " " + sqlType(c.Type))
	}
	b.WriteString(")")
	return b.String()
}

// fill inserts a table's test data rows. Rows are taken as they are: the
// check reports rows that do not fit their table (T26xx), so a row with an
// unknown column loses that column here, and a missing value takes the
// column's default.
func fill(ctx context.Context, tx *sql.Tx, t *schema.Table, rows []map[string]any) error {
	w := &writer{q: tx}
	for i, row := range rows {
		id, _ := row["id"].(string)
		if id == "" {
			var err error
			if id, err = w.newID(ctx, t.Name); err != nil {
				return err
			}
		}
		vals := []any{id}
		for _, c := range t.Columns {
			v, ok := row[c.Name]
			if !ok {
				v = c.Default
			}
			vals = append(vals, storeLoose(c, v))
		}
		if _, err := tx.ExecContext(ctx, insertSQL(t), vals...); err != nil {
			return fmt.Errorf("test data %s row %d: %w", t.Name, i+1, err)
		}
	}
	return nil
}

// insertSQL is the INSERT statement of a live table, id first.
func insertSQL(t *schema.Table) string {
	var b strings.Builder
	b.WriteString("INSERT OR REPLACE INTO " + quote(t.Name) + " (id")
	for _, c := range t.Columns {
		b.WriteString(", " + quote(c.Name))
	}
	b.WriteString(") VALUES (?")
	b.WriteString(strings.Repeat(", ?", len(t.Columns)))
	b.WriteString(")")
	return b.String()
}

// Reset rebuilds the database from the test data: every tent table is
// dropped, then each live table created and filled. Only an explicit reset
// does this; Migrate never drops data that no definition removed.
func (d *DB) Reset(ctx context.Context, m *Model) error {
	tx, err := d.sql.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("reset: %w", err)
	}
	defer tx.Rollback()
	have, err := tables(ctx, tx)
	if err != nil {
		return err
	}
	for name := range have {
		if _, err := tx.ExecContext(ctx, "DROP TABLE "+quote(name)); err != nil {
			return fmt.Errorf("reset: drop %s: %w", name, err)
		}
	}
	if _, err := tx.ExecContext(ctx, "DROP TABLE IF EXISTS "+seqTable); err != nil {
		return fmt.Errorf("reset: %w", err)
	}
	if err := clearLineage(ctx, tx); err != nil {
		return err
	}
	for _, t := range m.Tables {
		if _, err := tx.ExecContext(ctx, createSQL(t)); err != nil {
			return fmt.Errorf("reset: create %s: %w", t.Name, err)
		}
		rows, err := m.testData(t.Name)
		if err != nil {
			return fmt.Errorf("reset: %w", err)
		}
		if err := fill(ctx, tx, t, rows); err != nil {
			return fmt.Errorf("reset: %w", err)
		}
	}
	if err := keepBrought(ctx, tx, m); err != nil {
		return fmt.Errorf("reset: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("reset: %w", err)
	}
	return nil
}
