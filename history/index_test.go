package history

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/internal/sqlitefile"
)

// plan is SQLite's query plan of q, its steps joined by "; ". Each ? of q
// is bound to 1.
func plan(t *testing.T, s *Store, q string) string {
	t.Helper()
	args := make([]any, strings.Count(q, "?"))
	for i := range args {
		args[i] = 1
	}
	rows, err := s.db.Query(`EXPLAIN QUERY PLAN `+q, args...)
	if err != nil {
		t.Fatalf("plan of %s: %v", q, err)
	}
	defer rows.Close()
	var steps []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		steps = append(steps, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return strings.Join(steps, "; ")
}

// TestQueryPlans holds the store's queries of points to a search: the
// points not done and the newest point by the points_done index, the rest
// by it or by number, the undo points by points_kind, none sorted after
// reading. Newest of every point reads every point, and may scan; its
// order still comes from the table or the index.
func TestQueryPlans(t *testing.T) {
	s, _ := open(t)
	ctx := context.Background()
	for i := range 3 {
		if _, err := s.Record(ctx, &Point{Time: time.Unix(int64(i), 0), Kind: KindCommand, Done: i < 2, Call: fmt.Sprint("c-", i),
			Files: []FileChange{{Path: "a.ts", After: Hash([]byte{byte(i)})}}}, nil, StateChange{}); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name  string
		query string
		want  string // in the plan
		every bool   // reads every point: a scan is no fault
	}{
		{"Pending", pointsQuery(wherePending), "SEARCH points USING INDEX points_done (done=?)", false},
		{"Last", queryLast, "SEARCH points USING COVERING INDEX points_done (done=?)", false},
		{"Newest", pointsQuery(whereNewestN), "SEARCH points USING INDEX points_done (done=?)", false},
		{"Range", pointsQuery(whereRange), "SEARCH points USING", false},
		{"Older", pointsQuery(whereOlder), "SEARCH points USING INDEX points_done (done=? AND n<?)", false},
		{"At", pointsQuery(whereAt), "SEARCH points USING INTEGER PRIMARY KEY (rowid=?)", false},
		{"files of points", queryFilesOf, "SEARCH point_files USING INDEX sqlite_autoindex_point_files_1 (point>? AND point<?)", false},
		{"CallPoint", queryCallPoint, "SEARCH c USING COVERING INDEX sqlite_autoindex_calls_1 (id=?); SEARCH p USING INTEGER PRIMARY KEY (rowid=?)", false},
		{"Newest of every point", pointsQuery(whereNewest), "points", true},
		{"UndoMarks", queryUndoMarks, "SEARCH points USING INDEX points_kind (kind=? AND done=?)", false},
		{"NewestInEffect", queryNotUndo, "SEARCH points USING INDEX points_done (done=?)", false},
	}
	for _, tt := range tests {
		got := plan(t, s, tt.query)
		if !strings.Contains(got, tt.want) {
			t.Errorf("%s: plan %q; want %q in it", tt.name, got, tt.want)
		}
		if strings.Contains(got, "TEMP B-TREE") || !tt.every && strings.Contains(got, "SCAN") {
			t.Errorf("%s: plan %q scans or sorts", tt.name, got)
		}
	}
}

// TestOpenOlderFile opens files of the schema versions before the
// points_done and points_kind indexes: one that release b111a1f wrote through this store
// (testdata/history-v2.db: three points, the second an undo of the
// first, the last not done, two of them with their call's id) and one of version 1 (before the calls table).
// Each is brought to this release's version, gains the indexes (its
// plans use them), and reads as it did.
func TestOpenOlderFile(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name     string
		make     func(t *testing.T, path string)
		last     int
		pending  []int
		calls    map[string]int
		undoneBy string
	}{
		{"version 2, written by release b111a1f", func(t *testing.T, path string) {
			data, err := os.ReadFile(filepath.Join("testdata", "history-v2.db"))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}, 2, []int{3}, map[string]int{"call-1": 1, "call-3": 3}, "map[1:2]"},
		{"version 1", func(t *testing.T, path string) {
			db, err := sqlitefile.Open(path, sqlitefile.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			for _, q := range []string{schemaSteps[0], `PRAGMA user_version = 1`,
				`INSERT INTO points (time, who, agent, kind, turn, tool, summary, undid, changes, done, journal)
				VALUES ('2026-01-02T03:04:05Z', 'ann', '', 'command', 0, 'write', 'write lib/a.ts', '[]', '[]', 1, ''),
				('2026-01-02T03:05:05Z', 'ann', '', 'command', 0, 'write', 'write lib/b.ts', '[]', '[]', 0, 'j')`} {
				if _, err := db.Exec(q); err != nil {
					t.Fatal(err)
				}
			}
		}, 1, []int{2}, nil, "map[]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), File)
			tt.make(t, path)
			s, err := Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			var v, indexes int
			if err := s.db.QueryRow(`PRAGMA user_version`).Scan(&v); err != nil || v != len(schemaSteps) {
				t.Errorf("version %d, %v; want %d", v, err, len(schemaSteps))
			}
			if err := s.db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name IN ('points_done', 'points_kind')`).Scan(&indexes); err != nil || indexes != 2 {
				t.Errorf("%d of the indexes points_done and points_kind, %v; want 2", indexes, err)
			}
			for q, index := range map[string]string{pointsQuery(wherePending): "points_done", queryLast: "points_done", queryUndoMarks: "points_kind"} {
				if got := plan(t, s, q); !strings.Contains(got, index) {
					t.Errorf("plan of %s: %q; want the %s index", q, got, index)
				}
			}
			undos, err := s.UndoMarks(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprint(UndoneBy(undos)); got != tt.undoneBy {
				t.Errorf("undone by %s; want %s", got, tt.undoneBy)
			}
			if last, err := s.Last(ctx); err != nil || last != tt.last {
				t.Errorf("last %d, %v; want %d", last, err, tt.last)
			}
			pending, err := s.Pending(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, p := range pending {
				got = append(got, p.N)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.pending) {
				t.Errorf("pending %v; want %v", got, tt.pending)
			}
			points, err := s.Newest(ctx, 0)
			if err != nil || len(points) != tt.last || points[0].N != tt.last {
				t.Fatalf("newest: %d points, %v; want %d", len(points), err, tt.last)
			}
			for id, want := range tt.calls {
				if n, _, err := s.CallPoint(ctx, id); err != nil || n != want {
					t.Errorf("call %s: point %d, %v; want %d", id, n, err, want)
				}
			}
			// The file keeps working: a point done now is the newest.
			if err := s.MarkDone(ctx, tt.pending[0], nil); err != nil {
				t.Fatal(err)
			}
			if last, err := s.Last(ctx); err != nil || last != tt.pending[0] {
				t.Errorf("last after MarkDone %d, %v; want %d", last, err, tt.pending[0])
			}
			if pending, err := s.Pending(ctx); err != nil || len(pending) != 0 {
				t.Errorf("pending after MarkDone %d, %v; want none", len(pending), err)
			}
		})
	}
}

// TestOlder: Older yields every done point newest first, with its files,
// across its pages (64, 128, 256 points here), and reads no further once
// the caller stops.
func TestOlder(t *testing.T) {
	ctx := context.Background()
	s := filled(t, 500, true) // 500 is not done
	want := 499
	for p, err := range s.Older(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		if p.N != want || len(p.Files) != 1 {
			t.Fatalf("point %d with %d files; want %d with 1", p.N, len(p.Files), want)
		}
		want--
	}
	if want != 0 {
		t.Errorf("the walk stopped before point %d", want)
	}
	n := 0
	for p := range s.Older(ctx) {
		if n++; n == 3 {
			if p.N != 497 {
				t.Errorf("third point %d; want 497", p.N)
			}
			break
		}
	}
	empty, _ := open(t)
	for p := range empty.Older(ctx) {
		t.Errorf("an empty history yields point %d", p.N)
	}
}
