package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/runner/runlog"
	"github.com/tent-tools/tent-tools/runner/testdb"
)

// app answers what runs need of ix, read once per snapshot.
func (r *Runner) app(ix *definitions.Index) *app {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.lastIx != ix {
		r.lastIx, r.lastApp = ix, appOf(ix)
	}
	return r.lastApp
}

// Run calls a function or starts a flow on the test database (each tool's page in docs/pages/,
// run), and keeps the run in the log. A run that fails answers a
// *diag.ToolError: T4001 unknown name, T4002 bad input, T3102 system not
// let, T3103 the person said no, T3104 may refused, T4003 the app threw
// (with the app's file and line), T4004 time, T4005 memory, T2011 the test
// database drifted, T9103/T9102 for an `as` that names no single user.
// Writes of a run that fails are rolled back.
func (r *Runner) Run(ctx context.Context, ix *definitions.Index, req Request) (*Result, error) {
	res, err := r.run(ctx, r.app(ix), indexSource{ix: ix, root: r.root}, req)
	return res, stoppedEarly(ctx, err)
}

// stoppedEarly codes an error that the caller's context caused before the
// run's own watchdog was running (bundling, opening the test database):
// the run was stopped, T4004, as it is once the app's code runs.
func stoppedEarly(ctx context.Context, err error) error {
	var te *diag.ToolError
	if err == nil || errors.As(err, &te) || ctx.Err() == nil {
		return err
	}
	return diag.Errorf(diag.T4004, "the run was stopped before it started: %v", context.Cause(ctx))
}

// Rows is the answer of rows (docs/pages/rows.md).
type Rows struct {
	Table  string            `json:"table"`
	Rows   []json.RawMessage `json:"rows"`
	Hidden []string          `json:"hidden"`
	Total  int               `json:"total"`
}

// DefaultRowsLimit is how many rows Rows answers where no limit is given.
const DefaultRowsLimit = 100

// Rows answers rows of a table of the test database, up to limit (0:
// DefaultRowsLimit), without its private columns, which Hidden names.
func (r *Runner) Rows(ctx context.Context, ix *definitions.Index, table string, limit int) (*Rows, error) {
	return r.rows(ctx, r.app(ix), table, limit)
}

// RowsStamped is Rows for a process that has not read the index, as
// RunStamped is Run: ok == false where the app snapshot does not fit
// stamps, and nothing was read.
func (r *Runner) RowsStamped(ctx context.Context, stamps map[string]definitions.Stamp, table string, limit int) (rows *Rows, ok bool, err error) {
	a := r.loadApp(stamps)
	if a == nil {
		return nil, false, nil
	}
	rows, err = r.rows(ctx, a, table, limit)
	return rows, true, err
}

// rows answers rows of a table of a's test database.
func (r *Runner) rows(ctx context.Context, a *app, table string, limit int) (*Rows, error) {
	t := a.tables[table]
	if t == nil {
		return nil, unknownName(a, diag.T9103, "table", table, a.tables)
	}
	if limit < 0 {
		return nil, diag.Errorf(diag.T9102, "limit %d: want 0 or more", limit)
	}
	if limit == 0 {
		limit = DefaultRowsLimit
	}
	db, err := r.database(ctx, a)
	if err != nil {
		return nil, err
	}
	rows, total, err := db.Rows(ctx, a.model, table, limit)
	if err != nil {
		return nil, err
	}
	out := &Rows{Table: table, Rows: []json.RawMessage{}, Hidden: []string{}, Total: total}
	keys := []string{"id"}
	for _, c := range t.Schema.Columns {
		if c.Private {
			out.Hidden = append(out.Hidden, c.Name)
			continue
		}
		keys = append(keys, c.Name)
	}
	for _, row := range rows {
		b, err := orderedJSON(keys, row)
		if err != nil {
			return nil, err
		}
		out.Rows = append(out.Rows, b)
	}
	return out, nil
}

// orderedJSON writes the keys of row, in that order, as a JSON object.
func orderedJSON(keys []string, row map[string]any) (json.RawMessage, error) {
	b := []byte{'{'}
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		kb, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		vb, err := json.Marshal(row[k])
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, kb...), ':'), vb...)
	}
	return append(b, '}'), nil
}

// LogsQuery says which runs Logs answers.
type LogsQuery struct {
	// Errors keeps only the runs that failed.
	Errors bool
	// Since is a time (RFC 3339) or an age ("10m", "2h", "3d"); "" for all.
	Since string
	// Limit bounds the entries (0: all).
	Limit int
}

// Logs is the answer of logs (docs/pages/logs.md).
type Logs struct {
	Entries []runlog.Entry `json:"entries"`
	// Notes says what was left out: stored runs that cannot be read.
	Notes []string `json:"notes,omitempty"`
	// More, in an agent's bounded answer, says what Entries left out
	// beyond its budget and how to ask for it.
	More []diag.More `json:"more,omitempty"`
}

// Logs answers the runs of the workspace, newest first (docs/pages/logs.md).
// A since that is neither a time nor an age is T9102.
func (r *Runner) Logs(ctx context.Context, q LogsQuery) (*Logs, error) {
	lq := runlog.Query{Errors: q.Errors, Limit: q.Limit}
	if q.Since != "" {
		t, err := runlog.ParseSince(q.Since, time.Now())
		if err != nil {
			return nil, diag.Errorf(diag.T9102, "%v", err)
		}
		lq.Since = t
	}
	l, err := r.runLog(ctx)
	if err != nil {
		return nil, err
	}
	entries, skipped, err := l.List(ctx, lq)
	if err != nil {
		return nil, err
	}
	out := &Logs{Entries: entries}
	if skipped > 0 {
		out.Notes = []string{fmt.Sprintf("%d stored runs cannot be read and were left out", skipped)}
	}
	return out, nil
}

// Reset rebuilds the test database from the test data, on purpose: every
// row that runs wrote is gone, and what drifted with it.
func (r *Runner) Reset(ctx context.Context, ix *definitions.Index) error {
	a := r.app(ix)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.db == nil {
		db, err := r.openTestDB(ctx)
		if err != nil {
			return stateError(TestDBFile, err)
		}
		r.db = db
	}
	if err := reservedTables(a); err != nil {
		return err
	}
	if err := r.db.Reset(ctx, a.model); err != nil {
		return err
	}
	r.migrated = a.fingerprint
	r.migratedSchema, _ = r.db.SchemaVersion(ctx)
	return nil
}

// Drift answers T2011 findings for what the test database at dbPath has
// and no definition of ix names, as name, was or removed. A database that
// does not exist yet has no drift; one that cannot be read is a T4006
// warning that says why, so a broken database never passes for one
// without drift.
func Drift(ctx context.Context, ix *definitions.Index, dbPath string) []diag.Finding {
	if _, err := os.Stat(dbPath); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	dr, err := readDrift(ctx, ix, dbPath)
	if err != nil {
		return []diag.Finding{unreadable(ix, err)}
	}
	return driftFindings(ix, dr)
}

// readDrift opens the test database at dbPath and reads its drift.
func readDrift(ctx context.Context, ix *definitions.Index, dbPath string) ([]testdb.Drift, error) {
	db, err := testdb.Open(ctx, dbPath)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	dr, err := db.Drift(ctx, appOf(ix).model)
	if err != nil {
		return nil, fmt.Errorf("test database %s: %w", dbPath, err)
	}
	return dr, nil
}
