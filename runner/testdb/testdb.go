// Package testdb is the test database of a tent project (docs/pages/format.md §5): a
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
	"os"
	"strings"
	"sync"
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
	// LoadTestData, where set, gives TestData when a table is first filled
	// (Migrate creating a table, Reset): a model kept in a cache leaves its
	// rows unread until then, since most runs create no table.
	LoadTestData func() (map[string][]map[string]any, error) `json:"-"`
	// Fingerprint, where set, is a content hash of the model: a database
	// last brought to the same fingerprint, whose tables no one changed
	// since, fits without being read again.
	Fingerprint string `json:"-"`

	loadOnce sync.Once
	loadErr  error
}

// testData answers the test data rows of table, read first where the
// model reads them lazily.
func (m *Model) testData(table string) ([]map[string]any, error) {
	if m.LoadTestData != nil {
		m.loadOnce.Do(func() {
			data, err := m.LoadTestData()
			if err != nil {
				m.loadErr = fmt.Errorf("test data: %w", err)
				return
			}
			m.TestData = data
		})
		if m.loadErr != nil {
			return nil, m.loadErr
		}
	}
	return m.TestData[table], nil
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
	db, err := sqlitefile.Open(path, options)
	if err != nil {
		return nil, fmt.Errorf("test database: %w", err)
	}
	return ready(ctx, db, path)
}

// OpenIn is Open of the database at path in the open folder dir (.tent/,
// reached without following a link): a swap of the folder for a link after
// it was opened cannot redirect the database (sqlitefile.OpenIn). dir may
// be closed once OpenIn returns.
func OpenIn(ctx context.Context, dir *os.File, path string) (*DB, error) {
	db, err := sqlitefile.OpenIn(dir, path, options)
	if err != nil {
		return nil, fmt.Errorf("test database: %w", err)
	}
	return ready(ctx, db, path)
}

// options are the test database's: it can be built again, so nothing is
// synced; writers take the lock at once.
var options = sqlitefile.Options{Busy: 5 * time.Second, Synchronous: "OFF", Immediate: true}

// ready brings the opened database at path to this release's own tables.
func ready(ctx context.Context, db *sql.DB, path string) (*DB, error) {
	// One connection: runs on one database happen one after another, and a
	// run's reads see its own writes.
	db.SetMaxOpenConns(1)
	if _, err := sqlitefile.Migrate(ctx, db, schemaSteps); err != nil {
		db.Close()
		return nil, fmt.Errorf("test database %s: %w", path, err)
	}
	return &DB{sql: db, path: path}, nil
}

// schemaSteps are the versions of the database's own tables, beside the
// tent tables (sqlitefile.Migrate; a newer file is sqlitefile.ErrNewer).
// The first is the schema from before versions were stamped: the ids made
// per table. The second keeps which model the database was last brought
// to, and SQLite's schema cookie then, so that a process that finds both
// unchanged knows the tables fit without reading them (broughtTable).
var schemaSteps = []string{
	`CREATE TABLE IF NOT EXISTS ` + seqTable + ` (tbl TEXT PRIMARY KEY, n INTEGER NOT NULL)`,
	`CREATE TABLE ` + broughtTable + ` (id INTEGER PRIMARY KEY CHECK (id = 1), fingerprint TEXT NOT NULL, schema INTEGER NOT NULL)`,
	lineageSteps[0], lineageSteps[1],
}

// broughtTable keeps the fingerprint of the model the database was last
// migrated or reset to, with the schema version (PRAGMA schema_version,
// which SQLite raises with every change of any table's columns) it left.
const broughtTable = internalPrefix + "model"

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
	// earlier holds the names the database knew the table ("") and its
	// columns by before (lineage.go).
	earlier map[string][]string
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

// tables reads the tent tables the database has, by name, with their
// columns: one statement for every table (a statement per table cost 45 ms
// of a run's 100 on a project of 1,000 tables).
func tables(ctx context.Context, q querier) (map[string]*dbTable, error) {
	rows, err := q.QueryContext(ctx, `SELECT m.name, c.name FROM sqlite_master AS m LEFT JOIN pragma_table_info(m.name) AS c
		WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY m.name, c.cid`)
	if err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	defer rows.Close()
	out := map[string]*dbTable{}
	for rows.Next() {
		var table string
		var col sql.NullString
		if err := rows.Scan(&table, &col); err != nil {
			return nil, fmt.Errorf("list tables: %w", err)
		}
		if strings.HasPrefix(table, internalPrefix) {
			continue
		}
		t := out[table]
		if t == nil {
			t = &dbTable{Name: table}
			out[table] = t
		}
		if col.Valid && col.String != "id" {
			t.Columns = append(t.Columns, col.String)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	if err := readEarlier(ctx, q, out); err != nil {
		return nil, err
	}
	return out, nil
}
