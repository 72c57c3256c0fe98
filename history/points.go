package history

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"math"
	"strings"
	"time"

	"github.com/tent-tools/tent-tools/defchange"
)

// The kinds of points (docs/pages/history.md).
const (
	KindCommand = "command" // a tool changed files
	KindUndo    = "undo"    // undo put files back
	KindOutside = "outside" // files changed on the disk, not by a tool
	KindShell   = "shell"   // files a command of the shell tool changed
)

// Point is one recorded change.
type Point struct {
	N       int
	Time    time.Time
	Who     string // the caller
	Agent   string
	Kind    string
	Turn    int // 0 where the point belongs to no turn
	Tool    string
	Summary string
	Files   []FileChange
	Changes []defchange.DefChange
	// Undid lists the points an undo point put back.
	Undid []int
	// Done is false while the point's files are being written: a point
	// found not done at the next start is finished.
	Done bool
	// Journal names the new contents written beside the point before its
	// files are renamed into place (package workspace names them by it), so
	// that a point found not done can be finished.
	Journal string
	// Call is the id of the call that made the point, as its face gave it
	// ("" for none); CallPoint finds the point by it (calls.go).
	Call string
}

// FileChange is one file a point changed: its content hash before and
// after ("" where the file did not exist, or is gone).
type FileChange struct {
	Path   string
	Before string
	After  string
}

// Record records a point, with the contents it needs kept (by hash) and
// the file state it leaves, in one durable transaction, and returns its
// number. A point that writes files is recorded not done (p.Done false)
// before they are written; MarkDone follows.
func (s *Store) Record(ctx context.Context, p *Point, blobs map[string][]byte, state StateChange) (int, error) {
	changes, err := json.Marshal(nonNilChanges(p.Changes))
	if err != nil {
		return 0, fmt.Errorf("history: %w", err)
	}
	undid, err := json.Marshal(nonNilInts(p.Undid))
	if err != nil {
		return 0, fmt.Errorf("history: %w", err)
	}
	err = s.tx(ctx, func(tx *sql.Tx) error {
		if err := putBlobs(ctx, tx, blobs); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO points (time, who, agent, kind, turn, tool, summary, undid, changes, done, journal)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			p.Time.UTC().Format(time.RFC3339Nano), p.Who, p.Agent, p.Kind, p.Turn, p.Tool, p.Summary,
			string(undid), string(changes), p.Done, p.Journal)
		if err != nil {
			return fmt.Errorf("history: record point: %w", err)
		}
		n, err := res.LastInsertId()
		if err != nil {
			return fmt.Errorf("history: record point: %w", err)
		}
		p.N = int(n)
		st, err := tx.PrepareContext(ctx, `INSERT INTO point_files (point, path, before, after) VALUES (?, ?, ?, ?)`)
		if err != nil {
			return fmt.Errorf("history: %w", err)
		}
		defer st.Close()
		for _, f := range p.Files {
			if _, err := st.ExecContext(ctx, p.N, f.Path, f.Before, f.After); err != nil {
				return fmt.Errorf("history: record point: %w", err)
			}
		}
		if err := recordCall(ctx, tx, p.Call, p.N); err != nil {
			return err
		}
		if err := applyState(ctx, tx, state); err != nil {
			return err
		}
		return bump(ctx, tx)
	})
	if err != nil {
		return 0, err
	}
	return p.N, nil
}

// MarkDone marks a point's files written, and records the stamps they
// have on the disk now (a point is recorded before its files are written,
// so before their stamps are known). The commit is not synced: a crash
// that loses it only makes the next start finish the point again, which
// finds the files written, and the next look stamps them again. The stamps
// do not raise the state's version: a stale stamp elsewhere only makes a
// look read the file once more.
func (s *Store) MarkDone(ctx context.Context, n int, stamps []FileState) (err error) {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `PRAGMA synchronous = NORMAL`); err != nil {
		return fmt.Errorf("history: %w", err)
	}
	// The connection goes back to the pool: it must be durable again, or
	// it must not be used again (a bad connection is closed, not pooled).
	defer func() {
		if _, rerr := conn.ExecContext(context.WithoutCancel(ctx), `PRAGMA synchronous = FULL`); rerr != nil {
			conn.Raw(func(any) error { return driver.ErrBadConn })
			if err == nil {
				err = fmt.Errorf("history: restore durable commits: %w", rerr)
			}
		}
	}()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("history: mark point %d done: %w", n, err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE points SET done = 1 WHERE n = ?`, n); err != nil {
		return fmt.Errorf("history: mark point %d done: %w", n, err)
	}
	for _, f := range stamps {
		if _, err := tx.ExecContext(ctx, `UPDATE files SET size = ?, mtime = ?, inode = ? WHERE path = ? AND hash = ?`,
			f.Size, f.MTime, int64(f.Inode), f.Path, f.Hash); err != nil {
			return fmt.Errorf("history: mark point %d done: %w", n, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("history: mark point %d done: %w", n, err)
	}
	return nil
}

// Drop takes back a point whose files could not be written (and were put
// back), with the file state as it was before it.
func (s *Store) Drop(ctx context.Context, n int, state StateChange) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM point_files WHERE point = ?`, n); err != nil {
			return fmt.Errorf("history: drop point %d: %w", n, err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM points WHERE n = ?`, n); err != nil {
			return fmt.Errorf("history: drop point %d: %w", n, err)
		}
		if err := dropCall(ctx, tx, n); err != nil {
			return err
		}
		if err := applyState(ctx, tx, state); err != nil {
			return err
		}
		return bump(ctx, tx)
	})
}

// pointColumns are the columns every query of points reads, in scanPoint's order.
const pointColumns = `n, time, who, agent, kind, turn, tool, summary, undid, changes, done, journal`

// scanPoint reads one row of pointColumns.
func scanPoint(row interface{ Scan(...any) error }) (*Point, error) {
	var p Point
	var at, undid, changes string
	if err := row.Scan(&p.N, &at, &p.Who, &p.Agent, &p.Kind, &p.Turn, &p.Tool, &p.Summary, &undid, &changes, &p.Done, &p.Journal); err != nil {
		return nil, err
	}
	t, err := time.Parse(time.RFC3339Nano, at)
	if err != nil {
		return nil, fmt.Errorf("history: point %d: time %q: %w", p.N, at, err)
	}
	p.Time = t
	if err := json.Unmarshal([]byte(undid), &p.Undid); err != nil {
		return nil, fmt.Errorf("history: point %d: %w", p.N, err)
	}
	if err := json.Unmarshal([]byte(changes), &p.Changes); err != nil {
		return nil, fmt.Errorf("history: point %d: %w", p.N, err)
	}
	return &p, nil
}

// pointsQuery is the query of pointColumns of the points a WHERE clause
// (and its ORDER BY) selects.
func pointsQuery(where string) string { return `SELECT ` + pointColumns + ` FROM points ` + where }

// The WHERE clauses of the store's reads of points, and its other queries
// of them. Each is a search (of the points_done index, or by number), and
// none sorts what it read; only those that read every done point (Marks,
// Newest without a limit) may scan. TestQueryPlans holds them to it.
const (
	whereNewest    = `WHERE done = 1 ORDER BY n DESC`
	whereNewestN   = `WHERE done = 1 ORDER BY n DESC LIMIT ?`
	whereRange     = `WHERE done = 1 AND n > ? AND n <= ? ORDER BY n`
	whereOlder     = `WHERE done = 1 AND n < ? ORDER BY n DESC LIMIT ?`
	whereAt        = `WHERE done = 1 AND n = ?`
	wherePending   = `WHERE done = 0 ORDER BY n`
	queryLast      = `SELECT max(n) FROM points WHERE done = 1`
	queryUndoMarks = `SELECT n, kind, undid FROM points WHERE kind = 'undo' AND done = 1 ORDER BY n`
	queryNotUndo   = `SELECT n FROM points WHERE done = 1 AND kind != 'undo' ORDER BY n DESC`
	queryFilesOf   = `SELECT point, path, before, after FROM point_files WHERE point BETWEEN ? AND ? ORDER BY point, path`
)

// query reads the points a WHERE clause selects, with their files.
func (s *Store) query(ctx context.Context, where string, args ...any) ([]*Point, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, pointsQuery(where), args...)
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	var points []*Point
	byN := map[int]*Point{}
	for rows.Next() {
		p, err := scanPoint(rows)
		if err != nil {
			rows.Close()
			return nil, fmt.Errorf("history: %w", err)
		}
		points = append(points, p)
		byN[p.N] = p
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	if len(points) == 0 {
		return nil, nil
	}
	lo, hi := points[0].N, points[0].N
	for _, p := range points {
		lo, hi = min(lo, p.N), max(hi, p.N)
	}
	frows, err := tx.QueryContext(ctx, queryFilesOf, lo, hi)
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	defer frows.Close()
	for frows.Next() {
		var n int
		var f FileChange
		if err := frows.Scan(&n, &f.Path, &f.Before, &f.After); err != nil {
			return nil, fmt.Errorf("history: %w", err)
		}
		if p := byN[n]; p != nil {
			p.Files = append(p.Files, f)
		}
	}
	if err := frows.Err(); err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	return points, nil
}

// Newest returns the points, newest first, at most limit of them (every
// point where limit <= 0). Points not done are left out.
func (s *Store) Newest(ctx context.Context, limit int) ([]*Point, error) {
	if limit <= 0 {
		return s.query(ctx, whereNewest)
	}
	return s.query(ctx, whereNewestN, limit)
}

// Older yields the points newest first, read a page at a time (64 points,
// then twice as many each page up to 1,024), for a caller that walks back
// until it finds what it looks for: the newest pages are all it reads
// where that is recent. Points not done are left out; a point recorded
// while the walk goes on is newer than it, and not yielded. An error ends
// the walk, yielded with a nil point.
func (s *Store) Older(ctx context.Context) iter.Seq2[*Point, error] {
	return func(yield func(*Point, error) bool) {
		before, page := math.MaxInt64, 64
		for {
			points, err := s.query(ctx, whereOlder, before, page)
			if err != nil {
				yield(nil, err)
				return
			}
			for _, p := range points {
				if !yield(p, nil) {
					return
				}
			}
			if len(points) < page {
				return
			}
			before, page = points[len(points)-1].N, min(2*page, 1024)
		}
	}
}

// Range returns the points after from up to and including to, oldest first.
func (s *Store) Range(ctx context.Context, from, to int) ([]*Point, error) {
	return s.query(ctx, whereRange, from, to)
}

// At returns one point; ErrNoPoint where there is none (or it is not done).
func (s *Store) At(ctx context.Context, n int) (*Point, error) {
	ps, err := s.query(ctx, whereAt, n)
	if err != nil {
		return nil, err
	}
	if len(ps) == 0 {
		return nil, fmt.Errorf("point %d: %w", n, ErrNoPoint)
	}
	return ps[0], nil
}

// Last returns the number of the newest point, 0 where there is none
// (points not done are left out). It reads one entry of the points_done
// index.
func (s *Store) Last(ctx context.Context) (int, error) {
	var n sql.NullInt64
	if err := s.db.QueryRowContext(ctx, queryLast).Scan(&n); err != nil {
		return 0, fmt.Errorf("history: %w", err)
	}
	return int(n.Int64), nil
}

// Pending returns the points not done, oldest first: changes cut short.
// Every call settles by it, so it reads the points_done index, never every
// point.
func (s *Store) Pending(ctx context.Context) ([]*Point, error) {
	return s.query(ctx, wherePending)
}

// NewTurn starts a turn of an agent and returns its number.
func (s *Store) NewTurn(ctx context.Context, who, agent string, at time.Time) (int, error) {
	var n int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO turns (time, who, agent) VALUES (?, ?, ?)`, at.UTC().Format(time.RFC3339Nano), who, agent)
		if err != nil {
			return fmt.Errorf("history: new turn: %w", err)
		}
		n, err = res.LastInsertId()
		return err
	})
	return int(n), err
}

// IsNoPoint reports whether err says a point does not exist.
func IsNoPoint(err error) bool { return errors.Is(err, ErrNoPoint) }

// Summary writes a list of paths for a point's summary: the first few,
// and how many more.
func Summary(paths []string, max int) string {
	if len(paths) <= max {
		return strings.Join(paths, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(paths[:max], ", "), len(paths)-max)
}

func nonNilChanges(cs []defchange.DefChange) []defchange.DefChange {
	if cs == nil {
		return []defchange.DefChange{}
	}
	return cs
}

func nonNilInts(xs []int) []int {
	if xs == nil {
		return []int{}
	}
	return xs
}

// Mark is what UndoneBy reads of an undo point: its number, its kind
// and the points it undid.
type Mark struct {
	N     int
	Kind  string
	Undid []int
}

// UndoMarks returns the marks of the undo points, oldest first: all that
// UndoneBy reads. It searches the points_kind index.
func (s *Store) UndoMarks(ctx context.Context) ([]Mark, error) {
	return s.marks(ctx, queryUndoMarks)
}

// marks reads the marks a query of n, kind and undid answers.
func (s *Store) marks(ctx context.Context, query string) ([]Mark, error) {
	rows, err := s.db.QueryContext(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	defer rows.Close()
	var out []Mark
	for rows.Next() {
		var m Mark
		var undid string
		if err := rows.Scan(&m.N, &m.Kind, &undid); err != nil {
			return nil, fmt.Errorf("history: %w", err)
		}
		if err := json.Unmarshal([]byte(undid), &m.Undid); err != nil {
			return nil, fmt.Errorf("history: point %d: %w", m.N, err)
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	return out, nil
}

// NewestInEffect returns the newest point that is no undo and whose
// change is in effect, given UndoneBy's answer: the point undo without a
// point undoes. 0 where every change is undone. It reads the points
// newest first and stops at the first.
func (s *Store) NewestInEffect(ctx context.Context, undoneBy map[int]int) (int, error) {
	rows, err := s.db.QueryContext(ctx, queryNotUndo)
	if err != nil {
		return 0, fmt.Errorf("history: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var n int
		if err := rows.Scan(&n); err != nil {
			return 0, fmt.Errorf("history: %w", err)
		}
		if _, undone := undoneBy[n]; !undone {
			return n, nil
		}
	}
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("history: %w", err)
	}
	return 0, nil
}

// UndoneBy returns, for each point whose change is not in effect, the undo
// point that put it back: the newest undo in effect that names it (given
// the marks, oldest first: UndoMarks, or marks of every point, whose
// other points it passes over). A point undone by an undo that a later
// undo (a redo) undid is in effect again, and not in the map. Every point
// not in the map is in effect, undo points too.
func UndoneBy(marks []Mark) map[int]int {
	by := map[int]int{}
	for i := len(marks) - 1; i >= 0; i-- {
		m := marks[i]
		if _, undone := by[m.N]; undone || m.Kind != KindUndo {
			continue
		}
		for _, n := range m.Undid {
			if _, ok := by[n]; !ok {
				by[n] = m.N
			}
		}
	}
	return by
}
