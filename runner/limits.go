package runner

import (
	"context"
	"fmt"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dop251/goja"

	"github.com/tent-tools/tent-tools/diag"
)

// The default limits of a run (docs/pages/run.md).
const (
	DefaultTimeLimit   = 5 * time.Second
	DefaultMemoryLimit = 256 << 20
)

// heapMetric is the bytes of heap objects, live or not yet swept: cheap to
// read (no stop of the world), and it rises with every allocation a run makes.
const heapMetric = "/memory/classes/heap/objects:bytes"

// memorySample is how often the watchdog looks at the heap.
const memorySample = 2 * time.Millisecond

// watchdog stops a runtime when its run passes the time limit, its context
// ends, or the heap grows past the memory limit over what it was when the
// run began. The heap is the process's, so a run that shares its process
// with other work may be stopped early by their allocations: the bound is a
// guard against runaway app code, not an accounting.
type watchdog struct {
	vm     *goja.Runtime
	done   chan struct{} // closed by stop
	exited chan struct{} // closed when the watch goroutine ends
	pause  chan bool     // true: stop the clock (the person is being asked); false: go on
	once   sync.Once
	// hit is the limit the run passed, once it has: the host's own loops
	// over app values (serialising a result, reading a thrown value) look
	// at it, since an interrupt reaches only JavaScript.
	hit atomic.Pointer[limitHit]
	// ctx ends when the run passes a limit or its caller's context ends:
	// what the host does for the run in Go (an HTTP request) uses it.
	ctx    context.Context
	cancel context.CancelFunc
	// deadline is when the run passes its time limit (Unix nanoseconds),
	// 0 while the clock is stopped.
	deadline atomic.Int64
	// timeLimit is the run's time limit, for the message of a hit that
	// expire finds before the watch goroutine does.
	timeLimit time.Duration
}

// watch starts a watchdog over vm.
func watch(ctx context.Context, vm *goja.Runtime, timeLimit time.Duration, memLimit uint64) *watchdog {
	w := &watchdog{vm: vm, done: make(chan struct{}), exited: make(chan struct{}), pause: make(chan bool), timeLimit: timeLimit}
	w.ctx, w.cancel = context.WithCancel(ctx)
	sample := []metrics.Sample{{Name: heapMetric}}
	metrics.Read(sample)
	base := sample[0].Value.Uint64()
	w.deadline.Store(time.Now().Add(timeLimit).UnixNano())
	go func() {
		defer close(w.exited)
		left := timeLimit
		started := time.Now()
		timer := time.NewTimer(timeLimit)
		defer timer.Stop()
		tick := time.NewTicker(memorySample)
		defer tick.Stop()
		for {
			select {
			case <-w.done:
				return
			case p := <-w.pause:
				if p {
					timer.Stop()
					left -= time.Since(started)
					w.deadline.Store(0)
				} else {
					started = time.Now()
					timer.Reset(max(left, 0))
					w.deadline.Store(started.Add(left).UnixNano())
				}
			case <-ctx.Done():
				w.stopRun(limitHit{code: diag.T4004, message: fmt.Sprintf("the run was stopped: %v", ctx.Err())})
				return
			case <-timer.C:
				w.stopRun(timeHit(timeLimit))
				return
			case <-tick.C:
				metrics.Read(sample)
				if now := sample[0].Value.Uint64(); now > base && now-base > memLimit {
					w.stopRun(limitHit{code: diag.T4005, message: fmt.Sprintf("the run passed its memory limit of %s", megabytes(memLimit))})
					return
				}
			}
		}
	}()
	return w
}

// stopRun stops the run for the limit it passed: the runtime is
// interrupted, the host's loops see hit, and what the host does in Go for
// the run is cancelled. The first limit passed is the one the run answers.
func (w *watchdog) stopRun(hit limitHit) {
	if !w.hit.CompareAndSwap(nil, &hit) {
		return
	}
	w.vm.Interrupt(hit)
	w.cancel()
}

// remaining answers the time the run has left.
func (w *watchdog) remaining() time.Duration {
	return time.Until(time.Unix(0, w.deadline.Load()))
}

// timeHit is the hit of a run that passed its time limit.
func timeHit(limit time.Duration) limitHit {
	return limitHit{code: diag.T4004, message: fmt.Sprintf("the run passed its time limit of %s", limit)}
}

// expire stops the run as its timer would where its deadline has passed
// and the timer has not yet fired: a wait the host timed by remaining (an
// HTTP request) ends at the same instant as the timer, and on a loaded
// machine the watch goroutine may run after the run has read the wait's
// error. It answers the limit the run passed, or nil.
func (w *watchdog) expire() *limitHit {
	if d := w.deadline.Load(); d != 0 && time.Now().UnixNano() >= d {
		w.stopRun(timeHit(w.timeLimit))
	}
	return w.passed()
}

// passed answers the limit the run passed, or nil.
func (w *watchdog) passed() *limitHit { return w.hit.Load() }

// stop ends the watch.
func (w *watchdog) stop() {
	w.once.Do(func() {
		close(w.done)
		<-w.exited
		w.cancel()
	})
}

// hold stops the clock while f runs (the run waits for the person, not
// for its own code), and starts it again after.
func (w *watchdog) hold(f func()) {
	w.send(true)
	defer w.send(false)
	f()
}

// send tells the watch goroutine to stop or start the clock, unless it has ended.
func (w *watchdog) send(p bool) {
	select {
	case w.pause <- p:
	case <-w.exited:
	}
}

// megabytes writes a byte count for a message.
func megabytes(n uint64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d MB", n>>20)
}
