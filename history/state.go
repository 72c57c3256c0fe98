package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// FileState is a file as the newest point (or the starting state) left
// it: its content hash, and the stamp it had on the disk then (size,
// modification time in nanoseconds, inode), which tells a file that no
// one touched from one to read again.
type FileState struct {
	Path  string
	Hash  string
	Size  int64
	MTime int64
	Inode uint64
	// CTime is the inode's change time, where the stat that made the
	// state gave one. The history neither stores nor compares it; the
	// index's stamps (workspace/index.go) do.
	CTime int64
}

// SameStamp reports whether two states have the same stamp.
func (f FileState) SameStamp(g FileState) bool {
	return f.Size == g.Size && f.MTime == g.MTime && f.Inode == g.Inode
}

// StateChange is how a point changes the file state: files put (new or
// with a new content or stamp) and files gone.
type StateChange struct {
	Put    []FileState
	Delete []string
}

// Version is the state's version: it rises with every change of the file
// state, so a cached state is current while the version is the same. 0
// means the starting state was never recorded.
func (s *Store) Version(ctx context.Context) (int64, error) {
	var v int64
	err := s.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'version'`).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("history: %w", err)
	}
	return v, nil
}

// State returns the file state by path, and its version.
func (s *Store) State(ctx context.Context) (map[string]FileState, int64, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, 0, fmt.Errorf("history: %w", err)
	}
	defer tx.Rollback()
	var v int64
	if err := tx.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'version'`).Scan(&v); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, 0, fmt.Errorf("history: %w", err)
	}
	rows, err := tx.QueryContext(ctx, `SELECT path, hash, size, mtime, inode FROM files`)
	if err != nil {
		return nil, 0, fmt.Errorf("history: %w", err)
	}
	defer rows.Close()
	state := map[string]FileState{}
	for rows.Next() {
		var f FileState
		var inode int64
		if err := rows.Scan(&f.Path, &f.Hash, &f.Size, &f.MTime, &inode); err != nil {
			return nil, 0, fmt.Errorf("history: %w", err)
		}
		f.Inode = uint64(inode)
		state[f.Path] = f
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("history: %w", err)
	}
	return state, v, nil
}

// SetStart records the starting state: the files as the first call found
// them, by hash and stamp only. Their contents are not kept here (that
// made the first call write the whole project into the database): a point
// that changes or removes a file keeps the content it found (Record's
// blobs), and Keep stores contents read later. A file changed outside the
// tools before any of them kept its content has lost its earlier content
// for the history (see Blob). SetStart replaces no state already recorded:
// where another process recorded it first, it returns false.
func (s *Store) SetStart(ctx context.Context, files []FileState) (bool, error) {
	recorded := false
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var v int64
		err := tx.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'version'`).Scan(&v)
		if err == nil {
			return nil // recorded meanwhile
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("history: %w", err)
		}
		if err := applyState(ctx, tx, StateChange{Put: files}); err != nil {
			return err
		}
		recorded = true
		return bump(ctx, tx)
	})
	return recorded, err
}

// Keep stores contents by hash (each once), without a point: the earlier
// contents of files read before something may change them. It does not
// change the state's version.
func (s *Store) Keep(ctx context.Context, blobs map[string][]byte) error {
	if len(blobs) == 0 {
		return nil
	}
	return s.tx(ctx, func(tx *sql.Tx) error { return putBlobs(ctx, tx, blobs) })
}

// Unkept returns the files of the state whose content the store does not
// keep and whose size is at most maxSize: the files whose earlier content
// would be lost if they changed now.
func (s *Store) Unkept(ctx context.Context, maxSize int64) ([]FileState, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT f.path, f.hash, f.size, f.mtime, f.inode FROM files f
		WHERE f.size <= ? AND NOT EXISTS (SELECT 1 FROM blobs b WHERE b.hash = f.hash)`, maxSize)
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	defer rows.Close()
	var out []FileState
	for rows.Next() {
		var f FileState
		var inode int64
		if err := rows.Scan(&f.Path, &f.Hash, &f.Size, &f.MTime, &inode); err != nil {
			return nil, fmt.Errorf("history: %w", err)
		}
		f.Inode = uint64(inode)
		out = append(out, f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	return out, nil
}

// Blobs counts the contents the store keeps.
func (s *Store) Blobs(ctx context.Context) (int, error) {
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM blobs`).Scan(&n); err != nil {
		return 0, fmt.Errorf("history: %w", err)
	}
	return n, nil
}

// Restamp records new stamps for files whose content did not change (a
// touch, a copy over with the same text): the next look need not read
// them again.
func (s *Store) Restamp(ctx context.Context, files []FileState) error {
	if len(files) == 0 {
		return nil
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		if err := applyState(ctx, tx, StateChange{Put: files}); err != nil {
			return err
		}
		return bump(ctx, tx)
	})
}

// applyState writes a state change.
func applyState(ctx context.Context, tx *sql.Tx, c StateChange) error {
	if len(c.Put) > 0 {
		st, err := tx.PrepareContext(ctx, `INSERT INTO files (path, hash, size, mtime, inode) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (path) DO UPDATE SET hash = excluded.hash, size = excluded.size, mtime = excluded.mtime, inode = excluded.inode`)
		if err != nil {
			return fmt.Errorf("history: %w", err)
		}
		defer st.Close()
		for _, f := range c.Put {
			if _, err := st.ExecContext(ctx, f.Path, f.Hash, f.Size, f.MTime, int64(f.Inode)); err != nil {
				return fmt.Errorf("history: state of %s: %w", f.Path, err)
			}
		}
	}
	for _, p := range c.Delete {
		if _, err := tx.ExecContext(ctx, `DELETE FROM files WHERE path = ?`, p); err != nil {
			return fmt.Errorf("history: state of %s: %w", p, err)
		}
	}
	return nil
}
