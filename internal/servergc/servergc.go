// Package servergc keeps a long-lived server's memory near what it holds
// live (`tent-tools lsp`; docs/pages/performance.md, "A long-lived
// server's memory").
//
// Go's collector (GOGC=100) lets the heap grow to twice what the last
// collection found live before it collects again, and its scavenger keeps
// about a tenth more than that resident: a server that holds a 300 MB
// index shows anything from 300 to 650 MB, by where in its cycle the
// collector is. Two rules hold it nearer:
//
//   - Once the server's index is built (Collector.Hold), the heap is held
//     to what the last collection found live plus a margin (a quarter of
//     the live heap, at least MinMargin), by a soft memory limit
//     (debug.SetMemoryLimit) set again after each collection. The open's
//     build runs under Go's default: its live heap grows from nothing,
//     and a limit over it would collect every margin's worth of the
//     build's garbage. Each collection marks the whole index, so the
//     requests' garbage is what the limit costs.
//   - A held heap is collected in the pauses between requests: once the
//     process has allocated next to nothing for QuietAfter and the
//     garbage since the last collection is at least three quarters of
//     the margin, the watcher collects (runtime.GC), as V8 collects in
//     idle time. The next request then finds the whole margin free,
//     where it would likely have filled it and paid for the collection
//     itself. For the collection's length the limit is a margin higher
//     (Collector.pause): a small request that comes while it marks then
//     allocates into room, where under the limit's goal (at most a
//     quarter margin away) each byte it allocated would have to help
//     mark several bytes of the index first.
//   - Once no request has allocated for IdleAfter, the watcher collects
//     and gives the free pages back (debug.FreeOSMemory), where the
//     process holds more than the live heap by at least the margin.
package servergc

import (
	"context"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// The watcher's rules: it looks every tick; the process is quiet while it
// allocates under idleBytes between two looks. Quiet for QuietAfter with
// a held heap whose garbage is at least the margin over quietShare, it
// collects; quiet for IdleAfter, where the heap holds more than its live
// objects by at least the margin (a quarter of the live heap, and at
// least MinMargin: Hold's margin too), it collects and gives the free
// pages back.
const (
	IdleAfter      = 5 * time.Second
	QuietAfter     = 100 * time.Millisecond
	MinMargin      = 64 << 20
	tick           = 50 * time.Millisecond
	idleBytes      = 1 << 20
	marginFraction = 4
	quietShare     = 0.75
)

// Collector is the collector of one long-lived server process: the idle
// watcher Watch starts, and the limit Hold sets. A nil Collector (GOGC or
// GOMEMLIMIT in the environment) does nothing.
type Collector struct {
	ctx  context.Context
	once sync.Once
	// held is set once Hold has set the limit: only then are the
	// pauses' collections made.
	held atomic.Bool
	// mu orders the limit's settings: none after the one that lifts it.
	mu     sync.Mutex
	lifted bool
}

// Watch starts the watcher of a long-lived server's memory; it ends with
// ctx, and so does the limit of Hold. GOGC or GOMEMLIMIT in the
// environment leave the collector as they set it: Watch does nothing and
// answers nil.
func Watch(ctx context.Context) *Collector {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return nil
	}
	c := &Collector{ctx: ctx}
	t := time.NewTicker(tick)
	go func() {
		defer t.Stop()
		watch(ctx, t.C, read, actions{quiet: c.held.Load, collect: func() { c.pause(runtime.GC) }, free: debug.FreeOSMemory})
	}()
	return c
}

// Hold holds the heap, from now until Watch's context ends, to what the
// last collection found live plus the margin: a soft memory limit over
// the runtime's own memory (its metadata, stacks, the heap's unused
// slots) as it stood then, set again after each collection. The server
// calls it once its index is built, so that the open's garbage is
// collected and given back, and each request's after it within the
// margin. Calls after the first do nothing.
func (c *Collector) Hold() {
	if c == nil {
		return
	}
	c.once.Do(func() {
		if !c.set() {
			return
		}
		c.rearm()
		c.held.Store(true)
		go func() {
			<-c.ctx.Done()
			c.mu.Lock()
			c.lifted = true
			debug.SetMemoryLimit(math.MaxInt64)
			c.mu.Unlock()
		}()
	})
}

// set sets the limit, unless Watch's context has ended; it reports
// whether it did.
func (c *Collector) set() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lifted || c.ctx.Err() != nil {
		return false
	}
	setLimit()
	return true
}

// pause runs collect, a collection in a pause, with the limit a margin
// higher while it runs, and sets the limit again once it is done. The
// garbage is then at about three quarters of the margin (see due), so
// the limit's heap goal is a quarter margin away: the runtime would
// have a request that comes while the collection marks help mark in
// proportion to that little room (mark assists), a millisecond or more
// of a request that alone takes microseconds. A margin higher, the room
// is five times larger. The heap may so grow past the limit by what
// requests allocate during one collection's marking, at most a margin.
// Once Watch's context has ended (the limit lifted), collect runs alone.
func (c *Collector) pause(collect func()) {
	c.mu.Lock()
	if !c.lifted && c.ctx.Err() == nil {
		if v, ok := readMetrics("/gc/heap/live:bytes"); ok {
			now := debug.SetMemoryLimit(-1)
			if m := int64(margin(v[0])); now < math.MaxInt64-m {
				debug.SetMemoryLimit(now + m)
			}
		}
	}
	c.mu.Unlock()
	collect()
	c.set()
}

// sentinel is an object that nothing keeps: its finalizer runs after the
// first collection that finds it so. It holds a pointer so that it is not
// allocated with others (a finalizer of a tiny allocation may never run).
type sentinel struct{ _ *byte }

// AfterCollection calls f once, on the finalizer goroutine, after the
// next garbage collection: f may call it again to follow each one.
func AfterCollection(f func()) {
	runtime.SetFinalizer(&sentinel{}, func(*sentinel) { f() })
}

// rearm sets the limit again after the next collection, and so on, until
// Watch's context ends.
func (c *Collector) rearm() {
	AfterCollection(func() {
		if c.set() {
			c.rearm()
		}
	})
}

// limit is the soft memory limit for the runtime's memory as metrics
// tell it: held (the runtime's memory, released pages left out) less the
// heap's free pages and its objects (live, or dead and not yet swept) is
// the runtime's own; to it the live heap and the margin.
func limit(held, free, objects, live uint64) int64 {
	own := held - min(held, free+objects)
	return int64(min(own+live+margin(live), math.MaxInt64))
}

// margin is how much more than the live heap the heap may hold: a
// quarter of it, and at least MinMargin.
func margin(live uint64) uint64 {
	return max(uint64(MinMargin), live/marginFraction)
}

// setLimit sets the limit from the runtime's metrics now.
func setLimit() {
	v, ok := readMetrics(
		"/memory/classes/total:bytes",
		"/memory/classes/heap/released:bytes",
		"/memory/classes/heap/free:bytes",
		"/memory/classes/heap/objects:bytes",
		"/gc/heap/live:bytes",
	)
	if !ok {
		return // a runtime without these metrics: Go's default
	}
	debug.SetMemoryLimit(limit(v[0]-min(v[0], v[1]), v[2], v[3], v[4]))
}

// LiveHeap answers the bytes the last collection found live; false where
// the runtime lacks the metric.
func LiveHeap() (uint64, bool) {
	v, ok := readMetrics("/gc/heap/live:bytes")
	if !ok {
		return 0, false
	}
	return v[0], true
}

// readMetrics reads the runtime's metrics of these names, each a count
// of bytes; false where the runtime lacks one of them.
func readMetrics(names ...string) ([]uint64, bool) {
	s := make([]metrics.Sample, len(names))
	for i, n := range names {
		s[i].Name = n
	}
	metrics.Read(s)
	v := make([]uint64, len(s))
	for i, x := range s {
		if x.Value.Kind() != metrics.KindUint64 {
			return nil, false
		}
		v[i] = x.Value.Uint64()
	}
	return v, true
}

// memory is what the watcher reads of the runtime at each look.
type memory struct {
	allocs  uint64 // bytes allocated since the start
	free    uint64 // the heap's free pages not given back yet
	objects uint64 // the heap's objects, live or not yet swept
	live    uint64 // what the last collection found live
}

// read reads the runtime's metrics.
func read() (memory, bool) {
	v, ok := readMetrics(
		"/gc/heap/allocs:bytes",
		"/memory/classes/heap/free:bytes",
		"/memory/classes/heap/objects:bytes",
		"/gc/heap/live:bytes",
	)
	if !ok {
		return memory{}, false // a runtime without these: do nothing
	}
	return memory{allocs: v[0], free: v[1], objects: v[2], live: v[3]}, true
}

// spare is how much more than it needs the runtime holds: its free pages
// and its dead objects (the objects over the live heap), which a
// collection would give back.
func (m memory) spare() uint64 {
	return m.free + m.objects - min(m.objects, m.live)
}

// worth reports whether a collection when idle is worth its CPU: the spare
// memory is at least the margin.
func (m memory) worth() bool {
	return m.spare() >= margin(m.live)
}

// garbage is what the heap's objects hold over the live heap: what was
// allocated since the last collection, or died since.
func (m memory) garbage() uint64 {
	return m.objects - min(m.objects, m.live)
}

// due reports whether a held heap is worth collecting in a pause: its
// garbage is at least quietShare of the margin.
func (m memory) due() bool {
	return m.garbage() >= uint64(float64(margin(m.live))*quietShare)
}

// actions are what the watcher does: quiet reports whether the pauses'
// collections are made (the heap is held); collect collects; free
// collects and gives the free pages back.
type actions struct {
	quiet   func() bool
	collect func()
	free    func()
}

// watch looks at each tick. Once the process has been quiet for
// QuietAfter, where the pauses' collections are made and the garbage is
// due (see due), it calls collect; once quiet for IdleAfter while
// holding memory worth giving back (see worth), it calls free; after
// free it counts quiet time anew. It ends with ctx, or where read finds
// no metrics.
func watch(ctx context.Context, ticks <-chan time.Time, read func() (memory, bool), do actions) {
	last, ok := read()
	if !ok {
		return
	}
	var idle time.Duration
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticks:
		}
		now, ok := read()
		if !ok {
			return
		}
		if now.allocs-last.allocs >= idleBytes {
			idle = 0
		} else {
			idle += tick
		}
		switch {
		case idle >= IdleAfter && now.worth():
			do.free()
			idle = 0
		case idle >= QuietAfter && now.due() && do.quiet():
			do.collect()
		default:
			last = now
			continue
		}
		if now, ok = read(); !ok {
			return
		}
		last = now
	}
}
