package runner

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDriftOfUnreadableDatabase: a test database that cannot be read is a
// T4006 warning, never silently no drift.
func TestDriftOfUnreadableDatabase(t *testing.T) {
	root := project(t, "run-hostile")
	ix := index(t, root)
	path := TestDBPath(root)
	if fs := Drift(context.Background(), ix, path); len(fs) != 0 {
		t.Fatalf("drift of no database: %v", fs)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Repeat("not a database ", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	fs := Drift(context.Background(), ix, path)
	if len(fs) != 1 || fs[0].Code != "T4006" || fs[0].Severity != "warning" || fs[0].Path != "project.ts" || !strings.Contains(fs[0].Message, "reset") {
		t.Errorf("drift of a broken database = %+v, want one T4006 warning", fs)
	}
}

// TestRunLogFailureIsSaid: a run the log cannot keep happens all the same,
// and its answer says the log did not keep it; a failed one says it too.
func TestRunLogFailureIsSaid(t *testing.T) {
	root := project(t, "run-hostile")
	ix := index(t, root)
	// A folder where the log's file would be: the log cannot be opened.
	if err := os.MkdirAll(filepath.Join(root, ".tent", LogFile), 0o755); err != nil {
		t.Fatal(err)
	}
	r := newRunner(t, root, Config{})
	res, err := r.Run(context.Background(), ix, Request{Name: "sum", Input: json.RawMessage(`{"a":1,"b":2}`), As: "u1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "run log could not keep this run") {
		t.Errorf("notes = %q", res.Notes)
	}
	_, err = r.Run(context.Background(), ix, Request{Name: "forgeCode"})
	te := toolError(t, err, "T4003")
	if notes, _ := te.Data["notes"].([]string); len(notes) != 1 {
		t.Errorf("a failed run's error lost the note: %v", te.Data)
	}
}

// TestReservedTableName: a table or column named as SQLite's or the test
// database's own tables is T9107 for a run and for reset, never an
// uncoded SQL error (a table sqlite_master broke every later run).
func TestReservedTableName(t *testing.T) {
	for _, tt := range []struct{ decl, name string }{
		{"export const _tent_seq = table({ columns: { body: text() } })", "_tent_seq"},
		{"export const sqlite_master = table({ columns: { body: text() } })", "sqlite_master"},
		{"export const memos = table({ columns: { sqlite_body: text() } })", "memos.sqlite_body"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := project(t, "run-hostile")
			f := filepath.Join(root, "tables.ts")
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			b = append(b, "\n"+tt.decl+"\n"...)
			if err := os.WriteFile(f, b, 0o644); err != nil {
				t.Fatal(err)
			}
			ix := index(t, root)
			r := newRunner(t, root, Config{})
			_, err = r.Run(context.Background(), ix, Request{Name: "luck"})
			if te := toolError(t, err, "T9107"); !strings.Contains(te.Message, tt.name) {
				t.Errorf("run: %v", te)
			}
			if err := r.Reset(context.Background(), ix); code(err) != "T9107" {
				t.Errorf("reset: %v, want T9107", err)
			}
		})
	}
}
