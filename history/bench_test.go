package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// benchPoints is how many points the query benchmarks hold: a project an
// agent has worked on for months.
const benchPoints = 20000

// filled opens a store of n points, each with one file and one definition
// change, every 100th an undo of the one before it, the newest of them not
// done (a change a crash cut short). Where indexed is false the
// points_done and points_kind indexes are dropped after the open: the
// store as it was before those schema steps, to compare with.
func filled(tb testing.TB, n int, indexed bool) *Store {
	tb.Helper()
	ctx := context.Background()
	path := filepath.Join(tb.TempDir(), File)
	s, err := Open(ctx, path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	err = s.tx(ctx, func(tx *sql.Tx) error {
		pt, err := tx.PrepareContext(ctx, `INSERT INTO points (time, who, agent, kind, turn, tool, summary, undid, changes, done, journal)
			VALUES (?, 'ann', 'builder', ?, ?, 'edit', ?, ?, ?, ?, '')`)
		if err != nil {
			return err
		}
		defer pt.Close()
		ft, err := tx.PrepareContext(ctx, `INSERT INTO point_files (point, path, before, after) VALUES (?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer ft.Close()
		at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		for i := 1; i <= n; i++ {
			file := fmt.Sprintf("lib/f%d.ts", i%500)
			changes := fmt.Sprintf(`[{"definition":"t%d","kind":"table","action":"change","fields":[{"path":"columns.c%d.type","old":"text","new":"number"}]}]`, i%500, i)
			kind, undid := KindCommand, "[]"
			if i%100 == 0 {
				kind, undid = KindUndo, fmt.Sprintf("[%d]", i-1)
			}
			if _, err := pt.ExecContext(ctx, at.Add(time.Duration(i)*time.Minute).Format(time.RFC3339Nano), kind, i/10, "edit "+file, undid, changes, i < n); err != nil {
				return err
			}
			if _, err := ft.ExecContext(ctx, i, file, Hash([]byte{byte(i)}), Hash([]byte{byte(i + 1)})); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	if !indexed {
		if _, err := s.db.ExecContext(ctx, `DROP INDEX points_done; DROP INDEX points_kind`); err != nil {
			tb.Fatal(err)
		}
	}
	return s
}

// BenchmarkQueries reads a store of benchPoints points by each of the
// store's queries of points, with the points_done and points_kind
// indexes (index) and without them (scan, the store before those schema
// steps), in one run.
func BenchmarkQueries(b *testing.B) {
	ctx := context.Background()
	stores := map[string]*Store{"scan": filled(b, benchPoints, false), "index": filled(b, benchPoints, true)}
	queries := []struct {
		name string
		run  func(s *Store) error
	}{
		{"Pending", func(s *Store) error {
			ps, err := s.Pending(ctx)
			if err == nil && len(ps) != 1 {
				err = fmt.Errorf("%d pending; want 1", len(ps))
			}
			return err
		}},
		{"Last", func(s *Store) error {
			n, err := s.Last(ctx)
			if err == nil && n != benchPoints-1 {
				err = fmt.Errorf("last %d; want %d", n, benchPoints-1)
			}
			return err
		}},
		{"Newest20", func(s *Store) error { _, err := s.Newest(ctx, 20); return err }},
		{"Range20", func(s *Store) error { _, err := s.Range(ctx, benchPoints/2, benchPoints/2+20); return err }},
		{"At", func(s *Store) error { _, err := s.At(ctx, benchPoints/2); return err }},
		{"UndoMarks", func(s *Store) error {
			ms, err := s.UndoMarks(ctx)
			if err == nil && len(ms) != (benchPoints-1)/100 { // the newest, an undo, is not done
				err = fmt.Errorf("%d undo points; want %d", len(ms), (benchPoints-1)/100)
			}
			return err
		}},
		// What changedBy reads for a change of the newest point: Older's
		// first page, where it read every point (Newest without a limit).
		{"OlderFirst", func(s *Store) error {
			for p, err := range s.Older(ctx) {
				if err == nil && p.N != benchPoints-1 {
					err = fmt.Errorf("first point %d; want %d", p.N, benchPoints-1)
				}
				return err
			}
			return errors.New("no point")
		}},
		{"EveryPoint", func(s *Store) error { _, err := s.Newest(ctx, 0); return err }},
		// What history, undo and changedBy read before UndoMarks: the mark
		// of every point.
		{"EveryMark", func(s *Store) error {
			_, err := s.marks(ctx, `SELECT n, kind, undid FROM points WHERE done = 1 ORDER BY n`)
			return err
		}},
		{"NewestInEffect", func(s *Store) error {
			// point benchPoints-1 is not done, benchPoints-2 is
			_, err := s.NewestInEffect(ctx, map[int]int{benchPoints - 2: benchPoints})
			return err
		}},
	}
	for _, q := range queries {
		for _, variant := range []string{"scan", "index"} {
			b.Run(q.name+"/"+variant, func(b *testing.B) {
				for b.Loop() {
					if err := q.run(stores[variant]); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
