// Package servergc returns a long-lived server's free memory to the
// system once the server has been idle for a while (`tent-tools lsp`;
// docs/pages/performance.md, "A long-lived server's memory").
//
// Go's collector (GOGC=100) lets the heap grow to twice what the last
// collection found live before it collects again, and its scavenger keeps
// about a tenth more than that resident: a server that holds a 330 MB
// index shows 650 MB after a few requests that made garbage, and keeps
// showing it while the editor is idle. A tighter collector costs the
// requests: on 5,000 tables a soft memory limit a quarter over the live
// heap halved what the process kept after a session's renames, but each
// collection marks the whole index (about 300 ms of CPU), and a planned
// rename of the hub table took twice its CPU time. So the requests run
// under Go's default, and once none has allocated for IdleAfter the
// watcher collects and gives the free pages back (debug.FreeOSMemory),
// where the process holds more than the live heap by at least the margin.
package servergc

import (
	"context"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// The watcher's rules: it looks every tick; the process is idle when it
// allocated under idleBytes between each look for IdleAfter; it collects
// where the heap holds more than its live objects by at least the margin:
// a quarter of the live heap, and at least MinMargin.
const (
	IdleAfter      = 5 * time.Second
	MinMargin      = 64 << 20
	tick           = 500 * time.Millisecond
	idleBytes      = 1 << 20
	marginFraction = 4
)

// Watch starts the watcher of a long-lived server's memory; it ends with
// ctx. GOGC or GOMEMLIMIT in the environment leave the collector as they
// set it: Watch does nothing.
func Watch(ctx context.Context) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	t := time.NewTicker(tick)
	go func() {
		defer t.Stop()
		watch(ctx, t.C, read, debug.FreeOSMemory)
	}()
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
	s := []metrics.Sample{
		{Name: "/gc/heap/allocs:bytes"},
		{Name: "/memory/classes/heap/free:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/gc/heap/live:bytes"},
	}
	metrics.Read(s)
	for _, x := range s {
		if x.Value.Kind() != metrics.KindUint64 {
			return memory{}, false // a runtime without these: do nothing
		}
	}
	v := func(i int) uint64 { return s[i].Value.Uint64() }
	return memory{allocs: v(0), free: v(1), objects: v(2), live: v(3)}, true
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
	return m.spare() >= max(uint64(MinMargin), m.live/marginFraction)
}

// watch looks at each tick and calls collect once the process has been
// idle for IdleAfter while holding memory worth giving back (see worth);
// after a collection it counts idleness anew. It ends with ctx, or where
// read finds no metrics.
func watch(ctx context.Context, ticks <-chan time.Time, read func() (memory, bool), collect func()) {
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
		if idle >= IdleAfter && now.worth() {
			collect()
			if now, ok = read(); !ok {
				return
			}
			idle = 0
		}
		last = now
	}
}
