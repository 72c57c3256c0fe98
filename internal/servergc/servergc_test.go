package servergc

import (
	"context"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

const mb = 1 << 20

func TestWorth(t *testing.T) {
	tests := []struct {
		name string
		m    memory
		want bool
	}{
		{"a small heap, little spare", memory{free: 30 * mb, objects: 40 * mb, live: 30 * mb}, false},
		{"a small heap, the floor spare", memory{free: 50 * mb, objects: 44 * mb, live: 30 * mb}, true},
		{"a large heap: a quarter of it", memory{free: 60 * mb, objects: 340 * mb, live: 330 * mb}, false},
		{"a large heap after a rename's garbage", memory{free: 200 * mb, objects: 340 * mb, live: 330 * mb}, true},
		{"dead objects count", memory{free: 10 * mb, objects: 420 * mb, live: 330 * mb}, true},
		{"metrics that disagree", memory{free: 0, objects: 10 * mb, live: 20 * mb}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.m.worth(); got != tt.want {
				t.Errorf("Worth() of %d MB spare, %d MB live = %v, want %v", tt.m.spare()/mb, tt.m.live/mb, got, tt.want)
			}
		})
	}
}

// TestWatchCollectsWhenIdle drives the watcher with made-up looks: a
// process that keeps allocating is never collected, one idle for
// IdleAfter with memory to spare is collected once, and one idle with
// nothing to spare is not.
func TestWatchCollectsWhenIdle(t *testing.T) {
	idleTicks := int(IdleAfter / tick)
	spare := memory{free: 200 * mb, objects: 340 * mb, live: 330 * mb}
	tight := memory{free: 10 * mb, objects: 330 * mb, live: 330 * mb}
	tests := []struct {
		name  string
		looks func(i int, collected int) memory // the i-th look after the first
		ticks int
		want  int // collections
	}{
		{"busy", func(i, _ int) memory { m := spare; m.allocs = uint64(i) * 8 * mb; return m }, 3 * idleTicks, 0},
		{"idle with spare memory", func(i, c int) memory {
			if c > 0 {
				return tight
			}
			return spare
		}, 3 * idleTicks, 1},
		{"idle, nothing to spare", func(int, int) memory { return tight }, 3 * idleTicks, 0},
		{"busy, then idle", func(i, c int) memory {
			m := spare
			if i < idleTicks {
				m.allocs = uint64(i) * 8 * mb
			} else {
				m.allocs = uint64(idleTicks) * 8 * mb
			}
			if c > 0 {
				m.free = 0
			}
			return m
		}, idleTicks + idleTicks - 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			ticks := make(chan time.Time)
			collected, looks := 0, 0
			read := func() (memory, bool) {
				m := tt.looks(looks, collected)
				looks++
				return m, true
			}
			done := make(chan struct{})
			go func() {
				defer close(done)
				watch(ctx, ticks, read, actions{quiet: func() bool { return false }, collect: func() { t.Error("a collection in a pause of a heap not held") }, free: func() { collected++ }})
			}()
			for range tt.ticks {
				ticks <- time.Time{}
			}
			cancel()
			<-done
			if collected != tt.want {
				t.Errorf("%d collections, want %d", collected, tt.want)
			}
		})
	}
}

// TestWatchCollectsInPauses drives the watcher with made-up looks of a
// held heap: a pause of QuietAfter after a request that made garbage of
// at least three quarters of the margin is collected in (once: the collection leaves
// no garbage), one with less garbage is not, a busy process is not, and
// a heap not held is not.
func TestWatchCollectsInPauses(t *testing.T) {
	quietTicks := int(QuietAfter / tick)
	const live = 300 * mb // the margin 75 MB
	tests := []struct {
		name    string
		held    bool
		garbage uint64 // after the request
		busy    bool   // allocating at every look
		ticks   int
		want    int
	}{
		{"a pause after much garbage", true, 60 * mb, false, quietTicks + 2, 1},
		{"too short a pause", true, 60 * mb, false, quietTicks - 1, 0},
		{"little garbage", true, 50 * mb, false, 3 * quietTicks, 0},
		{"busy", true, 70 * mb, true, 3 * quietTicks, 0},
		{"not held", false, 60 * mb, false, 3 * quietTicks, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			ticks := make(chan time.Time)
			collected, looks := 0, 0
			read := func() (memory, bool) {
				m := memory{free: 10 * mb, objects: live + tt.garbage, live: live}
				if collected > 0 {
					m.objects = live
				}
				if tt.busy {
					m.allocs = uint64(looks) * 8 * mb
				}
				looks++
				return m, true
			}
			done := make(chan struct{})
			go func() {
				defer close(done)
				watch(ctx, ticks, read, actions{quiet: func() bool { return tt.held }, collect: func() { collected++ }, free: func() { t.Error("freed in a short pause") }})
			}()
			for range tt.ticks {
				ticks <- time.Time{}
			}
			cancel()
			<-done
			if collected != tt.want {
				t.Errorf("%d collections, want %d", collected, tt.want)
			}
		})
	}
}

func TestLimit(t *testing.T) {
	tests := []struct {
		name                      string
		held, free, objects, live uint64
		want                      uint64
	}{
		{"a small heap: the floor margin", 100 * mb, 10 * mb, 80 * mb, 60 * mb, 10*mb + 60*mb + MinMargin},
		{"a large heap: a quarter of it", 700 * mb, 150 * mb, 500 * mb, 300 * mb, 50*mb + 300*mb + 75*mb},
		{"objects not swept yet count as the runtime's own", 700 * mb, 0, 700 * mb, 300 * mb, 300*mb + 75*mb},
		{"metrics that disagree", 10 * mb, 20 * mb, 30 * mb, 300 * mb, 300*mb + 75*mb},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := limit(tt.held, tt.free, tt.objects, tt.live); got != int64(tt.want) {
				t.Errorf("limit = %d MB, want %d MB", got/mb, tt.want/mb)
			}
		})
	}
}

// TestHold: Hold sets a soft memory limit over the live heap, once, set
// again after a collection, and lifted when Watch's context ends; a nil
// Collector (GOGC or GOMEMLIMIT set) does nothing.
func TestHold(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT set: the collector is the environment's")
	}
	defer debug.SetMemoryLimit(math.MaxInt64)
	var none *Collector
	none.Hold()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Fatalf("a nil Collector set a limit of %d MB", got/mb)
	}
	ctx, cancel := context.WithCancel(context.Background())
	c := Watch(ctx)
	c.Hold()
	first := debug.SetMemoryLimit(-1)
	if first == math.MaxInt64 || first < MinMargin {
		t.Fatalf("Hold set a limit of %d", first)
	}
	// Twice as much live: the limit after the next collection is higher.
	keep := make([][]byte, 0, 64)
	for range 64 {
		keep = append(keep, make([]byte, 1<<20))
	}
	deadline := time.Now().Add(10 * time.Second)
	for debug.SetMemoryLimit(-1) < first+32*mb {
		if time.Now().After(deadline) {
			t.Fatalf("the limit stayed at %d MB after collections with 64 MB more live", debug.SetMemoryLimit(-1)/mb)
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	runtime.KeepAlive(keep)
	c.Hold() // again: nothing
	cancel()
	for debug.SetMemoryLimit(-1) != math.MaxInt64 {
		if time.Now().After(deadline) {
			t.Fatal("the limit stayed after Watch's context ended")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestPause: a collection in a pause runs with the limit a margin higher,
// set again from the metrics once it is done; once Watch's context has
// ended it leaves the lifted limit alone.
func TestPause(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT set: the collector is the environment's")
	}
	defer debug.SetMemoryLimit(math.MaxInt64)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := Watch(ctx)
	c.Hold()
	before := debug.SetMemoryLimit(-1)
	var during int64
	c.pause(func() {
		during = debug.SetMemoryLimit(-1)
		runtime.GC()
	})
	if during < before+MinMargin {
		t.Errorf("during the pause's collection the limit was %d MB, want at least %d MB (a margin over %d MB)", during/mb, (before+MinMargin)/mb, before/mb)
	}
	if after := debug.SetMemoryLimit(-1); after >= during || after == math.MaxInt64 {
		t.Errorf("after the pause's collection the limit was %d MB, want it set again under %d MB", after/mb, during/mb)
	}
	cancel()
	deadline := time.Now().Add(10 * time.Second)
	for debug.SetMemoryLimit(-1) != math.MaxInt64 {
		if time.Now().After(deadline) {
			t.Fatal("the limit stayed after Watch's context ended")
		}
		time.Sleep(10 * time.Millisecond)
	}
	c.pause(func() {
		if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
			t.Errorf("a pause after the context ended set a limit of %d MB", got/mb)
		}
	})
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("a pause after the context ended left a limit of %d MB", got/mb)
	}
}
