package tools

import (
	"sync"
	"testing"
	"time"
)

// TestReadersSeeWholeChanges renames a table back and forth (seven files
// each time, with a pause before each rename into place) while readers
// search the project for the new name: each search sees the change whole
// or not at all.
func TestReadersSeeWholeChanges(t *testing.T) {
	w, _, _ := openRefactor(t)
	count := func() int {
		ans := mustCall(t, w, "search", `{"text": "purchases", "limit": 1000}`)
		return len(ans.Data.(SearchAnswer).Hits)
	}
	before := count()
	mustCall(t, w, "rename", `{"name": "orders", "to": "purchases"}`)
	after := count()
	mustCall(t, w, "rename", `{"name": "purchases", "to": "orders"}`)
	if count() != before || after == before {
		t.Fatalf("hits %d before, %d after", before, after)
	}
	w.state.SetFileOps(slowOps{fsys: w.state.FS(), pause: time.Millisecond})

	done := make(chan struct{})
	seen := map[int]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				n := count()
				mu.Lock()
				seen[n]++
				mu.Unlock()
			}
		})
	}
	for range 5 {
		mustCall(t, w, "rename", `{"name": "orders", "to": "purchases"}`)
		mustCall(t, w, "rename", `{"name": "purchases", "to": "orders"}`)
	}
	close(done)
	wg.Wait()
	for n, times := range seen {
		if n != before && n != after {
			t.Errorf("a search saw %d hits (%d times): half a change (whole: %d or %d)", n, times, before, after)
		}
	}
	t.Logf("searches by hits: %v", seen)
}
