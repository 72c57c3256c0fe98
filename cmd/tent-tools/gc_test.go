package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// gcPercent reads the GOGC in effect.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// TestCollectFrom checks the one-shot command's collector: off below the
// heap it is given, and Go's default, with no limit, once a collection
// finds over half of that live; a higher GOGC set meanwhile (check's and
// map's) is kept.
func TestCollectFrom(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	tests := []struct {
		name    string
		heap    int64
		after   int // collectFrom's GOGC from the large heap on; 0: 100
		gogc    int // set after collectFrom, as map does; 0: none
		live    int // bytes kept live across the collections
		escapes bool
		want    int // GOGC at the end
	}{
		{"small heap: still off", 256 << 20, 0, 0, 1 << 20, false, -1},
		{"large heap: the default", 4 << 20, 0, 0, 8 << 20, true, 100},
		{"large heap under map: its GOGC", 4 << 20, 0, 400, 8 << 20, true, 400},
		{"large heap under check: its own GOGC", 4 << 20, 400, 0, 8 << 20, true, 400},
		{"a higher GOGC set meanwhile kept", 4 << 20, 400, 800, 8 << 20, true, 800},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			after := tt.after
			if after == 0 {
				after = 100
			}
			collectFrom(tt.heap, after)
			if tt.gogc != 0 {
				debug.SetGCPercent(tt.gogc)
			}
			keep := make([]byte, tt.live)
			for i := range keep {
				keep[i] = byte(i)
			}
			escaped := false
			for range 50 {
				runtime.GC()
				time.Sleep(10 * time.Millisecond) // the finalizer runs after the collection
				if escaped = debug.SetMemoryLimit(-1) == math.MaxInt64; escaped {
					break
				}
			}
			runtime.KeepAlive(keep)
			if escaped != tt.escapes {
				t.Fatalf("limit lifted: %v, want %v", escaped, tt.escapes)
			}
			if got := gcPercent(); got != tt.want {
				t.Errorf("GOGC %d, want %d", got, tt.want)
			}
			if !escaped {
				if got := debug.SetMemoryLimit(-1); got != tt.heap {
					t.Errorf("memory limit %d, want %d", got, tt.heap)
				}
			}
			debug.SetGCPercent(100)
			debug.SetMemoryLimit(math.MaxInt64)
		})
	}
}
