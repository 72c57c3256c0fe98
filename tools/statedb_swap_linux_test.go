package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/tent-tools/tent-tools/history"
)

// TestSwapStateDuringOpen swaps .tent with a link to a decoy folder, whose
// history.db holds a point of its own, again and again while new
// workspaces open their history: each answers its own points or is
// refused, never the decoy's.
func TestSwapStateDuringOpen(t *testing.T) {
	ctx := context.Background()
	w, dir := openCopy(t, Options{})
	mustCall(t, w, "write", `{"path": "start.txt", "text": "the history starts"}`)
	w.Close()
	decoy := filepath.Join(t.TempDir(), "decoy") // outside the project: no file of it
	if err := os.Mkdir(decoy, 0o755); err != nil {
		t.Fatal(err)
	}
	hs, err := history.Open(ctx, filepath.Join(decoy, history.File))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := hs.Record(ctx, &history.Point{Time: time.Now(), Kind: history.KindOutside, Summary: "planted by the decoy", Done: true}, nil, history.StateChange{}); err != nil {
		t.Fatal(err)
	}
	hs.Close()
	state, swap := filepath.Join(dir, ".tent"), filepath.Join(dir, "swap")
	if err := os.Symlink(decoy, swap); err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	var swaps atomic.Int64
	var wg sync.WaitGroup
	wg.Go(func() {
		for !stop.Load() {
			if err := unix.Renameat2(unix.AT_FDCWD, state, unix.AT_FDCWD, swap, unix.RENAME_EXCHANGE); err != nil {
				t.Errorf("swap: %v", err)
				return
			}
			swaps.Add(1)
		}
	})
	own, refused := 0, 0
	for range 300 {
		v, err := Open(dir, Options{})
		if err != nil {
			if refused == 0 {
				t.Logf("first refusal: %v", err)
			}
			refused++
			continue
		}
		ans, err := call(v, "history", `{}`)
		v.Close()
		if err != nil {
			if refused == 0 {
				t.Logf("first refusal: %v", err)
			}
			refused++
			continue
		}
		points := ans.Data.(HistoryAnswer).Points
		for _, p := range points {
			if strings.Contains(p.Summary, "planted by the decoy") {
				t.Fatalf("a workspace read the decoy's history: %+v", points)
			}
		}
		own++
	}
	stop.Store(true)
	wg.Wait()
	if info, err := os.Lstat(state); err == nil && info.Mode()&os.ModeSymlink != 0 {
		if err := unix.Renameat2(unix.AT_FDCWD, state, unix.AT_FDCWD, swap, unix.RENAME_EXCHANGE); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d swaps; %d histories read, %d refused", swaps.Load(), own, refused)
	if swaps.Load() < 10 {
		t.Errorf("the swaps did not meet the opens (%d swaps)", swaps.Load())
	}
	// The swaps over, the workspace reads its own history.
	v, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if h := mustCall(t, v, "history", `{}`).Data.(HistoryAnswer); len(h.Points) == 0 || h.Points[len(h.Points)-1].Summary != "write start.txt" {
		t.Errorf("after the swaps: %+v", h.Points)
	}
}
