package history

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/defchange"
	"github.com/tent-tools/tent-tools/internal/sqlitefile"
)

func open(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), ".tent", File)
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

func TestStartAndPoints(t *testing.T) {
	ctx := context.Background()
	s, path := open(t)
	if v, _ := s.Version(ctx); v != 0 {
		t.Fatalf("version %d before the start", v)
	}
	a, b := []byte("one\n"), []byte("two\n")
	ok, err := s.SetStart(ctx, []FileState{{Path: "a.ts", Hash: Hash(a), Size: 4, MTime: 1, Inode: 7}, {Path: "big.json", Hash: Hash(b), Size: 5 << 20}})
	if err != nil || !ok {
		t.Fatalf("start: %v %v", ok, err)
	}
	// The start keeps hashes and stamps only: no content.
	if n, err := s.Blobs(ctx); n != 0 || err != nil {
		t.Fatalf("the start kept %d contents (%v); want none", n, err)
	}
	if un, err := s.Unkept(ctx, 1<<20); err != nil || len(un) != 1 || un[0].Path != "a.ts" || un[0].Inode != 7 {
		t.Fatalf("unkept %+v, %v; want a.ts alone (big.json is over the bound)", un, err)
	}
	// A second process that finds the start recorded records nothing.
	other, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if ok, err := other.SetStart(ctx, nil); ok || err != nil {
		t.Fatalf("second start: %v %v", ok, err)
	}

	p := &Point{Time: time.Unix(100, 0), Who: "ann", Agent: "builder", Kind: KindCommand, Turn: 3, Tool: "edit", Summary: "edit a.ts",
		Files:   []FileChange{{Path: "a.ts", Before: Hash(a), After: Hash(b)}},
		Changes: []defchange.DefChange{{Definition: "orders", Kind: "table", Action: "change", Fields: []defchange.Field{{Path: "steps", Old: "x", New: "y"}}}}}
	n, err := s.Record(ctx, p, map[string][]byte{Hash(a): a, Hash(b): b}, StateChange{Put: []FileState{{Path: "a.ts", Hash: Hash(b), Size: 4, MTime: 2, Inode: 8}}})
	if err != nil || n != 1 {
		t.Fatalf("record: %d %v", n, err)
	}
	// Not done: a journal, not yet history.
	if ps, _ := other.Pending(ctx); len(ps) != 1 || ps[0].N != 1 || len(ps[0].Files) != 1 {
		t.Fatalf("pending: %+v", ps)
	}
	if ps, _ := other.Newest(ctx, 0); len(ps) != 0 {
		t.Fatalf("a point not done is listed: %+v", ps)
	}
	if err := s.MarkDone(ctx, n, []FileState{{Path: "a.ts", Hash: Hash(b), Size: 4, MTime: 3, Inode: 9}}); err != nil {
		t.Fatal(err)
	}
	got, err := other.At(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got.Who != "ann" || got.Turn != 3 || !got.Time.Equal(time.Unix(100, 0)) || got.Changes[0].Fields[0].New != "y" || got.Files[0].After != Hash(b) {
		t.Errorf("point read back as %+v", got)
	}
	if _, err := other.At(ctx, 9); !IsNoPoint(err) {
		t.Errorf("point 9: %v", err)
	}
	state, v, err := other.State(ctx)
	if err != nil || v < 2 || state["a.ts"].Hash != Hash(b) || state["a.ts"].Inode != 9 || state["a.ts"].MTime != 3 {
		t.Errorf("state %+v version %d: %v", state, v, err)
	}
	for _, h := range []string{Hash(a), Hash(b)} {
		if _, ok, err := other.Blob(ctx, h); !ok || err != nil {
			t.Errorf("content %s not kept: %v", h, err)
		}
	}
	if _, ok, _ := other.Blob(ctx, Hash([]byte("never"))); ok {
		t.Error("a content never kept is found")
	}
	if un, err := s.Unkept(ctx, 1<<20); err != nil || len(un) != 0 {
		t.Errorf("unkept after the point kept a.ts: %+v, %v", un, err)
	}
	c := []byte("three\n")
	if err := s.Keep(ctx, map[string][]byte{Hash(c): c}); err != nil {
		t.Fatal(err)
	}
	if got, ok, err := other.Blob(ctx, Hash(c)); !ok || err != nil || string(got) != string(c) {
		t.Errorf("kept content read back as %q %v %v", got, ok, err)
	}

	// A point taken back leaves the state as it was.
	n2, err := s.Record(ctx, &Point{Time: time.Unix(200, 0), Kind: KindCommand, Files: []FileChange{{Path: "b.ts", After: Hash(a)}}},
		nil, StateChange{Put: []FileState{{Path: "b.ts", Hash: Hash(a)}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Drop(ctx, n2, StateChange{Delete: []string{"b.ts"}}); err != nil {
		t.Fatal(err)
	}
	if state, _, _ := s.State(ctx); len(state) != 2 || state["b.ts"].Hash != "" {
		t.Errorf("state after drop: %+v", state)
	}
	if last, _ := s.Last(ctx); last != 1 {
		t.Errorf("last point %d; want 1", last)
	}
	n3, _ := s.Record(ctx, &Point{Time: time.Unix(300, 0), Kind: KindOutside, Done: true}, nil, StateChange{})
	if n3 <= n2 {
		t.Errorf("point numbers must rise: %d after a dropped %d", n3, n2)
	}
	if ps, _ := s.Range(ctx, 0, n3); len(ps) != 2 || ps[0].N != 1 || ps[1].N != n3 {
		t.Errorf("range: %+v", ps)
	}
	if ps, _ := s.Newest(ctx, 1); len(ps) != 1 || ps[0].N != n3 {
		t.Errorf("newest: %+v", ps)
	}
	if turn, err := s.NewTurn(ctx, "ann", "builder", time.Now()); turn != 1 || err != nil {
		t.Errorf("turn %d: %v", turn, err)
	}
}

func TestUndoneBy(t *testing.T) {
	tests := []struct {
		name  string
		marks []Mark
		want  map[int]int
	}{
		{"commands", []Mark{{1, KindCommand, nil}, {2, KindOutside, nil}}, map[int]int{}},
		{"undo", []Mark{{1, KindCommand, nil}, {2, KindCommand, nil}, {3, KindUndo, []int{2}}}, map[int]int{2: 3}},
		{"undo twice", []Mark{{1, KindCommand, nil}, {2, KindCommand, nil}, {3, KindUndo, []int{2}}, {4, KindUndo, []int{1}}}, map[int]int{1: 4, 2: 3}},
		{"undo of an undo", []Mark{{1, KindCommand, nil}, {2, KindUndo, []int{1}}, {3, KindUndo, []int{2}}}, map[int]int{2: 3}},
		{"back to a point", []Mark{{1, KindCommand, nil}, {2, KindCommand, nil}, {3, KindUndo, []int{2}}, {4, KindUndo, []int{2, 3}}}, map[int]int{2: 4, 3: 4}},
		{"two at once", []Mark{{1, KindCommand, nil}, {2, KindCommand, nil}, {3, KindUndo, []int{1, 2}}}, map[int]int{1: 3, 2: 3}},
	}
	for _, tt := range tests {
		if got := UndoneBy(tt.marks); fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%s: %v; want %v", tt.name, got, tt.want)
		}
		// The undo points' marks alone (UndoMarks) answer the same.
		var undos []Mark
		for _, m := range tt.marks {
			if m.Kind == KindUndo {
				undos = append(undos, m)
			}
		}
		if got := UndoneBy(undos); fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%s, the undo points alone: %v; want %v", tt.name, got, tt.want)
		}
	}
}

// TestOpenFirstSchema opens a file made by the first schema, before
// versions were stamped (user_version 0, the tables already there, a
// point in them): it is stamped with this release's version, and its
// points read as before. A newer version is refused.
func TestOpenFirstSchema(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), File)
	old, err := sqlitefile.Open(path, sqlitefile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := old.Exec(schema); err != nil {
		t.Fatal(err)
	}
	if _, err := old.Exec(`INSERT INTO points (time, who, agent, kind, turn, tool, summary, undid, changes, done, journal)
		VALUES ('2026-01-02T03:04:05Z', 'ann', '', 'command', 0, 'write', 'write lib/a.ts', '[]', '[]', 1, '')`); err != nil {
		t.Fatal(err)
	}
	old.Close()

	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	points, err := s.Newest(ctx, 10)
	if err != nil || len(points) != 1 || points[0].Who != "ann" || points[0].Summary != "write lib/a.ts" {
		t.Fatalf("points %+v, %v", points, err)
	}
	var v int
	if err := s.db.QueryRow(`PRAGMA user_version`).Scan(&v); err != nil || v != len(schemaSteps) {
		t.Errorf("version %d, %v; want %d", v, err, len(schemaSteps))
	}
	if _, err := s.db.Exec(`PRAGMA user_version = 7`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := Open(ctx, path); !errors.Is(err, sqlitefile.ErrNewer) {
		t.Errorf("a newer file: %v; want ErrNewer", err)
	}
}
