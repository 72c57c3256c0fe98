// Package runlog keeps the log of a workspace's runs (docs/pages/logs.md):
// every run, from any face, with its time, name, user, input, result or
// error and duration, in an SQLite database in .tent/. It stores what it is
// given: hiding private values is the runner's part, before it adds.
package runlog

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/tent-tools/tent-tools/internal/sqlitefile"

	"github.com/tent-tools/tent-tools/diag"
)

// Entry is one run.
type Entry struct {
	Time   time.Time       `json:"time"`
	Name   string          `json:"name"`
	As     string          `json:"as"`
	Input  json.RawMessage `json:"input"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *diag.ToolError `json:"error,omitempty"`
	MS     float64         `json:"ms"`
}

// MarshalJSON writes an entry as the logs answer shows it (docs/pages/logs.md),
// its error as every face writes an error: code, message and its facts
// side by side.
func (e Entry) MarshalJSON() ([]byte, error) {
	type plain Entry
	out := struct {
		plain
		Error map[string]any `json:"error,omitempty"`
	}{plain: plain(e)}
	if e.Error != nil {
		out.Error = map[string]any{}
		for k, v := range e.Error.Data {
			out.Error[k] = v
		}
		out.Error["code"] = e.Error.Code
		out.Error["message"] = e.Error.Message
	}
	return json.Marshal(out)
}

// Log is an open run log.
type Log struct{ db *sql.DB }

// schemaSteps are the versions of the run log's schema
// (sqlitefile.Migrate): the first is the schema from before versions were
// stamped, made only where missing.
var schemaSteps = []string{`CREATE TABLE IF NOT EXISTS runs (
		seq INTEGER PRIMARY KEY AUTOINCREMENT,
		time TEXT NOT NULL,
		name TEXT NOT NULL,
		who TEXT NOT NULL,
		input TEXT NOT NULL,
		result TEXT,
		error TEXT,
		ms REAL NOT NULL
	);
	CREATE INDEX IF NOT EXISTS runs_time ON runs (time)`}

// Open opens (creating where needed) the run log at path, brought to the
// schema version of this release (a newer file is sqlitefile.ErrNewer),
// keeping the newest Keep runs.
func Open(ctx context.Context, path string) (*Log, error) {
	return open(ctx, path, Keep)
}

// OpenIn is Open of the log at path in the open folder dir (.tent/,
// reached without following a link): a swap of the folder for a link
// after it was opened cannot redirect the log (sqlitefile.OpenIn). dir may
// be closed once OpenIn returns.
func OpenIn(ctx context.Context, dir *os.File, path string) (*Log, error) {
	db, err := sqlitefile.OpenIn(dir, path, options)
	if err != nil {
		return nil, fmt.Errorf("run log: %w", err)
	}
	return ready(ctx, db, path, Keep)
}

// options are the log's: it only saves what can be lost.
var options = sqlitefile.Options{Busy: 5 * time.Second, Synchronous: "OFF"}

func open(ctx context.Context, path string, keep int) (*Log, error) {
	db, err := sqlitefile.Open(path, options)
	if err != nil {
		return nil, fmt.Errorf("run log: %w", err)
	}
	return ready(ctx, db, path, keep)
}

// ready brings the opened log at path to this release's schema and drops
// all but its newest keep runs.
func ready(ctx context.Context, db *sql.DB, path string, keep int) (*Log, error) {
	db.SetMaxOpenConns(1)
	_, err := sqlitefile.Migrate(ctx, db, schemaSteps)
	if err == nil {
		// The log keeps the newest runs only, so it cannot grow without end.
		_, err = db.ExecContext(ctx, `DELETE FROM runs WHERE seq <= (SELECT max(seq) FROM runs) - ?`, keep)
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("run log %s: %w", path, err)
	}
	return &Log{db: db}, nil
}

// Keep is how many runs the log keeps: opening it drops older ones.
const Keep = 10000

// Close closes the log.
func (l *Log) Close() error { return l.db.Close() }

// timeLayout keeps times sortable as text.
const timeLayout = "2006-01-02T15:04:05.000000Z07:00"

// Add keeps one run.
func (l *Log) Add(ctx context.Context, e Entry) error {
	input := string(e.Input)
	if input == "" {
		input = "null"
	}
	var result, errText any
	if e.Result != nil {
		result = string(e.Result)
	}
	if e.Error != nil {
		b, err := json.Marshal(e.Error)
		if err != nil {
			return fmt.Errorf("run log: %w", err)
		}
		errText = string(b)
	}
	_, err := l.db.ExecContext(ctx, `INSERT INTO runs (time, name, who, input, result, error, ms) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		e.Time.UTC().Format(timeLayout), e.Name, e.As, input, result, errText, e.MS)
	if err != nil {
		return fmt.Errorf("run log: %w", err)
	}
	return nil
}

// Query says which runs List answers: errors only, since a time (zero:
// all), at most Limit (0: all).
type Query struct {
	Errors bool
	Since  time.Time
	Limit  int
}

// List answers the runs that q asks for, newest first, and how many
// stored runs it left out because they cannot be read (a result or input
// that is not JSON, an error that is not an error): one bad entry never
// breaks the log.
func (l *Log) List(ctx context.Context, q Query) ([]Entry, int, error) {
	s := `SELECT time, name, who, input, result, error, ms FROM runs WHERE 1 = 1`
	var args []any
	if q.Errors {
		s += ` AND error IS NOT NULL`
	}
	if !q.Since.IsZero() {
		s += ` AND time >= ?`
		args = append(args, q.Since.UTC().Format(timeLayout))
	}
	s += ` ORDER BY seq DESC`
	if q.Limit > 0 {
		s += ` LIMIT ` + strconv.Itoa(q.Limit)
	}
	rows, err := l.db.QueryContext(ctx, s, args...)
	if err != nil {
		return nil, 0, fmt.Errorf("run log: %w", err)
	}
	defer rows.Close()
	out := []Entry{}
	skipped := 0
	for rows.Next() {
		var e Entry
		var at, input string
		var result, errText sql.NullString
		if err := rows.Scan(&at, &e.Name, &e.As, &input, &result, &errText, &e.MS); err != nil {
			skipped++
			continue
		}
		if !readEntry(&e, at, input, result, errText) {
			skipped++
			continue
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("run log: %w", err)
	}
	return out, skipped, nil
}

// readEntry fills e from a stored row, and reports whether it reads.
func readEntry(e *Entry, at, input string, result, errText sql.NullString) bool {
	t, err := time.Parse(timeLayout, at)
	if err != nil || !json.Valid([]byte(input)) {
		return false
	}
	e.Time, e.Input = t, json.RawMessage(input)
	if result.Valid {
		if !json.Valid([]byte(result.String)) {
			return false
		}
		e.Result = json.RawMessage(result.String)
	}
	if errText.Valid {
		e.Error = &diag.ToolError{}
		if err := json.Unmarshal([]byte(errText.String), e.Error); err != nil || e.Error.Code == "" {
			return false
		}
	}
	return true
}

// ParseSince reads a `since`: a time (RFC 3339) or an age before now
// ("90s", "10m", "2h", "3d", "1w").
func ParseSince(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	units := map[byte]time.Duration{'d': 24 * time.Hour, 'w': 7 * 24 * time.Hour}
	if len(s) > 1 {
		if unit, ok := units[s[len(s)-1]]; ok {
			if n, err := strconv.ParseFloat(s[:len(s)-1], 64); err == nil && n >= 0 {
				return now.Add(-time.Duration(n * float64(unit))), nil
			}
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, fmt.Errorf("since %q: want a time (RFC 3339, 2024-06-01T10:00:00Z) or an age (10m, 2h, 3d)", s)
}
