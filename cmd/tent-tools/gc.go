package main

import (
	"math"
	"os"
	"runtime/debug"
	"sync/atomic"

	"github.com/tent-tools/tent-tools/internal/servergc"
)

// oneShotHeap is how much memory a one-shot command lets the Go heap take
// before its first garbage collection. A cached rename of an ordinary
// table on the 1,000-table project allocates about 70 MB in all and never
// reaches it; the hub table's stays under it too.
const oneShotHeap = 96 << 20

// checkHeap is how much memory a one-shot check lets the Go heap take
// before its first garbage collection. A check with no .tent/ allocates
// about 12 bytes for each byte of the project's text (590 MB at 10,000
// tables, 47 MB of text), most of it the index, which lives to the end:
// collecting meanwhile marks the index again and again, which took 4% of
// a cold check's CPU at 1,000 tables and 6% at 10,000, for less peak
// memory (127 against 150 MB, 0.91 against 1.14 GB, when it allocated
// more). Even one collection after the build costs more than it spares:
// at 10,000 tables 320 ms of CPU to mark the 390 MB live, for 89 MB of
// garbage whose fresh pages cost some 75 ms of the kernel's time. A
// project that allocates more (beyond about 25,000 tables) is collected
// from there on at GOGC=400 (collectFrom).
const checkHeap = 1536 << 20

// oneShotGC sets the garbage collector for a command that runs once and
// exits (every command but the servers, lsp and mcp). Nearly everything
// such a command allocates is the index it loads, which lives until the
// end: a collection marks it and frees little. So none runs until the
// heap reaches oneShotHeap (the runtime's memory limit); where the heap
// that a collection finds live is over half of that, the command holds a
// large heap and collects as Go does by default from then on (or as check
// and map set it for their call, GOGC=400), with no limit, so that it is
// never collected again and again at the limit. GOGC or GOMEMLIMIT in the
// environment leave it as set. docs/pages/performance.md says what it
// saves.
func oneShotGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	collectFrom(oneShotHeap, 100)
}

// checkGC sets the garbage collector for a one-shot check: none until the
// heap reaches checkHeap, then GOGC=400. GOGC or GOMEMLIMIT in the
// environment leave it as set.
func checkGC() {
	if !tuneGC || os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	collectFrom(checkHeap, 400)
}

// collectFrom turns collection off until the heap reaches heap bytes, and
// sets GOGC to after (or keeps a higher one set meanwhile) from the
// collection that finds over half of that live (see oneShotGC).
func collectFrom(heap int64, after int) {
	debug.SetMemoryLimit(heap)
	debug.SetGCPercent(-1)
	watchLiveHeap(heap, after, gcWatch.Add(1))
}

// gcWatch counts the calls of collectFrom: a watch of an earlier call
// (a test's) stops.
var gcWatch atomic.Int64

// watchLiveHeap looks at the live heap after the next collection and,
// where it is over half of heap, collects at GOGC=after from then on (a
// higher GOGC set meanwhile is kept); else it waits for the next one.
// gen is its collectFrom's call.
func watchLiveHeap(heap int64, after int, gen int64) {
	servergc.AfterCollection(func() {
		if gcWatch.Load() != gen {
			return
		}
		if live, ok := servergc.LiveHeap(); ok && live <= uint64(heap/2) {
			watchLiveHeap(heap, after, gen)
			return
		}
		if was := debug.SetGCPercent(after); was > after {
			debug.SetGCPercent(was)
		}
		debug.SetMemoryLimit(math.MaxInt64)
	})
}
