package testdb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/tent-tools/tent-tools/schema"
)

// seqTable keeps, per table, the number of the last id the database made.
const seqTable = internalPrefix + "seq"

// Tx is one run's view of the database: its reads see its own writes, and
// it lands whole (Commit) or not at all (Rollback).
type Tx struct {
	ctx context.Context
	tx  *sql.Tx
	m   *Model
	w   *writer
}

// Begin starts a run's transaction over a database that fits m (Migrate first).
func (d *DB) Begin(ctx context.Context, m *Model) (*Tx, error) {
	tx, err := d.sql.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("test database: %w", err)
	}
	return &Tx{ctx: ctx, tx: tx, m: m, w: &writer{q: tx}}, nil
}

// Commit lands the run's writes.
func (t *Tx) Commit() error { return t.tx.Commit() }

// Rollback drops the run's writes; after Commit it does nothing.
func (t *Tx) Rollback() error {
	err := t.tx.Rollback()
	if errors.Is(err, sql.ErrTxDone) {
		return nil
	}
	return err
}

// Query says which rows Select answers: those equal to every value of
// Match (null matches null), ordered by Order ("col" rising, "-col"
// falling, insertion order where empty), at most Limit (0: all).
type Query struct {
	Match map[string]any
	Order string
	Limit int
}

// table returns the live table named name, or an error that says so.
func (t *Tx) table(name string) (*schema.Table, error) {
	return modelTable(t.m, name)
}

func modelTable(m *Model, name string) (*schema.Table, error) {
	tb := m.Table(name)
	if tb == nil {
		return nil, fmt.Errorf("no table %s", name)
	}
	return tb, nil
}

// column returns a column of tb, with the implicit id as a text column.
func column(tb *schema.Table, name string) *schema.Column {
	if name == "id" {
		return &schema.Column{Name: "id", Type: schema.Text}
	}
	return tb.Column(name)
}

// Select answers the rows of a table that q asks for.
func (t *Tx) Select(table string, q Query) ([]Row, error) {
	tb, err := t.table(table)
	if err != nil {
		return nil, err
	}
	return selectRows(t.ctx, t.tx, tb, q)
}

func selectRows(ctx context.Context, qr querier, tb *schema.Table, q Query) ([]Row, error) {
	var where []string
	var args []any
	keys := make([]string, 0, len(q.Match))
	for k := range q.Match {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		c := column(tb, k)
		if c == nil {
			return nil, fmt.Errorf("%s has no column %s", tb.Name, k)
		}
		v, err := matchValue(c, q.Match[k])
		if err != nil {
			return nil, fmt.Errorf("where %s.%s: %w", tb.Name, k, err)
		}
		if v == nil {
			where = append(where, quote(k)+" IS NULL")
		} else {
			where = append(where, quote(k)+" = ?")
			args = append(args, v)
		}
	}
	s := selectSQL(tb)
	if len(where) > 0 {
		s += " WHERE " + strings.Join(where, " AND ")
	}
	if q.Order != "" {
		name, desc := strings.CutPrefix(q.Order, "-")
		if column(tb, name) == nil {
			return nil, fmt.Errorf("order: %s has no column %s", tb.Name, name)
		}
		s += " ORDER BY " + quote(name)
		if desc {
			s += " DESC"
		}
		s += ", rowid"
	} else {
		s += " ORDER BY rowid"
	}
	if q.Limit < 0 {
		return nil, fmt.Errorf("limit %d: want 0 or more", q.Limit)
	}
	if q.Limit > 0 {
		s += fmt.Sprintf(" LIMIT %d", q.Limit)
	}
	rows, err := qr.QueryContext(ctx, s, args...)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", tb.Name, err)
	}
	return scanRows(tb, rows)
}

// selectSQL is the SELECT of a live table's id and columns.
func selectSQL(tb *schema.Table) string {
	var b strings.Builder
	b.WriteString("SELECT id")
	for _, c := range tb.Columns {
		b.WriteString(", " + quote(c.Name))
	}
	b.WriteString(" FROM " + quote(tb.Name))
	return b.String()
}

// scanRows reads rows of selectSQL into JSON rows, and closes them.
func scanRows(tb *schema.Table, rows *sql.Rows) ([]Row, error) {
	defer rows.Close()
	out := []Row{}
	vals := make([]any, len(tb.Columns)+1)
	ptrs := make([]any, len(vals))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, fmt.Errorf("read %s: %w", tb.Name, err)
		}
		r := make(Row, len(vals))
		r["id"] = load(&schema.Column{Type: schema.Text}, vals[0])
		for i, c := range tb.Columns {
			r[c.Name] = load(c, vals[i+1])
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", tb.Name, err)
	}
	return out, nil
}

// Get answers the row of a table with that id, or nil.
func (t *Tx) Get(table, id string) (Row, error) {
	tb, err := t.table(table)
	if err != nil {
		return nil, err
	}
	rows, err := selectRows(t.ctx, t.tx, tb, Query{Match: map[string]any{"id": id}, Limit: 1})
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	return rows[0], nil
}

// PrepareInsert answers the row that inserting row would write: every
// column present (a missing one takes its default, or null where it is
// optional), an id made where row has none. It fails, writing nothing,
// where a value does not fit its column, a required value is missing, a
// key names no column, a unique value or the id is taken.
func (t *Tx) PrepareInsert(table string, row Row) (Row, error) {
	tb, err := t.table(table)
	if err != nil {
		return nil, err
	}
	out := Row{}
	for k := range row {
		if k != "id" && tb.Column(k) == nil {
			return nil, fmt.Errorf("%s has no column %s", table, k)
		}
	}
	for _, c := range tb.Columns {
		v, ok := row[c.Name]
		if !ok {
			v = c.Default
		}
		if err := schema.CheckValue(c, v); err != nil {
			return nil, fmt.Errorf("%s.%w", table, err)
		}
		out[c.Name] = v
	}
	switch id := row["id"].(type) {
	case nil:
		made, err := t.w.newID(t.ctx, table)
		if err != nil {
			return nil, err
		}
		out["id"] = made
	case string:
		if id == "" {
			return nil, fmt.Errorf("%s: an id may not be empty", table)
		}
		have, err := t.Get(table, id)
		if err != nil {
			return nil, err
		}
		if have != nil {
			return nil, fmt.Errorf("%s already has a row %s", table, id)
		}
		out["id"] = id
	default:
		return nil, fmt.Errorf("%s: an id is a string", table)
	}
	if err := t.checkUnique(tb, out); err != nil {
		return nil, err
	}
	return out, nil
}

// Insert writes a row that PrepareInsert answered, and answers it.
func (t *Tx) Insert(table string, row Row) (Row, error) {
	tb, err := t.table(table)
	if err != nil {
		return nil, err
	}
	return row, t.w.put(t.ctx, tb, row, "INSERT")
}

// PrepareUpdate answers the row with that id as it is, and as patch would
// leave it. It fails, writing nothing, where there is no such row, the patch
// names the id or no column, a value does not fit, or a unique value is taken.
func (t *Tx) PrepareUpdate(table, id string, patch Row) (old, updated Row, err error) {
	tb, err := t.table(table)
	if err != nil {
		return nil, nil, err
	}
	old, err = t.Get(table, id)
	if err != nil {
		return nil, nil, err
	}
	if old == nil {
		return nil, nil, fmt.Errorf("%s has no row %s", table, id)
	}
	updated = Row{}
	for k, v := range old {
		updated[k] = v
	}
	for k, v := range patch {
		if k == "id" {
			if v != id {
				return nil, nil, fmt.Errorf("%s: the id of a row cannot change", table)
			}
			continue
		}
		c := tb.Column(k)
		if c == nil {
			return nil, nil, fmt.Errorf("%s has no column %s", table, k)
		}
		if err := schema.CheckValue(c, v); err != nil {
			return nil, nil, fmt.Errorf("%s.%w", table, err)
		}
		updated[k] = v
	}
	if err := t.checkUnique(tb, updated); err != nil {
		return nil, nil, err
	}
	return old, updated, nil
}

// Put writes a whole row that PrepareUpdate answered.
func (t *Tx) Put(table string, row Row) error {
	tb, err := t.table(table)
	if err != nil {
		return err
	}
	return t.w.put(t.ctx, tb, row, "REPLACE")
}

// Delete removes the row with that id and answers it as it was.
func (t *Tx) Delete(table, id string) (Row, error) {
	old, err := t.Get(table, id)
	if err != nil {
		return nil, err
	}
	if old == nil {
		return nil, fmt.Errorf("%s has no row %s", table, id)
	}
	if _, err := t.tx.ExecContext(t.ctx, "DELETE FROM "+quote(table)+" WHERE id = ?", id); err != nil {
		return nil, fmt.Errorf("remove %s %s: %w", table, id, err)
	}
	return old, nil
}

// checkUnique fails where row holds a value of a unique column that
// another row of the table has.
func (t *Tx) checkUnique(tb *schema.Table, row Row) error {
	for _, c := range tb.Columns {
		if !c.Unique || row[c.Name] == nil {
			continue
		}
		v, err := store(c, row[c.Name])
		if err != nil {
			return fmt.Errorf("%s.%w", tb.Name, err)
		}
		var other string
		err = t.tx.QueryRowContext(t.ctx, "SELECT id FROM "+quote(tb.Name)+" WHERE "+quote(c.Name)+" = ? AND id <> ? LIMIT 1", v, row["id"]).Scan(&other)
		if err == nil {
			return fmt.Errorf("%s.%s is unique, and row %s has %v", tb.Name, c.Name, other, row[c.Name])
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("%s.%s: %w", tb.Name, c.Name, err)
		}
	}
	return nil
}

// writer writes rows and makes ids.
type writer struct{ q querier }

// put writes every column of row with verb (INSERT or REPLACE).
func (w *writer) put(ctx context.Context, tb *schema.Table, row Row, verb string) error {
	vals := []any{row["id"]}
	for _, c := range tb.Columns {
		s, err := store(c, row[c.Name])
		if err != nil {
			return fmt.Errorf("%s.%w", tb.Name, err)
		}
		vals = append(vals, s)
	}
	q := strings.Replace(insertSQL(tb), "INSERT OR REPLACE", verb, 1)
	if _, err := w.q.ExecContext(ctx, q, vals...); err != nil {
		return fmt.Errorf("write %s: %w", tb.Name, err)
	}
	return nil
}

// newID makes an id for a new row of table: the table's name and a number
// that rises, skipping ids the table already has.
func (w *writer) newID(ctx context.Context, table string) (string, error) {
	if _, err := w.q.ExecContext(ctx, "CREATE TABLE IF NOT EXISTS "+seqTable+" (tbl TEXT PRIMARY KEY, n INTEGER NOT NULL)"); err != nil {
		return "", fmt.Errorf("ids: %w", err)
	}
	for {
		var n int64
		err := w.q.QueryRowContext(ctx, "INSERT INTO "+seqTable+" (tbl, n) VALUES (?, 1) ON CONFLICT(tbl) DO UPDATE SET n = n + 1 RETURNING n", table).Scan(&n)
		if err != nil {
			return "", fmt.Errorf("ids: %w", err)
		}
		id := fmt.Sprintf("%s_%d", table, n)
		var x int
		err = w.q.QueryRowContext(ctx, "SELECT 1 FROM "+quote(table)+" WHERE id = ?", id).Scan(&x)
		if errors.Is(err, sql.ErrNoRows) {
			return id, nil
		}
		if err != nil {
			return "", fmt.Errorf("ids: %w", err)
		}
	}
}

// Rows answers up to limit rows of a table (0: all), in insertion order,
// and how many rows it has.
func (d *DB) Rows(ctx context.Context, m *Model, table string, limit int) ([]Row, int, error) {
	tb, err := modelTable(m, table)
	if err != nil {
		return nil, 0, err
	}
	rows, err := selectRows(ctx, d.sql, tb, Query{Limit: limit})
	if err != nil {
		return nil, 0, err
	}
	var total int
	if err := d.sql.QueryRowContext(ctx, "SELECT count(*) FROM "+quote(table)).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count %s: %w", table, err)
	}
	return rows, total, nil
}
