package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// callsSchema is the schema step that keeps, for a point, the id of the
// call that made it (Point.Call): a face whose link to the engine dropped
// before a writing call's answer asks by that id whether the call made
// its point (package remote), and is answered from here, never by a guess.
// The row is written in the point's own transaction, so a point and its
// call's id are recorded together or not at all.
const callsSchema = `
CREATE TABLE IF NOT EXISTS calls (
	id TEXT NOT NULL, point INTEGER NOT NULL,
	PRIMARY KEY (id, point));
CREATE INDEX IF NOT EXISTS calls_point ON calls (point);
`

// recordCall keeps, in the transaction that records point n, the id of
// the call that made it. A point of no call (call "") keeps nothing.
func recordCall(ctx context.Context, tx *sql.Tx, call string, n int) error {
	if call == "" {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO calls (id, point) VALUES (?, ?)`, call, n); err != nil {
		return fmt.Errorf("history: record the call of point %d: %w", n, err)
	}
	return nil
}

// dropCall forgets the call of a point taken back (Drop).
func dropCall(ctx context.Context, tx *sql.Tx, n int) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM calls WHERE point = ?`, n); err != nil {
		return fmt.Errorf("history: drop the call of point %d: %w", n, err)
	}
	return nil
}

// queryCallPoint finds the newest point of a call. It orders by c.point,
// the order of the calls table's key (id, point), so the newest is the
// last entry of the key's search: ordered by p.n, the same number, SQLite
// sorted the call's points in a temporary b-tree first.
const queryCallPoint = `SELECT p.n, p.done FROM calls c JOIN points p ON p.n = c.point
	WHERE c.id = ? ORDER BY c.point DESC LIMIT 1`

// CallPoint answers the newest point the call id made and whether it is
// done (its files written). n is 0 where the call made no point: it
// changed nothing, or it never ran. A point not done is one a crash cut
// short; the next settle of the workspace finishes it, so a caller that
// must know asks after settling (workspace's Enter for a write).
func (s *Store) CallPoint(ctx context.Context, id string) (n int, done bool, err error) {
	err = s.db.QueryRowContext(ctx, queryCallPoint, id).Scan(&n, &done)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("history: the point of call %s: %w", id, err)
	}
	return n, done, nil
}
