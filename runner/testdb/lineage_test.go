package testdb

import (
	"context"
	"reflect"
	"testing"

	"github.com/tent-tools/tent-tools/schema"
)

// TestKeepsDataBothWays: after a rename, its undo (the definitions as they
// were, no was) and a rename back (was cut at the old name) find the data
// where the database has it, with no drift; a remove's undo brings the
// column's or table's values back. Each time a row written by a run
// between the steps is kept.
func TestKeepsDataBothWays(t *testing.T) {
	renamed := func(m *Model) {
		c := m.Tables[1].Column("buyer")
		c.Name, c.Was = "customer", []string{"buyer"}
	}
	tests := []struct {
		name  string
		steps []func(m *Model) // each model in turn, from shopModel
		table string
		col   string // a column whose value of the run's row is checked
	}{
		{"rename then undo", []func(*Model){renamed, func(*Model) {}}, "orders", "buyer"},
		{"rename then rename back", []func(*Model){renamed, func(m *Model) {
			c := m.Tables[1].Column("buyer")
			c.Name, c.Was = "buyer", nil
		}}, "orders", "buyer"},
		{"rename twice then undo twice", []func(*Model){renamed, func(m *Model) {
			c := m.Tables[1].Column("buyer")
			c.Name, c.Was = "client", []string{"buyer", "customer"}
		}, renamed, func(*Model) {}}, "orders", "buyer"},
		{"rename table then undo", []func(*Model){func(m *Model) {
			m.Tables[1].Name, m.Tables[1].Was = "purchases", []string{"orders"}
		}, func(*Model) {}}, "orders", "total"},
		{"remove column then undo", []func(*Model){func(m *Model) {
			m.Tables[1].Columns = m.Tables[1].Columns[1:]
			m.Tables[1].Removed = []string{"buyer"}
		}, func(*Model) {}}, "orders", "buyer"},
		{"remove table then undo", []func(*Model){func(m *Model) {
			m.Tables = m.Tables[:1]
			m.Removed = []string{"orders"}
		}, func(*Model) {}}, "orders", "buyer"},
		{"remove renamed column then undo both", []func(*Model){renamed, func(m *Model) {
			m.Tables[1].Columns = m.Tables[1].Columns[1:]
			m.Tables[1].Removed = []string{"customer", "buyer"}
		}, renamed, func(*Model) {}}, "orders", "buyer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			db, m := open(t), shopModel()
			if _, err := db.Migrate(ctx, m); err != nil {
				t.Fatal(err)
			}
			insertRun(t, db, m, Row{"buyer": "u2", "total": 5.0})
			for i, edit := range tt.steps {
				m2 := shopModel()
				edit(m2)
				if dr, err := db.Drift(ctx, m2); err != nil || len(dr) > 0 {
					t.Fatalf("step %d: drift = %v, %v; want none", i+1, dr, err)
				}
				if _, err := db.Migrate(ctx, m2); err != nil {
					t.Fatalf("step %d: %v", i+1, err)
				}
				if m2.Table(tt.table) != nil {
					insertRun(t, db, m2, runRow(m2))
				}
			}
			got := rows(t, db, m, tt.table)
			if len(got) < 3 {
				t.Fatalf("%s has %d rows, want the test data's and the run's: %v", tt.table, len(got), got)
			}
			if got[2][tt.col] == nil {
				t.Errorf("the run's row lost %s: %v", tt.col, got[2])
			}
			want := Row{"id": "orders_1", "buyer": "u2", "total": 5.0, "meta": nil, "status": "new"}
			if !reflect.DeepEqual(got[2], want) {
				t.Errorf("the run's row = %v, want %v", got[2], want)
			}
		})
	}
}

// TestResetForgetsKept: a reset forgets what removed set aside, so a
// column named again after it starts from its default.
func TestResetForgetsKept(t *testing.T) {
	ctx := context.Background()
	db, m := open(t), shopModel()
	if _, err := db.Migrate(ctx, m); err != nil {
		t.Fatal(err)
	}
	gone := shopModel()
	gone.Tables[0].Columns = gone.Tables[0].Columns[:2]
	gone.Tables[0].Removed = []string{"admin"}
	if _, err := db.Migrate(ctx, gone); err != nil {
		t.Fatal(err)
	}
	if err := db.Reset(ctx, gone); err != nil {
		t.Fatal(err)
	}
	back := shopModel()
	back.TestData["users"][0]["admin"] = nil
	if _, err := db.Migrate(ctx, back); err != nil {
		t.Fatal(err)
	}
	if u := rows(t, db, back, "users"); u[0]["admin"] != false {
		t.Errorf("admin of u1 after reset and undo = %v, want the default false", u[0]["admin"])
	}
}

// TestRestoreKeepsTypes: values kept of a removed column come back only to
// a column of the same declared type.
func TestRestoreKeepsTypes(t *testing.T) {
	ctx := context.Background()
	db, m := open(t), shopModel()
	if _, err := db.Migrate(ctx, m); err != nil {
		t.Fatal(err)
	}
	gone := shopModel()
	gone.Tables[1].Columns = gone.Tables[1].Columns[:3]
	gone.Tables[1].Removed = []string{"status"}
	if _, err := db.Migrate(ctx, gone); err != nil {
		t.Fatal(err)
	}
	other := shopModel()
	other.Tables[1].Columns[3] = &schema.Column{Name: "status", Type: schema.Int, Optional: true}
	if _, err := db.Migrate(ctx, other); err != nil {
		t.Fatal(err)
	}
	if o := rows(t, db, other, "orders"); o[0]["status"] != nil {
		t.Errorf("an int status took the text values kept: %v", o[0])
	}
}

func runRow(m *Model) Row {
	if m.Table("orders").Column("buyer") != nil {
		return Row{"buyer": "u1", "total": 1.0}
	}
	if m.Table("orders").Column("customer") != nil {
		return Row{"customer": "u1", "total": 1.0}
	}
	if m.Table("orders").Column("client") != nil {
		return Row{"client": "u1", "total": 1.0}
	}
	return Row{"total": 1.0}
}

// insertRun inserts row into orders (or the table orders became) as a run
// would.
func insertRun(t *testing.T, db *DB, m *Model, row Row) {
	t.Helper()
	name := "orders"
	if m.Table(name) == nil {
		name = "purchases"
	}
	tx, err := db.Begin(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	r, err := tx.PrepareInsert(name, row)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Insert(name, r); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}
