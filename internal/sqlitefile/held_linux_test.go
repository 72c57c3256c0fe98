package sqlitefile

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/tent-tools/tent-tools/internal/swaptest"
)

// makeMarked makes the database name in dir with one row saying mark.
func makeMarked(t *testing.T, dir, name, mark string) {
	t.Helper()
	db, err := Open(filepath.Join(dir, name), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE mark (v TEXT); INSERT INTO mark VALUES (?)`, mark); err != nil {
		t.Fatal(err)
	}
}

// TestOpenInSwap swaps the folder .tent with a link to a decoy folder
// holding a database of the same name, again and again (renameat2
// RENAME_EXCHANGE), while connections are opened: through OpenIn every
// connection reads the held folder's database or is refused
// (ErrRedirected), never the decoy's. Opened by its path (Open), the same
// connections do read the decoy: the swaps meet the opens.
func TestOpenInSwap(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	state, decoy, swap := filepath.Join(root, ".tent"), filepath.Join(root, "decoy"), filepath.Join(root, "swap")
	for _, d := range []string{state, decoy} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	makeMarked(t, state, "x.db", "real")
	makeMarked(t, decoy, "x.db", "decoy")
	if err := os.Symlink("decoy", swap); err != nil {
		t.Fatal(err)
	}
	folder, err := os.Open(state)
	if err != nil {
		t.Fatal(err)
	}
	held, err := OpenIn(folder, filepath.Join(state, "x.db"), Options{Busy: 5e9})
	folder.Close()
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	byPath, err := Open(filepath.Join(state, "x.db"), Options{Busy: 5e9})
	if err != nil {
		t.Fatal(err)
	}
	defer byPath.Close()
	for _, db := range []*sql.DB{held, byPath} {
		db.SetMaxIdleConns(0) // every query opens a connection
	}

	swapper := swaptest.Start(t, state, swap)
	read := func(db *sql.DB) (string, error) {
		var v string
		err := db.QueryRowContext(ctx, `SELECT v FROM mark`).Scan(&v)
		return v, err
	}
	var real, refused, decoyReads, pathDecoyReads int
	for range 300 {
		switch v, err := read(held); {
		case errors.Is(err, ErrRedirected):
			refused++
		case err != nil:
			refused++ // the file was not there at that instant: no wrong read
		case v == "real":
			real++
		default:
			decoyReads++
		}
		if v, err := read(byPath); err == nil && v == "decoy" {
			pathDecoyReads++
		}
	}
	swaps := swapper.Stop()
	t.Logf("%d swaps; held: %d real, %d refused, %d decoy; by path: %d decoy", swaps, real, refused, decoyReads, pathDecoyReads)
	if decoyReads > 0 {
		t.Errorf("OpenIn read the decoy %d times", decoyReads)
	}
	if real == 0 {
		t.Error("OpenIn never read the held database")
	}
	if pathDecoyReads == 0 {
		t.Error("the swaps never redirected an open by path: the test does not test the swap")
	}
	// With the swaps over, the held database is read, wherever its folder
	// stands now.
	if v, err := read(held); err != nil || v != "real" {
		t.Errorf("after the swaps: %q, %v", v, err)
	}
}

// TestOpenInHandle checks the held folder's handle: a connection opened
// after the folder was renamed still opens its database there, and the
// handle is closed with the database (no file left open).
func TestOpenInHandle(t *testing.T) {
	root := t.TempDir()
	state := filepath.Join(root, ".tent")
	if err := os.Mkdir(state, 0o755); err != nil {
		t.Fatal(err)
	}
	makeMarked(t, state, "x.db", "real")
	open := func() int {
		entries, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Fatal(err)
		}
		return len(entries)
	}
	before := open()
	folder, err := os.Open(state)
	if err != nil {
		t.Fatal(err)
	}
	db, err := OpenIn(folder, filepath.Join(state, "x.db"), Options{})
	folder.Close()
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxIdleConns(0)
	if err := os.Rename(state, filepath.Join(root, "moved")); err != nil {
		t.Fatal(err)
	}
	var v string
	if err := db.QueryRow(`SELECT v FROM mark`).Scan(&v); err != nil || v != "real" {
		t.Errorf("after the folder moved: %q, %v", v, err)
	}
	if _, err := os.Stat(filepath.Join(state, "x.db")); !os.IsNotExist(err) {
		t.Errorf("a database was made at the old path: %v", err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if after := open(); after != before {
		t.Errorf("%d files open after Close; %d before", after, before)
	}
}

// TestOpenInKeepsWAL closes the last connection of a database opened by
// OpenIn and finds its -wal (cut to nothing) and -shm files still there:
// SQLite deletes them by a path that does not go through the held folder,
// so OpenIn has it keep them. The rows written are in the database file.
func TestOpenInKeepsWAL(t *testing.T) {
	dir := t.TempDir()
	folder, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	db, err := OpenIn(folder, filepath.Join(dir, "x.db"), Options{Busy: 5e9})
	folder.Close()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE mark (v TEXT); INSERT INTO mark VALUES ('kept')`); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	for name, wantEmpty := range map[string]bool{"x.db-wal": true, "x.db-shm": false} {
		info, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("%s after the last close: %v", name, err)
		}
		if wantEmpty && info.Size() != 0 {
			t.Errorf("%s holds %d bytes after the last close, want 0", name, info.Size())
		}
	}
	os.Remove(filepath.Join(dir, "x.db-wal"))
	os.Remove(filepath.Join(dir, "x.db-shm"))
	again, err := Open(filepath.Join(dir, "x.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	var v string
	if err := again.QueryRow(`SELECT v FROM mark`).Scan(&v); err != nil || v != "kept" {
		t.Fatalf("the database file holds %q, %v; want the row written", v, err)
	}
}
