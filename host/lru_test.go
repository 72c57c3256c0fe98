package host

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/internal/soak"
	"github.com/tent-tools/tent-tools/tools"
)

// openFiles counts the files this process holds open.
func openFiles(t testing.TB) int {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatalf("count open files: %v", err)
	}
	return len(entries)
}

// TestManyWorkspaces: a host that touches many workspaces (a write on
// each, which opens its folder, lock files and history) holds a bounded
// number of open files: the handle closes the workspaces idle the
// longest. A workspace closed so is opened again by its next call, its
// history whole; one in use by a call is never closed under it. The
// default run touches 250 (31 times the bound; a workspace that leaked
// one file would pass the bound's margin 2.5 times over), the long run
// (TENT_SOAK=1) 2,000.
func TestManyWorkspaces(t *testing.T) {
	const bound = 8
	touched := soak.Rounds(250, 2000)
	h := open(t, Config{MaxOpen: bound})
	ctx := context.Background()
	ids := make([]string, touched)
	for i := range ids {
		info, err := h.Create(ctx, "ann", "")
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = info.ID
	}
	before := openFiles(t)
	most := 0
	var mu sync.Mutex
	var wg sync.WaitGroup
	work := make(chan string)
	for range 4 {
		wg.Go(func() {
			for id := range work {
				if _, err := h.Tool(ctx, id, "write", raw(map[string]string{"path": "a.ts", "text": "export const a = 1\n"}), Call{Caller: "ann"}); err != nil {
					t.Error(err)
				}
				mu.Lock()
				most = max(most, openFiles(t))
				mu.Unlock()
			}
		})
	}
	for _, id := range ids {
		work <- id
	}
	close(work)
	wg.Wait()
	// Each open workspace holds a handful of files (folder, two locks,
	// the history's database and its WAL files); 4 calls may run past the
	// bound at once.
	if grew := most - before; grew > (bound+4)*8 {
		t.Errorf("%d more files open at most after touching %d workspaces; want a bound", grew, touched)
	}
	h.mu.Lock()
	n := len(h.open)
	h.mu.Unlock()
	if n > bound {
		t.Errorf("%d workspaces open; want at most %d", n, bound)
	}
	// The first, closed long ago, opens again with its history.
	ans, err := h.Tool(ctx, ids[0], "history", nil, Call{Caller: "ann"})
	if err != nil {
		t.Fatal(err)
	}
	if ans.Text == "" || !strings.Contains(ans.Text, "write a.ts") {
		t.Errorf("history of a reopened workspace: %s", ans.Text)
	}
}

// TestBusyWorkspaceNotClosed: with a bound of one, a workspace in a call
// stays open while calls on others come and go.
func TestBusyWorkspaceNotClosed(t *testing.T) {
	h := open(t, Config{MaxOpen: 1})
	ctx := context.Background()
	a, _ := h.Create(ctx, "ann", "")
	b, _ := h.Create(ctx, "ann", "")
	w, release, err := h.workspace(a.ID, Call{Caller: "ann"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := h.Tool(ctx, b.ID, "list", nil, Call{Caller: "ann"}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Index(ctx); err != nil {
		t.Fatalf("the busy workspace was closed under its call: %v", err)
	}
	release()
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.open) != 1 {
		t.Errorf("%d open after the call; want 1", len(h.open))
	}
}

// TestEvictionStallsNobody: a workspace evicted is closed outside the
// handle's lock, so a Close that takes long (it saves .tent/index) never
// stalls another tenant's call; a Close that fails is logged, and the
// workspace opens again at its next call.
func TestEvictionStallsNobody(t *testing.T) {
	var log strings.Builder
	var logMu sync.Mutex
	h := open(t, Config{MaxOpen: 1, Log: writerFunc(func(p []byte) (int, error) {
		logMu.Lock()
		defer logMu.Unlock()
		return log.Write(p)
	})})
	ctx := context.Background()
	var ids []string
	for range 3 {
		info, err := h.Create(ctx, "ann", "")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, info.ID)
	}
	closing, unblock := make(chan struct{}), make(chan struct{})
	h.closeWorkspace = func(w *tools.Workspace) error {
		close(closing)
		<-unblock
		w.Close()
		return errors.New("the index cache could not be saved")
	}
	write := raw(map[string]string{"path": "a.ts", "text": "export const a = 1\n"})
	if _, err := h.Tool(ctx, ids[0], "write", write, Call{Caller: "ann"}); err != nil {
		t.Fatal(err)
	}
	evicting := make(chan error, 1)
	go func() { // opens ids[1], evicts ids[0], and blocks in its Close
		_, err := h.Tool(ctx, ids[1], "write", write, Call{Caller: "ann"})
		evicting <- err
	}()
	<-closing
	h.closeWorkspace = nil // the evictions from here on close for real
	done := make(chan error, 1)
	go func() {
		_, err := h.Tool(ctx, ids[2], "list", nil, Call{Caller: "ann"})
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("a call on another workspace waited for an eviction's Close")
	}
	close(unblock)
	if err := <-evicting; err != nil {
		t.Fatal(err)
	}
	logMu.Lock()
	got := log.String()
	logMu.Unlock()
	if !strings.Contains(got, ids[0]) || !strings.Contains(got, "the index cache could not be saved") {
		t.Errorf("the failed Close was not logged: %q", got)
	}
	ans, err := h.Tool(ctx, ids[0], "read", raw(map[string]string{"path": "a.ts"}), Call{Caller: "ann"})
	if err != nil || !strings.Contains(ans.Text, "export const a") {
		t.Errorf("the evicted workspace, opened again: %v %q", err, ans.Text)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
