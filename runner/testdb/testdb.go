// Package testdb is the test database of a tent project (format.md §5): a
// real SQLite database with one table per tent table and typed columns,
// built from the test data the first time it is needed and migrated, never
// rebuilt, when the definitions change, by the same `was` and `removed`
// rules a deployment follows. It knows nothing of JavaScript nor of the
// index: the runner hands it a Model.
package testdb

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/tent-tools/tent-tools/internal/sqlitefile"

	"github.com/tent-tools/tent-tools/schema"
)

// internalPrefix starts the names of the tables the database keeps for
// itself; they are no tent table and never drift.
const internalPrefix = "_tent_"

// Model is what the definitions say the test database holds.
type Model struct {
	// Tables are the live tables, each with its columns, was and removed.
	Tables []*schema.Table
	// Removed names the tables removed on purpose (project's removed).
	Removed []string
	// TestData holds each table's test data rows, by table name; a table is
	// filled from them when it is created.
	TestData map[string][]map[string]any
}

// Table returns the live table named name, or nil.
func (m *Model) Table(name string) *schema.Table {
	for _, t := range m.Tables {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// DB is an open test database.
type DB struct {
	sql  *sql.DB
	path string
}

// Open opens (creating where needed) the SQLite database at path. It does
// not build nor migrate anything.
func Open(ctx context.Context, path string) (*DB, error) {
	db, err := sqlitefile.Open(path, sqlitefile.Options{Busy: 5 * time.Second, Synchronous: "OFF", Immediate: true})
	if err != nil {
		return nil, fmt.Errorf("test database: %w", err)
	}
	// One connection: runs on one database happen one after another, and a
	// run's reads see its own writes.
	db.SetMaxOpenConns(1)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("test database %s: %w", path, err)
	}
	return &DB{sql: db, path: path}, nil
}

// Path is the database file's path.
func (d *DB) Path() string { return d.path }

// Close closes the database.
func (d *DB) Close() error { return d.sql.Close() }

// quote makes an SQL identifier of a tent name.
func quote(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// sqlType is the declared SQLite type of a column type.
func sqlType(t schema.Type) string {
	switch t {
	case schema.Int, schema.Money, schema.Bool:
		return "INTEGER"
	case schema.Num:
		return "REAL"
	}
	return "TEXT"
}

// dbTable is a table as the database has it.
type dbTable struct {
	Name    string
	Columns []string // without id
}

// has reports whether the table has column c.
func (t *dbTable) has(c string) bool {
	for _, x := range t.Columns {
		if x == c {
			return true
		}
	}
	return false
}

// querier is what both *sql.DB and *sql.Tx can do.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// tables reads the tent tables the database has, by name.
func tables(ctx context.Context, q querier) (map[string]*dbTable, error) {
	rows, err := q.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return nil, fmt.Errorf("list tables: %w", err)
		}
		if !strings.HasPrefix(n, internalPrefix) {
			names = append(names, n)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	out := map[string]*dbTable{}
	for _, n := range names {
		cols, err := columns(ctx, q, n)
		if err != nil {
			return nil, err
		}
		out[n] = &dbTable{Name: n, Columns: cols}
	}
	return out, nil
}

// columns reads the columns of a database table, without id, in order.
func columns(ctx context.Context, q querier, table string) ([]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT name FROM pragma_table_info(?) ORDER BY cid`, table)
	if err != nil {
		return nil, fmt.Errorf("columns of %s: %w", table, err)
	}
	defer rows.Close()
	var cols []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, fmt.Errorf("columns of %s: %w", table, err)
		}
		if n != "id" {
			cols = append(cols, n)
		}
	}
	return cols, rows.Err()
}
