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
	// index's stamps (tools/index.go) do.
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
// them, with their contents (those not too large to keep), so that undo
// can put back the first point. It replaces no state already recorded:
// where another process recorded it first, it returns false.
func (s *Store) SetStart(ctx context.Context, files []FileState, blobs map[string][]byte) (bool, error) {
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
		if err := putBlobs(ctx, tx, blobs); err != nil {
			return err
		}
		if err := applyState(ctx, tx, StateChange{Put: files}); err != nil {
			return err
		}
		recorded = true
		return bump(ctx, tx)
	})
	return recorded, err
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
