package parallel

import (
	"runtime"
	"sync/atomic"
	"testing"
)

// TestFor holds For to calling each step once, whatever the number of
// steps, the grain and the cores, and to running on the caller's
// goroutine, in order, where one goroutine would do.
func TestFor(t *testing.T) {
	for _, procs := range []int{1, 2, 4} {
		was := runtime.GOMAXPROCS(procs)
		for _, tc := range []struct{ n, grain int }{{0, 1}, {1, 1}, {2, 1}, {7, 0}, {100, 1}, {100, 64}, {63, 64}, {1000, 3}} {
			calls := make([]atomic.Int32, tc.n)
			var order []int // written only where the steps run in order
			inline := procs == 1 || tc.n <= max(tc.grain, 1)
			For(tc.n, tc.grain, func(i int) {
				calls[i].Add(1)
				if inline {
					order = append(order, i)
				}
			})
			for i := range calls {
				if c := calls[i].Load(); c != 1 {
					t.Errorf("GOMAXPROCS %d, n %d, grain %d: step %d called %d times", procs, tc.n, tc.grain, i, c)
				}
			}
			for k, i := range order {
				if k != i {
					t.Errorf("GOMAXPROCS %d, n %d, grain %d: step %d ran %dth, want in order", procs, tc.n, tc.grain, i, k)
					break
				}
			}
		}
		runtime.GOMAXPROCS(was)
	}
}
