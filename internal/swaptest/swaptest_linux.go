// Package swaptest attacks a path that is checked before it is opened:
// it exchanges a folder with a link, atomically and again and again, while
// a test's opens and writes run, so that some of them meet the link.
package swaptest

import (
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// Swapper exchanges two paths (renameat2's RENAME_EXCHANGE: neither is
// ever missing) in a loop of its own until Stop.
type Swapper struct {
	t          testing.TB
	real, link string
	stop       atomic.Bool
	swaps      atomic.Int64
	rest       atomic.Int64 // nanoseconds to wait after each pair of swaps
	wg         sync.WaitGroup
}

// Start begins exchanging real (a folder) with link (a symbolic link) and
// returns at once. A failed exchange fails t.
func Start(t testing.TB, real, link string) *Swapper {
	s := &Swapper{t: t, real: real, link: link}
	s.wg.Go(func() {
		for !s.stop.Load() {
			if err := s.exchange(); err != nil {
				t.Errorf("swap %s with %s: %v", real, link, err)
				return
			}
			if s.swaps.Add(1)%2 == 0 {
				time.Sleep(time.Duration(s.rest.Load()))
			}
		}
	})
	return s
}

// Rest makes the swapper wait d after each pair of swaps, with the folder
// in its place: on a loaded machine an operation can be slower than the
// swaps and never meet the folder where it belongs.
func (s *Swapper) Rest(d time.Duration) { s.rest.Store(int64(d)) }

// Rested is the wait Rest set last.
func (s *Swapper) Rested() time.Duration { return time.Duration(s.rest.Load()) }

// Stop ends the swaps, puts the folder back in its place, and returns how
// many swaps were made.
func (s *Swapper) Stop() int64 {
	s.stop.Store(true)
	s.wg.Wait()
	if info, err := os.Lstat(s.real); err == nil && info.Mode()&os.ModeSymlink != 0 {
		if err := s.exchange(); err != nil {
			s.t.Fatalf("put %s back: %v", s.real, err)
		}
	}
	return s.swaps.Load()
}

func (s *Swapper) exchange() error {
	return unix.Renameat2(unix.AT_FDCWD, s.real, unix.AT_FDCWD, s.link, unix.RENAME_EXCHANGE)
}
