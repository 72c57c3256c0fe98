package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/internal/sqlitefile"
	"github.com/tent-tools/tent-tools/runner"
	"github.com/tent-tools/tent-tools/runner/runlog"
)

// TestSwapStateDuringRunnerOpen swaps .tent with a link to a decoy folder,
// whose test database and run log hold rows of their own, again and again
// while new workspaces open theirs (rows, logs): each answers its own or
// is refused, never the decoy's.
func TestSwapStateDuringRunnerOpen(t *testing.T) {
	ctx := context.Background()
	w, dir := openCopy(t, Options{})
	mustCall(t, w, "run", `{"name":"listProducts"}`) // the test database built, the log begun
	w.Close()

	// The decoy: a copy of the project's .tent whose products and runs are marked.
	decoy := filepath.Join(t.TempDir(), "decoy")
	if err := os.Mkdir(decoy, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{runner.TestDBFile, runner.LogFile} {
		data, err := os.ReadFile(filepath.Join(dir, ".tent", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(decoy, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db, err := sqlitefile.Open(filepath.Join(decoy, runner.TestDBFile), sqlitefile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `UPDATE products SET id = id || '-decoy'`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	l, err := runlog.Open(ctx, filepath.Join(decoy, runner.LogFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Add(ctx, runlog.Entry{Time: time.Now(), Name: "plantedByTheDecoy", As: "nobody", Input: json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	l.Close()

	opensDuringSwaps(t, dir, decoy, 200, "answers of its own", func(v *Workspace, i int) error {
		tool, in := "rows", `{"table":"products"}`
		if i%2 == 1 {
			tool, in = "logs", `{}`
		}
		ans, err := call(v, tool, in)
		if err != nil {
			return err
		}
		if strings.Contains(ans.Text, "decoy") || strings.Contains(ans.Text, "plantedByTheDecoy") {
			t.Fatalf("%s read the decoy's database:\n%s", tool, ans.Text)
		}
		return nil
	})
	// The swaps over, the workspace reads its own rows.
	v, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if ans := mustCall(t, v, "rows", `{"table":"products"}`); strings.Contains(ans.Text, "decoy") || len(ans.Data.(*runner.Rows).Rows) == 0 {
		t.Errorf("after the swaps: %s", ans.Text)
	}
}
