package servergc

import (
	"context"
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
				watch(ctx, ticks, read, func() { collected++ })
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
