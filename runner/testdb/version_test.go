package testdb

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/tent-tools/tent-tools/internal/sqlitefile"
)

// TestSchemaVersion: a test database made by the first schema (before
// versions were stamped: user_version 0, the tent tables and the ids made
// so far) opens, keeps its rows and its ids, and is stamped; one made by a
// newer release is refused with sqlitefile.ErrNewer and left as it is.
func TestSchemaVersion(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	first := filepath.Join(dir, "first.db")
	raw, err := sqlitefile.Open(first, sqlitefile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`CREATE TABLE "users" (id TEXT PRIMARY KEY, "name" TEXT, "email" TEXT, "admin" INTEGER)`,
		`CREATE TABLE "orders" (id TEXT PRIMARY KEY, "buyer" TEXT, "total" INTEGER, "meta" TEXT, "status" TEXT)`,
		`INSERT INTO "users" VALUES ('u1', 'Ann', 'ann@x', 1), ('users_1', 'Cy', 'cy@x', 0)`,
		`CREATE TABLE _tent_seq (tbl TEXT PRIMARY KEY, n INTEGER NOT NULL)`,
		`INSERT INTO _tent_seq VALUES ('users', 1)`,
	} {
		if _, err := raw.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()

	db, err := Open(ctx, first)
	if err != nil {
		t.Fatalf("a database of the first schema: %v", err)
	}
	defer db.Close()
	var v int
	if err := db.sql.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&v); err != nil || v != len(schemaSteps) {
		t.Fatalf("user_version = %d (%v), want %d", v, err, len(schemaSteps))
	}
	m := shopModel()
	m.Fingerprint = "f1"
	if steps, err := db.Migrate(ctx, m); err != nil || len(steps) != 0 {
		t.Fatalf("migrate the first schema's tables: %q, %v; want no steps", steps, err)
	}
	if got := rows(t, db, m, "users"); len(got) != 2 {
		t.Fatalf("users = %v, want the 2 rows it had", got)
	}
	row, err := db.Begin(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	added, err := row.PrepareInsert("users", map[string]any{"name": "Di", "email": "di@x"})
	if err != nil {
		t.Fatal(err)
	}
	row.Rollback()
	if added["id"] != "users_2" {
		t.Errorf("a new row's id = %v, want users_2 (the ids made so far are kept)", added["id"])
	}

	newer := filepath.Join(dir, "newer.db")
	raw, err = sqlitefile.Open(newer, sqlitefile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.ExecContext(ctx, `PRAGMA user_version = 99`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	if db, err := Open(ctx, newer); !errors.Is(err, sqlitefile.ErrNewer) {
		if db != nil {
			db.Close()
		}
		t.Fatalf("a test database of a newer release: %v, want ErrNewer", err)
	}
}

// TestBrought: a database migrated to a model fits it unread while the
// fingerprint and SQLite's schema version stay; a change of any table
// outside, another model, a model without a fingerprint and a reset each
// decide anew.
func TestBrought(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	m := shopModel()
	m.Fingerprint = "f1"
	if _, err := db.Migrate(ctx, m); err != nil {
		t.Fatal(err)
	}
	fits := func(m *Model) bool {
		t.Helper()
		tx, err := db.sql.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		ok, err := brought(ctx, tx, m)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if !fits(m) {
		t.Fatal("just migrated: does not fit")
	}
	other := shopModel()
	other.Fingerprint = "f2"
	if fits(other) {
		t.Error("another model fits")
	}
	if fits(shopModel()) {
		t.Error("a model without a fingerprint fits")
	}
	if _, err := db.sql.ExecContext(ctx, `ALTER TABLE "users" ADD COLUMN "age" INTEGER`); err != nil {
		t.Fatal(err)
	}
	if fits(m) {
		t.Fatal("a column added outside: still fits")
	}
	var de *DriftError
	if _, err := db.Migrate(ctx, m); !errors.As(err, &de) {
		t.Fatalf("migrate after a column added outside: %v, want drift", err)
	}
	if err := db.Reset(ctx, m); err != nil {
		t.Fatal(err)
	}
	if !fits(m) {
		t.Error("just reset: does not fit")
	}
	if _, err := db.sql.ExecContext(ctx, `INSERT INTO "users" (id, name) VALUES ('u9', 'Flo')`); err != nil {
		t.Fatal(err)
	}
	if !fits(m) {
		t.Error("a row written: no longer fits (rows are no part of the fit)")
	}
}
