// Package history keeps a workspace's points (docs/pages/history.md) in SQLite in
// .tent/history.db: each change a tool made, an undo, or a change found on
// the disk that no tool made; the files each changed, by content hash,
// with every content kept once per hash (so that undo can put any point
// back); the definition changes of each (package defchange); and the state
// of the project's files as the newest point left them, with what each
// file looked like on the disk (size, time, inode), so that a change made
// outside the tools is found by a stat, not by reading every file.
//
// A point is recorded before its files are written, as not done: it is
// the change's journal. The files are then written, and the point marked
// done. A point found not done at the next start is finished from the
// contents kept with it (package workspace does that). The store writes
// nothing but its database.
package history

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/tent-tools/tent-tools/internal/sqlitefile"
)

// File is the name of the store's database in .tent/.
const File = "history.db"

// Store is a workspace's history database. It is safe for concurrent use,
// also by several processes (SQLite's own locking, a busy timeout).
type Store struct {
	db *sql.DB
}

// schema creates the tables. A point's files and changes are rows and
// JSON; blobs hold each content once, by its hash.
const schema = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS blobs (hash TEXT PRIMARY KEY, data BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS files (
	path TEXT PRIMARY KEY, hash TEXT NOT NULL,
	size INTEGER NOT NULL, mtime INTEGER NOT NULL, inode INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS points (
	n INTEGER PRIMARY KEY AUTOINCREMENT, time TEXT NOT NULL, who TEXT NOT NULL, agent TEXT NOT NULL,
	kind TEXT NOT NULL, turn INTEGER NOT NULL, tool TEXT NOT NULL, summary TEXT NOT NULL,
	undid TEXT NOT NULL, changes TEXT NOT NULL, done INTEGER NOT NULL, journal TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS point_files (
	point INTEGER NOT NULL, path TEXT NOT NULL, before TEXT NOT NULL, after TEXT NOT NULL,
	PRIMARY KEY (point, path));
CREATE TABLE IF NOT EXISTS turns (
	n INTEGER PRIMARY KEY AUTOINCREMENT, time TEXT NOT NULL, who TEXT NOT NULL, agent TEXT NOT NULL);
`

// schemaSteps are the versions of the schema (sqlitefile.Migrate): the
// first creates the tables; a later release appends the step from its
// previous version, never changes one.
var schemaSteps = []string{schema, callsSchema, pointsDoneSchema, pointsKindSchema}

// pointsDoneSchema is the schema step that indexes the points by whether
// they are done, then by number. Pending (the points not done: none, or
// the one a crash cut short, among thousands), which every settle of the
// workspace asks, is then a search of the index, where it was a scan of
// every point; Last (the newest done) reads one entry of it, where it
// walked back from the newest point past those not done. The index is
// built from the points there when a file of an older release is opened.
const pointsDoneSchema = `
CREATE INDEX IF NOT EXISTS points_done ON points (done, n);
`

// pointsKindSchema is the schema step that indexes the points by kind:
// which points are undone is a matter of the undo points alone
// (UndoMarks), a few among thousands of points, which were read with
// every other point (a scan) on each history, undo and changedBy.
const pointsKindSchema = `
CREATE INDEX IF NOT EXISTS points_kind ON points (kind, done, n);
`

// Open opens (creating where needed) the store at path, brought to the
// schema version of this release. A file of a newer version is
// sqlitefile.ErrNewer, a damaged one sqlitefile.ErrDamaged (wrapped).
// Commits are durable (synchronous FULL) except where a method says
// otherwise.
func Open(ctx context.Context, path string) (*Store, error) {
	db, err := sqlitefile.OpenMigrated(ctx, path, options, schemaSteps)
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
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
		return nil, fmt.Errorf("history: %w", err)
	}
	return &Store{db: db}, nil
}

// options are the store's: durable commits, writers that take the lock
// at once, and an emptied file damaged, never a new history.
var options = sqlitefile.Options{Busy: 10 * time.Second, Synchronous: "FULL", Immediate: true, Kept: true}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// Hash is the content hash the store keys contents by: SHA-256, in hex.
func Hash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// ErrNoPoint is the error of a point that the store does not hold.
var ErrNoPoint = errors.New("no such point")

// tx runs fn in a write transaction.
func (s *Store) tx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("history: commit: %w", err)
	}
	return nil
}

// bump raises the state's version, so that a reader's cached state is
// known to be old.
func bump(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES ('version', 1)
		ON CONFLICT (key) DO UPDATE SET value = value + 1`)
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	return nil
}

// putBlobs keeps contents by hash; a content kept before is not written again.
func putBlobs(ctx context.Context, tx *sql.Tx, blobs map[string][]byte) error {
	if len(blobs) == 0 {
		return nil
	}
	st, err := tx.PrepareContext(ctx, `INSERT INTO blobs (hash, data) VALUES (?, ?) ON CONFLICT (hash) DO NOTHING`)
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	defer st.Close()
	for h, data := range blobs {
		if data == nil {
			data = []byte{}
		}
		if _, err := st.ExecContext(ctx, h, data); err != nil {
			return fmt.Errorf("history: keep content %s: %w", h, err)
		}
	}
	return nil
}

// Blob returns the content kept for a hash; ok is false where none was
// kept: a file too large to keep, or one whose content no tool read before
// it changed outside the tools (SetStart keeps no contents).
func (s *Store) Blob(ctx context.Context, hash string) (data []byte, ok bool, err error) {
	err = s.db.QueryRowContext(ctx, `SELECT data FROM blobs WHERE hash = ?`, hash).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("history: content %s: %w", hash, err)
	}
	if data == nil {
		data = []byte{}
	}
	return data, true, nil
}
