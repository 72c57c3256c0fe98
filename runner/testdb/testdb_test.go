package testdb

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/rename"
	"github.com/tent-tools/tent-tools/schema"
)

// shopModel is a small model: users and orders with test data.
func shopModel() *Model {
	return &Model{
		Tables: []*schema.Table{
			{Name: "users", Columns: []*schema.Column{
				{Name: "name", Type: schema.Text},
				{Name: "email", Type: schema.Text, Unique: true},
				{Name: "admin", Type: schema.Bool, Default: false},
			}},
			{Name: "orders", Columns: []*schema.Column{
				{Name: "buyer", Type: schema.Ref, Ref: "users"},
				{Name: "total", Type: schema.Money},
				{Name: "meta", Type: schema.JSON, Optional: true},
				{Name: "status", Type: schema.Choice, Choices: []string{"new", "paid"}, Default: "new"},
			}},
		},
		TestData: map[string][]map[string]any{
			"users": {
				{"id": "u1", "name": "Ann", "email": "ann@x", "admin": true},
				{"id": "u2", "name": "Bo", "email": "bo@x"},
			},
			"orders": {
				{"id": "o1", "buyer": "u1", "total": 100.0, "meta": map[string]any{"gift": true}, "status": "paid"},
				{"id": "o2", "buyer": "u2", "total": 250.0},
			},
		},
	}
}

func open(t *testing.T) *DB {
	t.Helper()
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), ".tent", "test.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func rows(t *testing.T, db *DB, m *Model, table string) []Row {
	t.Helper()
	rs, _, err := db.Rows(context.Background(), m, table, 0)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

func TestBuildFromTestData(t *testing.T) {
	ctx := context.Background()
	db, m := open(t), shopModel()
	steps, err := db.Migrate(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 2 {
		t.Errorf("steps = %q, want two CREATE TABLE", steps)
	}
	got := rows(t, db, m, "orders")
	want := []Row{
		{"id": "o1", "buyer": "u1", "total": 100.0, "meta": map[string]any{"gift": true}, "status": "paid"},
		{"id": "o2", "buyer": "u2", "total": 250.0, "meta": nil, "status": "new"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("orders = %v\nwant %v", got, want)
	}
	if u := rows(t, db, m, "users"); u[0]["admin"] != true || u[1]["admin"] != false {
		t.Errorf("bool columns = %v, %v", u[0]["admin"], u[1]["admin"])
	}
	again, err := db.Migrate(ctx, m)
	if err != nil || len(again) != 0 {
		t.Errorf("second migrate = %q, %v; want nothing to do", again, err)
	}
}

func TestMigrate(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(m *Model)
		steps []string
		check func(t *testing.T, db *DB, m *Model)
	}{{
		name:  "rename table by was",
		edit:  func(m *Model) { m.Tables[1].Name, m.Tables[1].Was = "purchases", []string{"orders"} },
		steps: []string{`ALTER TABLE "orders" RENAME TO "purchases"`},
		check: func(t *testing.T, db *DB, m *Model) {
			if n := len(rows(t, db, m, "purchases")); n != 3 {
				t.Errorf("purchases has %d rows, want the 3 of orders", n)
			}
		},
	}, {
		name: "rename column by was, oldest first",
		edit: func(m *Model) {
			c := m.Tables[1].Column("buyer")
			c.Name, c.Was = "customer", []string{"client", "buyer"}
		},
		steps: []string{`ALTER TABLE "orders" RENAME COLUMN "buyer" TO "customer"`},
		check: func(t *testing.T, db *DB, m *Model) {
			if got := rows(t, db, m, "orders")[2]["customer"]; got != "u1" {
				t.Errorf("customer = %v, want u1 kept from buyer", got)
			}
		},
	}, {
		name: "new column takes its default",
		edit: func(m *Model) {
			m.Tables[1].Columns = append(m.Tables[1].Columns, &schema.Column{Name: "rush", Type: schema.Bool, Default: true})
		},
		steps: []string{`ALTER TABLE "orders" ADD COLUMN "rush" INTEGER DEFAULT 1`},
		check: func(t *testing.T, db *DB, m *Model) {
			for _, r := range rows(t, db, m, "orders") {
				if r["rush"] != true {
					t.Errorf("rush of %v = %v, want true", r["id"], r["rush"])
				}
			}
		},
	}, {
		name: "removed column dropped",
		edit: func(m *Model) {
			m.Tables[1].Columns = m.Tables[1].Columns[:3]
			m.Tables[1].Removed = []string{"status"}
		},
		steps: []string{`ALTER TABLE "orders" DROP COLUMN "status"`},
	}, {
		name: "removed table dropped",
		edit: func(m *Model) {
			m.Tables = m.Tables[:1]
			m.Removed = []string{"orders"}
		},
		// kept aside until a reset, for an undo of the remove
		steps: []string{`ALTER TABLE "orders" RENAME TO "_tent_gone_orders"`},
	}, {
		name: "new table built from its test data",
		edit: func(m *Model) {
			m.Tables = append(m.Tables, &schema.Table{Name: "tags", Columns: []*schema.Column{{Name: "label", Type: schema.Text}}})
			m.TestData["tags"] = []map[string]any{{"id": "t1", "label": "sale"}}
		},
		steps: []string{`CREATE TABLE "tags" (id TEXT PRIMARY KEY, "label" TEXT)`},
		check: func(t *testing.T, db *DB, m *Model) {
			if got := rows(t, db, m, "tags"); len(got) != 1 || got[0]["label"] != "sale" {
				t.Errorf("tags = %v", got)
			}
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			db, m := open(t), shopModel()
			if _, err := db.Migrate(ctx, m); err != nil {
				t.Fatal(err)
			}
			// A row added by a run must survive the migration.
			tx, err := db.Begin(ctx, m)
			if err != nil {
				t.Fatal(err)
			}
			row, err := tx.PrepareInsert("orders", Row{"buyer": "u1", "total": 5.0})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tx.Insert("orders", row); err != nil {
				t.Fatal(err)
			}
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
			m2 := shopModel()
			tt.edit(m2)
			steps, err := db.Migrate(ctx, m2)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(steps, tt.steps) {
				t.Errorf("steps = %q\nwant %q", steps, tt.steps)
			}
			if tt.check != nil {
				tt.check(t, db, m2)
			}
		})
	}
}

func TestDrift(t *testing.T) {
	tests := []struct {
		name string
		edit func(m *Model)
		want []Drift
	}{
		{"column gone without removed", func(m *Model) { m.Tables[1].Columns = m.Tables[1].Columns[:3] },
			[]Drift{{Table: "orders", Column: "status", Live: "orders"}}},
		{"table gone without removed", func(m *Model) { m.Tables = m.Tables[:1] },
			[]Drift{{Table: "orders"}}},
		{"renamed without was", func(m *Model) { m.Tables[0].Columns[0].Name = "fullName" },
			[]Drift{{Table: "users", Column: "name", Live: "users"}}},
		{"stated by removed", func(m *Model) {
			m.Tables[1].Columns = m.Tables[1].Columns[:3]
			m.Tables[1].Removed = []string{"status"}
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			db, m := open(t), shopModel()
			if _, err := db.Migrate(ctx, m); err != nil {
				t.Fatal(err)
			}
			m2 := shopModel()
			tt.edit(m2)
			got, err := db.Drift(ctx, m2)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("drift = %v, want %v", got, tt.want)
			}
			_, err = db.Migrate(ctx, m2)
			var de *DriftError
			if (len(tt.want) > 0) != errors.As(err, &de) {
				t.Errorf("migrate error = %v, want a DriftError: %v", err, len(tt.want) > 0)
			}
			if de != nil {
				if n := len(rows(t, db, m, "orders")); n != 2 {
					t.Errorf("a refused migration changed the database: %d orders", n)
				}
			}
		})
	}
}

func TestWrites(t *testing.T) {
	ctx := context.Background()
	db, m := open(t), shopModel()
	if _, err := db.Migrate(ctx, m); err != nil {
		t.Fatal(err)
	}
	tx, err := db.Begin(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	bad := []struct {
		row  Row
		want string
	}{
		{Row{"buyer": "u1"}, "total is required"},
		{Row{"buyer": "u1", "total": 1.5}, "whole number"},
		{Row{"buyer": "u1", "total": 1.0, "status": "lost"}, "wants one of"},
		{Row{"buyer": "u1", "total": 1.0, "colour": "red"}, "has no column colour"},
		{Row{"id": "o1", "buyer": "u1", "total": 1.0}, "already has a row o1"},
	}
	for _, b := range bad {
		if _, err := tx.PrepareInsert("orders", b.row); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("insert %v: err = %v, want %q", b.row, err, b.want)
		}
	}
	if _, _, err := tx.PrepareUpdate("users", "u2", Row{"email": "ann@x"}); err == nil || !strings.Contains(err.Error(), "unique") {
		t.Errorf("update to a taken email: err = %v", err)
	}
	r, err := tx.PrepareInsert("orders", Row{"buyer": "u2", "total": 7.0})
	if err != nil {
		t.Fatal(err)
	}
	if r["id"] != "orders_1" || r["status"] != "new" || r["meta"] != nil {
		t.Errorf("prepared = %v", r)
	}
	if _, err := tx.Insert("orders", r); err != nil {
		t.Fatal(err)
	}
	got, err := tx.Select("orders", Query{Match: map[string]any{"buyer": "u2"}, Order: "-total"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0]["id"] != "o2" || got[1]["id"] != "orders_1" {
		t.Errorf("where buyer u2 order -total = %v", got)
	}
	nulls, err := tx.Select("orders", Query{Match: map[string]any{"meta": nil}, Limit: 1})
	if err != nil || len(nulls) != 1 || nulls[0]["id"] != "o2" {
		t.Errorf("where meta null limit 1 = %v, %v", nulls, err)
	}
	_, upd, err := tx.PrepareUpdate("orders", "o2", Row{"status": "paid"})
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Put("orders", upd); err != nil {
		t.Fatal(err)
	}
	if o, _ := tx.Get("orders", "o2"); o["status"] != "paid" || o["total"] != 250.0 {
		t.Errorf("after update o2 = %v", o)
	}
	if _, err := tx.Delete("orders", "o2"); err != nil {
		t.Fatal(err)
	}
	if o, _ := tx.Get("orders", "o2"); o != nil {
		t.Errorf("after remove o2 = %v", o)
	}
	if _, err := tx.Delete("orders", "o2"); err == nil {
		t.Error("removing a missing row did not fail")
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if n := len(rows(t, db, m, "orders")); n != 2 {
		t.Errorf("after rollback orders has %d rows, want 2", n)
	}
}

func TestReset(t *testing.T) {
	ctx := context.Background()
	db, m := open(t), shopModel()
	if _, err := db.Migrate(ctx, m); err != nil {
		t.Fatal(err)
	}
	tx, _ := db.Begin(ctx, m)
	if _, err := tx.Delete("users", "u1"); err != nil {
		t.Fatal(err)
	}
	tx.Commit()
	if err := db.Reset(ctx, m); err != nil {
		t.Fatal(err)
	}
	if n := len(rows(t, db, m, "users")); n != 2 {
		t.Errorf("after reset users has %d rows, want 2", n)
	}
}

// TestReservedPrefix: rename refuses the names this package keeps for its
// own tables.
func TestReservedPrefix(t *testing.T) {
	if rename.ReservedPrefix != internalPrefix {
		t.Errorf("rename reserves %q, the test database keeps %q", rename.ReservedPrefix, internalPrefix)
	}
}
