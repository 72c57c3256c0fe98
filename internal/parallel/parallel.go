// Package parallel runs the steps of a loop at once on the machine's cores:
// the one shape of worker pool that the index and the check share where
// each step stands alone (no worker's own state, no answer gathered but
// what a step writes into its own place).
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// For calls step(i) for each i from 0 to n-1 and returns when every call
// has returned. The calls run on up to GOMAXPROCS goroutines, each taking
// the next i as it finishes one, so that slow steps do not hold up a
// share of the others; no goroutine is started for fewer than grain steps
// (a step that costs little is not worth one), and where one would do,
// the steps run on the caller's goroutine, in order. A step that must
// stop early (its context done) returns at once: the others still run.
func For(n, grain int, step func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), (n+max(grain, 1)-1)/max(grain, 1))
	if workers <= 1 {
		for i := range n {
			step(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				step(i)
			}
		})
	}
	wg.Wait()
}
