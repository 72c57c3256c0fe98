package tools

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/sqlitefile"
)

// TestDamagedHistory: a history.db that is no database, a truncated one
// or one emptied to 0 bytes is reported with T9112 and kept aside (never
// silently started over), to a call that writes and to one that only
// reads alike; the call after it starts a new history.
func TestDamagedHistory(t *testing.T) {
	for _, damage := range []string{"garbage", "truncated", "emptied"} {
		for _, first := range []string{"write", "history"} {
			t.Run(damage+"/"+first, func(t *testing.T) {
				w, dir := openCopy(t, Options{})
				db := filepath.Join(dir, ".tent", "history.db")
				switch damage {
				case "garbage":
					if err := os.MkdirAll(filepath.Dir(db), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(db, []byte(strings.Repeat("not a database ", 500)), 0o644); err != nil {
						t.Fatal(err)
					}
				case "truncated", "emptied":
					for _, text := range []string{"1", "2", "3"} {
						mustCall(t, w, "write", `{"path": "lib/n.ts", "text": "export const n = `+text+`\n"}`)
					}
					w.Close()
					for _, f := range []string{db + "-wal", db + "-shm"} {
						os.Remove(f)
					}
					info, err := os.Stat(db)
					if err != nil {
						t.Fatal(err)
					}
					size := info.Size() / 2
					if damage == "emptied" {
						size = 0
					}
					if err := os.Truncate(db, size); err != nil {
						t.Fatal(err)
					}
					old := time.Now().Add(-time.Hour) // not one another process is making now
					os.Chtimes(db, old, old)
					if w, err = Open(dir, Options{}); err != nil {
						t.Fatal(err)
					}
					t.Cleanup(func() { w.Close() })
				}
				damaged, _ := os.ReadFile(db)
				input := `{}`
				if first == "write" {
					input = `{"path": "lib/m.ts", "text": "export const m = 1\n"}`
				}
				_, err := call(w, first, input)
				te := wantCode(t, err, diag.T9112)
				if te == nil {
					return
				}
				kept, _ := te.Data["kept"].(string)
				if got, err := os.ReadFile(filepath.Join(dir, kept)); err != nil || string(got) != string(damaged) {
					t.Errorf("the damaged file is not kept as %q: %v", kept, err)
				}
				if _, err := os.Stat(filepath.Join(dir, "lib", "m.ts")); err == nil {
					t.Error("the write went on with no history")
				}
				// Reported once: the next call starts a new history.
				mustCall(t, w, "write", `{"path": "lib/m.ts", "text": "export const m = 1\n"}`)
				if h := mustCall(t, w, "history", `{}`).Data.(HistoryAnswer); len(h.Points) == 0 {
					t.Error("no point in the new history")
				}
			})
		}
	}
}

// TestNewerHistory: a history.db stamped with a newer schema version is
// refused with T9113 and left as it is.
func TestNewerHistory(t *testing.T) {
	w, dir := openCopy(t, Options{})
	mustCall(t, w, "write", `{"path": "lib/n.ts", "text": "export const n = 1\n"}`)
	w.Close()
	path := filepath.Join(dir, ".tent", "history.db")
	db, err := sqlitefile.Open(path, sqlitefile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`PRAGMA user_version = 99`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	w, err = Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	_, err = call(w, "history", `{}`)
	if te := wantCode(t, err, diag.T9113); te != nil && !strings.Contains(te.Message, "update tent-tools") {
		t.Error(te.Message)
	}
	check, _ := sql.Open("sqlite", "file:"+path)
	defer check.Close()
	var v int
	if err := check.QueryRowContext(context.Background(), `PRAGMA user_version`).Scan(&v); err != nil || v != 99 {
		t.Errorf("version %d, %v; want it left at 99", v, err)
	}
}

// TestNewerRunLog: a logs.db stamped with a newer schema version is
// refused by logs with T9113, as history.db is.
func TestNewerRunLog(t *testing.T) {
	w, dir := openCopy(t, Options{})
	defer w.Close()
	path := filepath.Join(dir, ".tent", "logs.db")
	db, err := sqlitefile.Open(path, sqlitefile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`PRAGMA user_version = 99`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, err = call(w, "logs", `{}`)
	if te := wantCode(t, err, diag.T9113); te != nil && !strings.Contains(te.Message, "logs.db") {
		t.Error(te.Message)
	}
}

// TestErrorsHaveCodes: a file used as a folder, and a state folder that
// may not be written, answer coded errors.
func TestErrorsHaveCodes(t *testing.T) {
	w, _ := openCopy(t, Options{})
	_, err := call(w, "write", `{"path": "lib/money.ts/x.ts", "text": "export const x = 1\n"}`)
	wantCode(t, err, diag.T9102)
	if err := w.state.StateDBError("history.db", &os.PathError{Op: "open", Path: "x", Err: os.ErrPermission}); !isCode(err, diag.T9110) {
		t.Errorf("permission: %v", err)
	}
}

// TestFolderInJournal: a folder in .tent/tmp/, which the journal never
// makes, stops writes with T9112 saying how to fix it; nothing is removed
// from it.
func TestFolderInJournal(t *testing.T) {
	w, dir := openCopy(t, Options{})
	mustCall(t, w, "history", `{}`)
	kept := filepath.Join(dir, ".tent", "tmp", "x", "keep.txt")
	if err := os.MkdirAll(filepath.Dir(kept), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(kept, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := call(w, "write", `{"path": "lib/n.ts", "text": "export const n = 1\n"}`)
	if te := wantCode(t, err, diag.T9112); te != nil && !strings.Contains(te.Message, "rm -r .tent/tmp/x") {
		t.Error(te.Message)
	}
	if got, err := os.ReadFile(kept); err != nil || string(got) != "mine\n" {
		t.Errorf("the folder's file: %q, %v", got, err)
	}
}
