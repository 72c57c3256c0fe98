package history

import (
	"context"
	"testing"
	"time"
)

// TestCallPoint: a point recorded with its call's id is found by it, not
// done until MarkDone, and forgotten when dropped; a call of no point, or
// of another id, finds nothing.
func TestCallPoint(t *testing.T) {
	ctx := context.Background()
	s, _ := open(t)
	record := func(call string) int {
		t.Helper()
		p := &Point{Time: time.Unix(100, 0), Who: "ann", Kind: KindCommand, Tool: "edit", Summary: "edit a.ts",
			Files: []FileChange{{Path: "a.ts", After: Hash([]byte("x"))}}, Call: call}
		n, err := s.Record(ctx, p, nil, StateChange{})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	want := func(call string, n int, done bool) {
		t.Helper()
		gn, gdone, err := s.CallPoint(ctx, call)
		if err != nil || gn != n || gdone != done {
			t.Fatalf("CallPoint(%q) = %d, %v, %v; want %d, %v", call, gn, gdone, err, n, done)
		}
	}
	a := record("c-1")
	record("") // a point of no call
	want("c-1", a, false)
	if err := s.MarkDone(ctx, a, nil); err != nil {
		t.Fatal(err)
	}
	want("c-1", a, true)
	want("c-2", 0, false)
	want("", 0, false)
	b := record("c-2")
	want("c-2", b, false)
	if err := s.Drop(ctx, b, StateChange{}); err != nil {
		t.Fatal(err)
	}
	want("c-2", 0, false)
}
