package runlog

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/sqlitefile"
)

func TestAddList(t *testing.T) {
	ctx := context.Background()
	l, err := Open(ctx, filepath.Join(t.TempDir(), ".tent", "logs.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	base := time.Date(2024, 6, 1, 10, 0, 0, 0, time.UTC)
	entries := []Entry{
		{Time: base, Name: "a", As: "u1", Input: json.RawMessage(`{}`), Result: json.RawMessage(`1`), MS: 1.5},
		{Time: base.Add(time.Hour), Name: "b", As: "nobody", Input: json.RawMessage(`{"x":1}`), Error: diag.Errorf(diag.T4003, "boom").With("at", "f.ts:1:1"), MS: 2},
		{Time: base.Add(2 * time.Hour), Name: "c", As: "system", Input: json.RawMessage(`{}`), Result: json.RawMessage(`null`), MS: 3},
	}
	for _, e := range entries {
		if err := l.Add(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		q    Query
		want []string
	}{
		{Query{}, []string{"c", "b", "a"}},
		{Query{Errors: true}, []string{"b"}},
		{Query{Since: base.Add(30 * time.Minute)}, []string{"c", "b"}},
		{Query{Limit: 1}, []string{"c"}},
	}
	for _, tt := range tests {
		got, _, err := l.List(ctx, tt.q)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range got {
			names = append(names, e.Name)
		}
		if len(names) != len(tt.want) {
			t.Errorf("List(%+v) = %v, want %v", tt.q, names, tt.want)
			continue
		}
		for i := range names {
			if names[i] != tt.want[i] {
				t.Errorf("List(%+v) = %v, want %v", tt.q, names, tt.want)
			}
		}
	}
	errs, _, _ := l.List(ctx, Query{Errors: true})
	if e := errs[0]; e.Error.Code != diag.T4003 || e.Error.Data["at"] != "f.ts:1:1" || !e.Time.Equal(base.Add(time.Hour)) || string(e.Input) != `{"x":1}` {
		t.Errorf("error entry = %+v", e)
	}
}

func TestParseSince(t *testing.T) {
	now := time.Date(2024, 6, 10, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Time
		bad  bool
	}{
		{"10m", now.Add(-10 * time.Minute), false},
		{"2h", now.Add(-2 * time.Hour), false},
		{"3d", now.Add(-72 * time.Hour), false},
		{"1w", now.Add(-7 * 24 * time.Hour), false},
		{"2024-06-01T10:00:00Z", time.Date(2024, 6, 1, 10, 0, 0, 0, time.UTC), false},
		{"yesterday", time.Time{}, true},
		{"-5m", time.Time{}, true},
	}
	for _, tt := range tests {
		got, err := ParseSince(tt.in, now)
		if (err != nil) != tt.bad || !got.Equal(tt.want) {
			t.Errorf("ParseSince(%q) = %v, %v; want %v, bad %v", tt.in, got, err, tt.want, tt.bad)
		}
	}
}

func TestEntryJSON(t *testing.T) {
	e := Entry{Time: time.Date(2024, 6, 1, 10, 0, 0, 0, time.UTC), Name: "b", As: "nobody", Input: json.RawMessage(`{}`),
		Error: diag.Errorf(diag.T4003, "boom").With("at", "f.ts:1:1"), MS: 2}
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"time":"2024-06-01T10:00:00Z","name":"b","as":"nobody","input":{},"ms":2,"error":{"at":"f.ts:1:1","code":"T4003","message":"boom"}}`
	if string(b) != want {
		t.Errorf("entry JSON =\n%s\nwant\n%s", b, want)
	}
}

func TestKeepsNewest(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "logs.db")
	l, err := open(ctx, path, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		if err := l.Add(ctx, Entry{Time: time.Now(), Name: n, As: "nobody"}); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	l, err = open(ctx, path, 3)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	got, _, err := l.List(ctx, Query{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range got {
		names = append(names, e.Name)
	}
	if strings.Join(names, "") != "edc" {
		t.Errorf("after reopening, the log keeps %v, want e d c", names)
	}
}

// TestUnreadableEntriesAreSkipped: a stored run that cannot be read (not
// JSON where JSON is kept, an error that is no error) is left out and
// counted; the others still read.
func TestUnreadableEntriesAreSkipped(t *testing.T) {
	ctx := context.Background()
	l, err := Open(ctx, filepath.Join(t.TempDir(), "logs.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := l.Add(ctx, Entry{Time: time.Now(), Name: "good", As: "nobody", Input: json.RawMessage(`{}`), Result: json.RawMessage(`1`)}); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{
		`INSERT INTO runs (time, name, who, input, result, ms) VALUES ('2026-01-01T00:00:00.000000Z', 'r', 'nobody', '{}', 'not JSON', 1)`,
		`INSERT INTO runs (time, name, who, input, ms) VALUES ('2026-01-01T00:00:00.000000Z', 'i', 'nobody', 'not JSON', 1)`,
		`INSERT INTO runs (time, name, who, input, error, ms) VALUES ('2026-01-01T00:00:00.000000Z', 'e', 'nobody', '{}', '[1]', 1)`,
		`INSERT INTO runs (time, name, who, input, ms) VALUES ('yesterday', 't', 'nobody', '{}', 1)`,
	} {
		if _, err := l.db.ExecContext(ctx, bad); err != nil {
			t.Fatal(err)
		}
	}
	got, skipped, err := l.List(ctx, Query{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Name != "good" || skipped != 4 {
		t.Errorf("list = %+v, skipped %d; want the good entry and 4 skipped", got, skipped)
	}
	if _, err := json.Marshal(got); err != nil {
		t.Errorf("the entries do not make JSON: %v", err)
	}
}

// TestSchemaVersions: a run log made before versions were stamped (the
// first schema, user_version 0) opens, keeps its runs and is stamped; one
// made by a newer release is refused with sqlitefile.ErrNewer.
func TestSchemaVersions(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	first := filepath.Join(dir, "first.db")
	db, err := sqlitefile.Open(first, sqlitefile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `CREATE TABLE runs (
		seq INTEGER PRIMARY KEY AUTOINCREMENT, time TEXT NOT NULL, name TEXT NOT NULL,
		who TEXT NOT NULL, input TEXT NOT NULL, result TEXT, error TEXT, ms REAL NOT NULL);
		INSERT INTO runs (time, name, who, input, result, ms)
		VALUES ('2024-06-01T10:00:00.000000Z', 'old', 'nobody', '{}', '1', 1)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	l, err := Open(ctx, first)
	if err != nil {
		t.Fatalf("a run log of the first schema: %v", err)
	}
	entries, _, err := l.List(ctx, Query{})
	l.Close()
	if err != nil || len(entries) != 1 || entries[0].Name != "old" {
		t.Fatalf("the first schema's runs: %+v, %v", entries, err)
	}

	newer := filepath.Join(dir, "newer.db")
	db, err = sqlitefile.Open(newer, sqlitefile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `PRAGMA user_version = 99`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if l, err := Open(ctx, newer); !errors.Is(err, sqlitefile.ErrNewer) {
		if l != nil {
			l.Close()
		}
		t.Fatalf("a run log of a newer release: %v, want ErrNewer", err)
	}
}
