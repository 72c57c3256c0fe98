// Package notes keeps the notes an agent writes for itself across
// conversations (docs/pages/remember.md, recall.md, keys.md): keys with text
// values, in SQLite in .tent/notes.db, never in the project's files.
package notes

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/tent-tools/tent-tools/internal/sqlitefile"
)

// File is the name of the notes database in .tent/.
const File = "notes.db"

// Note is one key with its value and when it was last written.
type Note struct {
	Key   string
	Value string
	Time  time.Time
}

// Store is a workspace's notes. It is safe for concurrent use, also by
// several processes.
type Store struct {
	db *sql.DB
}

// schemaSteps are the versions of the notes' schema (sqlitefile.Migrate);
// a later release appends a step, never changes one.
var schemaSteps = []string{
	`CREATE TABLE IF NOT EXISTS notes (key TEXT PRIMARY KEY, value TEXT NOT NULL, time TEXT NOT NULL)`,
}

// Open opens (creating where needed) the notes at path, brought to the
// schema version of this release (sqlitefile.ErrNewer for a newer file).
func Open(ctx context.Context, path string) (*Store, error) {
	db, err := sqlitefile.OpenMigrated(ctx, path, options, schemaSteps)
	if err != nil {
		return nil, fmt.Errorf("notes: %w", err)
	}
	return &Store{db: db}, nil
}

// OpenIn is Open of the store File in the open folder dir (.tent/, reached
// without following a link), whose checked path is dirPath: a swap of the
// folder for a link after it was opened cannot redirect the store
// (sqlitefile.OpenIn). dir may be closed once OpenIn returns.
func OpenIn(ctx context.Context, dir *os.File, dirPath string) (*Store, error) {
	db, err := sqlitefile.OpenInMigrated(ctx, dir, dirPath, File, options, schemaSteps)
	if err != nil {
		return nil, fmt.Errorf("notes: %w", err)
	}
	return &Store{db: db}, nil
}

// options are the store's.
var options = sqlitefile.Options{Busy: 10 * time.Second, Kept: true}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// Put writes a note, replacing the key's value where it has one. It
// reports whether the key was new.
func (s *Store) Put(ctx context.Context, key, value string, at time.Time) (created bool, err error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("notes: %w", err)
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM notes WHERE key = ?`, key).Scan(&n); err != nil {
		return false, fmt.Errorf("notes: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO notes (key, value, time) VALUES (?, ?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value, time = excluded.time`,
		key, value, at.UTC().Format(time.RFC3339Nano)); err != nil {
		return false, fmt.Errorf("notes: write %q: %w", key, err)
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("notes: write %q: %w", key, err)
	}
	return n == 0, nil
}

// Get returns the note of a key; ok is false where there is none.
func (s *Store) Get(ctx context.Context, key string) (n Note, ok bool, err error) {
	var at string
	err = s.db.QueryRowContext(ctx, `SELECT key, value, time FROM notes WHERE key = ?`, key).Scan(&n.Key, &n.Value, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return Note{}, false, nil
	}
	if err != nil {
		return Note{}, false, fmt.Errorf("notes: read %q: %w", key, err)
	}
	n.Time, err = time.Parse(time.RFC3339Nano, at)
	if err != nil {
		return Note{}, false, fmt.Errorf("notes: read %q: %w", key, err)
	}
	return n, true, nil
}

// Keys returns the notes whose key begins with prefix, sorted by key,
// without their values.
func (s *Store) Keys(ctx context.Context, prefix string) ([]Note, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT key, time FROM notes WHERE substr(key, 1, length(?1)) = ?1 ORDER BY key`, prefix)
	if err != nil {
		return nil, fmt.Errorf("notes: %w", err)
	}
	defer rows.Close()
	var out []Note
	for rows.Next() {
		var n Note
		var at string
		if err := rows.Scan(&n.Key, &at); err != nil {
			return nil, fmt.Errorf("notes: %w", err)
		}
		if n.Time, err = time.Parse(time.RFC3339Nano, at); err != nil {
			return nil, fmt.Errorf("notes: %w", err)
		}
		out = append(out, n)
	}
	return out, rows.Err()
}
