package workspace

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/history"
)

// TestQuietHistoryHearsOtherWriters: a Refresh that finds the history's
// files as the last one did asks the history nothing (quiet.go), and one
// after another process wrote the history (a point it committed) asks
// again: the point is told to this process's subscribers, and the
// change it made is not taken for one made outside.
func TestQuietHistoryHearsOtherWriters(t *testing.T) {
	ctx := context.Background()
	w, dir := openCopy(t)
	other, err := New(dir, Options{}) // another process: a folder state of its own
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := w.Refresh(ctx); err != nil { // records the start
		t.Fatal(err)
	}
	// Past the racy window of the start's write, the stamps prove
	// something.
	time.Sleep(racyWait)
	for range 2 {
		if err := w.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if !w.quiet.holds(w.historyStamps()) {
		t.Fatal("two Refreshes with nothing written between: the second's stamps are not trusted")
	}
	var mu sync.Mutex
	var told []Event
	cancel := w.Subscribe(func(e Event) {
		mu.Lock()
		told = append(told, e)
		mu.Unlock()
	})
	defer cancel()
	if err := writeThrough(other, "lib/money.ts", "export const cents = 100\n"); err != nil {
		t.Fatal(err)
	}
	if w.quiet.holds(w.historyStamps()) {
		t.Fatal("the history's stamps hold after another process committed a point")
	}
	if err := w.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(told) != 1 || len(told[0].Files) != 1 || told[0].Files[0] != "lib/money.ts" {
		t.Fatalf("told %+v after another process's point; want the point of lib/money.ts", told)
	}
	hs, err := w.HistoryStore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	points, err := hs.Range(ctx, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range points {
		if p.Kind == history.KindOutside {
			t.Fatalf("the other process's commit was recorded as a change made outside: %+v", p)
		}
	}
}
