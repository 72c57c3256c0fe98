// Package sqlitefile opens the SQLite databases tent-tools keeps in a
// project's .tent/ folder (the history, the notes, the test database, the run
// log) the one way they all need: the folder made where missing, the
// pure-Go driver (modernc.org/sqlite, so no C toolchain is needed for it),
// write-ahead logging so readers never wait on a writer, and a busy timeout
// so several processes on one workspace take turns instead of failing.
package sqlitefile

import (
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	_ "modernc.org/sqlite" // the database/sql driver "sqlite"
)

// Options says how durable and how patient a database is.
type Options struct {
	// Busy is how long a statement waits for another connection's lock.
	Busy time.Duration
	// Synchronous is SQLite's synchronous pragma: "FULL" for data that must
	// survive a crash (the history), "OFF" for data that can be rebuilt (the
	// test database, the run log); "" leaves SQLite's default.
	Synchronous string
	// Immediate makes every transaction take the write lock when it begins,
	// so two writers never deadlock upgrading a read lock.
	Immediate bool
}

// Open opens (creating where needed) the database at path.
func Open(path string, o Options) (*sql.DB, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", o.Busy.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	if o.Synchronous != "" {
		q.Add("_pragma", "synchronous("+o.Synchronous+")")
	}
	if o.Immediate {
		q.Set("_txlock", "immediate")
	}
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return db, nil
}
