// Package sqlitefile opens the SQLite databases tent-tools keeps in a
// project's .tent/ folder (the history, the notes, the test database, the run
// log) the one way they all need: the folder made where missing, the
// pure-Go driver (modernc.org/sqlite, so no C toolchain is needed for it),
// write-ahead logging so readers never wait on a writer, and a busy timeout
// so several processes on one workspace take turns instead of failing.
package sqlitefile

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
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
	// Kept says the database holds what cannot be made again (the
	// history, the notes): a file of it emptied (0 bytes) is ErrDamaged,
	// never taken for a new database (emptied).
	Kept bool
}

// Open opens (creating where needed) the database at path.
func Open(path string, o Options) (*sql.DB, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if err := emptied(path, o, time.Now()); err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	db, err := sql.Open("sqlite", dsn(path, o))
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return db, nil
}

// dsn is the driver's name of the database at path, with the options.
func dsn(path string, o Options) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", o.Busy.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	// A -wal file is cut back to this size after a checkpoint, and to
	// nothing when the last connection of a database kept by OpenIn
	// closes (keepWAL).
	q.Add("_pragma", "journal_size_limit(4194304)")
	if o.Synchronous != "" {
		q.Add("_pragma", "synchronous("+o.Synchronous+")")
	}
	if o.Immediate {
		q.Set("_txlock", "immediate")
	}
	return "file:" + path + "?" + q.Encode()
}

// Versioning: every database of .tent/ carries the version of its schema
// in SQLite's user_version. A release knows the steps that bring a
// database from each older version to its own; it refuses a newer one,
// which a later release made and only a later release may change.

// ErrNewer is the error of a database whose schema version is newer than
// the release knows.
var ErrNewer = errors.New("made by a newer release of tent-tools")

// ErrDamaged is the error of a file that is no SQLite database, or one
// whose pages are damaged (a truncated or overwritten file).
var ErrDamaged = errors.New("damaged: not a readable SQLite database")

// Migrate brings the database to the version len(steps): steps[i] is the
// SQL that takes version i to i+1, and steps[0] makes the first schema
// (a file made before versions were stamped has version 0 and the first
// schema's tables; steps[0] must therefore create only where missing). The
// steps left run in one transaction with the new version. A version above
// len(steps) is ErrNewer; a damaged file is ErrDamaged.
func Migrate(ctx context.Context, db *sql.DB, steps []string) (from int, err error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return 0, Classify(err)
	}
	defer conn.Close()
	// The write lock first, so that two processes never migrate at once.
	if _, err := conn.ExecContext(ctx, `BEGIN IMMEDIATE`); err != nil {
		return 0, Classify(err)
	}
	committed := false
	defer func() {
		if !committed {
			conn.ExecContext(context.WithoutCancel(ctx), `ROLLBACK`)
		}
	}()
	if err := conn.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&from); err != nil {
		return 0, Classify(err)
	}
	if from > len(steps) {
		return from, fmt.Errorf("schema version %d, this release knows up to %d: %w", from, len(steps), ErrNewer)
	}
	for v := from; v < len(steps); v++ {
		if _, err := conn.ExecContext(ctx, steps[v]); err != nil {
			return from, fmt.Errorf("migrate from version %d: %w", v, Classify(err))
		}
	}
	if from != len(steps) {
		if _, err := conn.ExecContext(ctx, fmt.Sprintf(`PRAGMA user_version = %d`, len(steps))); err != nil {
			return from, Classify(err)
		}
	}
	if _, err := conn.ExecContext(ctx, `COMMIT`); err != nil {
		return from, Classify(err)
	}
	committed = true
	return from, nil
}

// OpenMigrated is Open of the database at path, brought to the version
// len(steps) by Migrate; the database is closed where that fails.
func OpenMigrated(ctx context.Context, path string, o Options, steps []string) (*sql.DB, error) {
	db, err := Open(path, o)
	if err != nil {
		return nil, err
	}
	return migrated(ctx, db, path, steps)
}

// OpenInMigrated is OpenIn of the database name in the open folder dir,
// whose checked path is dirPath, brought to the version len(steps) by
// Migrate; the database is closed where that fails.
func OpenInMigrated(ctx context.Context, dir *os.File, dirPath, name string, o Options, steps []string) (*sql.DB, error) {
	path := filepath.Join(dirPath, name)
	db, err := OpenIn(dir, path, o)
	if err != nil {
		return nil, err
	}
	return migrated(ctx, db, path, steps)
}

// migrated brings the opened database at path to the steps' version.
func migrated(ctx context.Context, db *sql.DB, path string, steps []string) (*sql.DB, error) {
	if _, err := Migrate(ctx, db, steps); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return db, nil
}

// Classify wraps err with ErrDamaged where SQLite says the file is no
// database or is damaged, whatever the driver.
func Classify(err error) error {
	if err == nil || errors.Is(err, ErrDamaged) {
		return err
	}
	msg := err.Error()
	for _, sign := range []string{"file is not a database", "database disk image is malformed", "SQLITE_NOTADB", "SQLITE_CORRUPT"} {
		if strings.Contains(msg, sign) {
			return fmt.Errorf("%w (%v)", ErrDamaged, err)
		}
	}
	return err
}

// KeepAside renames a damaged database at path (with its -wal and -shm
// files) to path.damaged-TIME, so that it is kept for a person to look at
// and a new one can be made. It answers the new name.
func KeepAside(path string, now time.Time) (string, error) {
	aside := path + ".damaged-" + now.UTC().Format("20060102T150405Z")
	if err := os.Rename(path, aside); err != nil {
		return "", fmt.Errorf("keep %s aside: %w", path, err)
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if err := os.Rename(path+suffix, aside+suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			return aside, fmt.Errorf("keep %s aside: %w", path+suffix, err)
		}
	}
	return aside, nil
}

// freshness is how long after its making a database file of 0 bytes may
// be one that another process is making: SQLite writes its first page
// (the write-ahead log's mark) as it opens a new file, within
// milliseconds.
const freshness = 5 * time.Second

// emptied refuses a Kept database whose file is there but empty: SQLite
// would take it for a new database, and the history it held would be
// replaced by an empty one without a word. A file made in the last
// moments is let be (another process is making it).
func emptied(path string, o Options, now time.Time) error {
	if !o.Kept {
		return nil
	}
	info, err := os.Lstat(path)
	if err != nil || !info.Mode().IsRegular() || info.Size() > 0 || now.Sub(info.ModTime()) < freshness {
		return nil
	}
	return fmt.Errorf("%w (the file is empty: cut to 0 bytes since it was made)", ErrDamaged)
}
