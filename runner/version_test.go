package runner

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/tent-tools/tent-tools/internal/sqlitefile"
)

// TestNewerDatabases: a test database or a run log made by a newer release
// is T9113 for the tools that need it, and is left as it is.
func TestNewerDatabases(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{TestDBFile, LogFile} {
		t.Run(name, func(t *testing.T) {
			root := project(t, "shop")
			path := filepath.Join(root, ".tent", name)
			raw, err := sqlitefile.Open(path, sqlitefile.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := raw.ExecContext(ctx, `PRAGMA user_version = 99`); err != nil {
				t.Fatal(err)
			}
			raw.Close()
			r := newRunner(t, root, Config{})
			ix := index(t, root)
			if name == TestDBFile {
				_, err := r.Run(ctx, ix, Request{Name: "listProducts"})
				toolError(t, err, "T9113")
				toolError(t, r.Reset(ctx, ix), "T9113")
				_, err = r.Rows(ctx, ix, "products", 0)
				toolError(t, err, "T9113")
			} else {
				_, err := r.Logs(ctx, LogsQuery{})
				toolError(t, err, "T9113")
			}
			r.Close()
			raw, err = sqlitefile.Open(path, sqlitefile.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer raw.Close()
			var v int
			if err := raw.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&v); err != nil || v != 99 {
				t.Errorf("user_version = %d (%v) after the tools refused it, want 99 (left as it is)", v, err)
			}
		})
	}
}
