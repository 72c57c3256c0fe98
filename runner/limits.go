package runner

import (
	"context"
	"fmt"
	"runtime/metrics"
	"sync"
	"time"

	"github.com/dop251/goja"

	"github.com/tent-tools/tent-tools/diag"
)

// The default limits of a run (tools.md §6).
const (
	DefaultTimeLimit   = 5 * time.Second
	DefaultMemoryLimit = 256 << 20
)

// heapMetric is the bytes of heap objects, live or not yet swept: cheap to
// read (no stop of the world), and it rises with every allocation a run makes.
const heapMetric = "/memory/classes/heap/objects:bytes"

// memorySample is how often the watchdog looks at the heap.
const memorySample = 2 * time.Millisecond

// watch stops vm when the run passes its time limit, its context ends, or
// the heap grows past memLimit bytes over what it was when the run began.
// The heap is the process's, so a run that shares its process with other
// work may be stopped early by their allocations; the bound is a guard
// against runaway app code, not an accounting. The answered stop ends
// the watch.
func watch(ctx context.Context, vm *goja.Runtime, timeLimit time.Duration, memLimit uint64) (stop func()) {
	done := make(chan struct{})
	var once sync.Once
	sample := []metrics.Sample{{Name: heapMetric}}
	metrics.Read(sample)
	base := sample[0].Value.Uint64()
	go func() {
		timer := time.NewTimer(timeLimit)
		defer timer.Stop()
		tick := time.NewTicker(memorySample)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				vm.Interrupt(limitHit{code: diag.T4004, message: fmt.Sprintf("the run was stopped: %v", ctx.Err())})
				return
			case <-timer.C:
				vm.Interrupt(limitHit{code: diag.T4004, message: fmt.Sprintf("the run passed its time limit of %s", timeLimit)})
				return
			case <-tick.C:
				metrics.Read(sample)
				if now := sample[0].Value.Uint64(); now > base && now-base > memLimit {
					vm.Interrupt(limitHit{code: diag.T4005, message: fmt.Sprintf("the run passed its memory limit of %d MB", memLimit>>20)})
					return
				}
			}
		}
	}()
	return func() { once.Do(func() { close(done) }) }
}
