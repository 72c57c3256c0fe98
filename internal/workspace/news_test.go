package workspace

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/history"
)

// watched opens a copy of the sample project with a watcher that misses
// the events drop answers true for (nil: none) and walks the folder whole
// every rescan, and makes the first look (the walk that makes the news
// trusted).
func watched(t *testing.T, rescan time.Duration, drop func(string) bool) (*Workspace, string) {
	t.Helper()
	w, dir := openCopy(t)
	wt, err := w.watch(func(err error) { t.Errorf("watch: %v", err) }, rescan, drop)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { wt.Close() })
	ctx := context.Background()
	if err := w.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Index(ctx); err != nil {
		t.Fatal(err)
	}
	return w, dir
}

// outsideWrite writes a file as another process does (sh), outside the
// tools.
func outsideWrite(t *testing.T, dir, rel, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", "-c", `printf '%s' "$2" > "$1"`, "sh", filepath.Join(dir, rel), text)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("sh: %v: %s", err, out)
	}
}

// waitHeard waits until the index's part of the news holds rel: the
// watcher's event arrived.
func waitHeard(t *testing.T, w *Workspace, rel string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		w.news.mu.Lock()
		_, ok := w.news.readers[newsIndex].heard[rel]
		w.news.mu.Unlock()
		if ok {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
	t.Fatalf("the watcher never heard of %s", rel)
}

// indexSrc is the text the workspace's index holds of rel ("" where none).
func indexSrc(t *testing.T, w *Workspace, rel string) string {
	t.Helper()
	ix, err := w.Index(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if f := ix.File(rel); f != nil {
		return string(f.Src)
	}
	return ""
}

// lastOutside is the newest point's summary where it is an outside one.
func lastOutside(t *testing.T, w *Workspace) string {
	t.Helper()
	ctx := context.Background()
	hs, err := w.HistoryStore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	n, err := hs.Last(ctx)
	if err != nil || n == 0 {
		return ""
	}
	p, err := hs.At(ctx, n)
	if err != nil {
		t.Fatal(err)
	}
	if p.Kind != history.KindOutside {
		return ""
	}
	return p.Summary
}

// TestWatchedSeesOutsideEdits: in a watched folder, a file another
// process writes (changed, new, in a new folder, removed) is in the next
// look after the watcher's event, both the index's and the history's,
// and a look walks the folder only where a folder appeared.
func TestWatchedSeesOutsideEdits(t *testing.T) {
	w, dir := watched(t, time.Hour, nil)
	ctx := context.Background()
	const rel = "lib/outside.ts"
	for i, tc := range []struct {
		name, rel, text string
		walks           bool // a new folder: the news is distrusted, the look walks
		gone            bool
	}{
		{name: "new file", rel: rel, text: "export const a = 1\n"},
		{name: "changed file", rel: rel, text: "export const a = 2\n"},
		{name: "changed again, same size", rel: rel, text: "export const a = 3\n"},
		{name: "file in a new folder", rel: "lib/deep/more.ts", text: "export const b = 1\n", walks: true},
		{name: "removed", rel: rel, gone: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			walks := w.walks.Load()
			if tc.gone {
				if out, err := exec.Command("rm", filepath.Join(dir, tc.rel)).CombinedOutput(); err != nil {
					t.Fatalf("rm: %v: %s", err, out)
				}
			} else {
				outsideWrite(t, dir, tc.rel, tc.text)
			}
			if !tc.walks {
				waitHeard(t, w, tc.rel)
			} else {
				time.Sleep(100 * time.Millisecond) // the folder's event
			}
			if got := indexSrc(t, w, tc.rel); got != tc.text {
				t.Fatalf("step %d: the index holds %q of %s, want %q", i, got, tc.rel, tc.text)
			}
			if err := w.Refresh(ctx); err != nil {
				t.Fatal(err)
			}
			if got := lastOutside(t, w); !strings.Contains(got, tc.rel) {
				t.Errorf("the newest point is %q, want the outside change of %s", got, tc.rel)
			}
			if got := w.walks.Load() - walks; got > 0 != tc.walks {
				t.Errorf("%d walks of the folder, want walks %v", got, tc.walks)
			}
		})
	}
}

// TestWatchedLookStatsNothing: with nothing changed, a watched folder's
// calls (the index, a refresh, a tool's settling) walk nothing; a tool's
// own write is in the next look.
func TestWatchedLookStatsNothing(t *testing.T) {
	w, dir := watched(t, time.Hour, nil)
	ctx := context.Background()
	time.Sleep(100 * time.Millisecond) // the first look's own events, if any
	walks := w.walks.Load()
	for range 3 {
		if _, err := w.Index(ctx); err != nil {
			t.Fatal(err)
		}
		if err := w.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		view, release, err := w.Enter(ctx, "write", true)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := view.Index(ctx); err != nil {
			t.Fatal(err)
		}
		release()
	}
	src, err := os.ReadFile(filepath.Join(dir, "lib/money.ts"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(src) + "\nexport const v = 42\n"
	if err := writeThrough(w, "lib/money.ts", text); err != nil {
		t.Fatal(err)
	}
	if got := indexSrc(t, w, "lib/money.ts"); got != text {
		t.Errorf("after a write the index holds %q", got)
	}
	if got := w.walks.Load() - walks; got != 0 {
		t.Errorf("%d walks of the folder with nothing changed outside, want 0", got)
	}
}

// TestWatchedSafetyRescan: a write the watcher missed is not seen while
// the watcher is trusted, and is seen once the safety rescan walked.
func TestWatchedSafetyRescan(t *testing.T) {
	const rel = "lib/missed.ts"
	w, dir := watched(t, 300*time.Millisecond, func(p string) bool { return p == rel })
	outsideWrite(t, dir, rel, "export const m = 1\n")
	deadline := time.Now().Add(10 * time.Second)
	for indexSrc(t, w, rel) == "" {
		if time.Now().After(deadline) {
			t.Fatal("the safety rescan never found the missed write")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := w.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := lastOutside(t, w); !strings.Contains(got, rel) {
		t.Errorf("the newest point is %q, want the outside change of %s", got, rel)
	}
}

// TestWatchedMissedUntilRescan: the news is trusted: a missed write stays
// unseen without a rescan (so that the safety test above tests the
// rescan, not a walk per call).
func TestWatchedMissedUntilRescan(t *testing.T) {
	const rel = "lib/missed.ts"
	w, dir := watched(t, time.Hour, func(p string) bool { return p == rel })
	outsideWrite(t, dir, rel, "export const m = 1\n")
	outsideWrite(t, dir, "lib/heard.ts", "export const h = 1\n")
	waitHeard(t, w, "lib/heard.ts")
	if got := indexSrc(t, w, rel); got != "" {
		t.Fatalf("a write the watcher missed is in the index (%q): the look walked", got)
	}
	w.news.distrust() // as an overflow does
	if got := indexSrc(t, w, rel); got == "" {
		t.Fatal("after the news was distrusted the look did not walk")
	}
}

// TestWatchedRace: outside writes and calls at once, for -race; each
// file's last text is in the look after its event.
func TestWatchedRace(t *testing.T) {
	w, dir := watched(t, 50*time.Millisecond, nil)
	ctx := context.Background()
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := w.Index(ctx); err != nil {
					t.Error(err)
					return
				}
				if err := w.Refresh(ctx); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	for i := range 20 {
		if err := os.WriteFile(filepath.Join(dir, "lib", "race.ts"), []byte("export const r = "+strings.Repeat("1", i+1)+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	want := "export const r = " + strings.Repeat("1", 20) + "\n"
	deadline := time.Now().Add(5 * time.Second)
	for got := indexSrc(t, w, "lib/race.ts"); got != want; got = indexSrc(t, w, "lib/race.ts") {
		if time.Now().After(deadline) {
			t.Fatalf("the index holds %q, want %q", got, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestWatchedByEditor: where the editor watches the folder (Heard), a
// file it tells of is in the next look, one it does not is not (the
// looks walk nothing), and a folder it tells of makes the look walk.
func TestWatchedByEditor(t *testing.T) {
	w, dir := openCopy(t)
	wt := w.WatchByEditor(func(err error) { t.Errorf("watch: %v", err) })
	t.Cleanup(func() { wt.Close() })
	ctx := context.Background()
	if err := w.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	walks := w.walks.Load()
	outsideWrite(t, dir, "lib/told.ts", "export const t = 1\n")
	outsideWrite(t, dir, "lib/untold.ts", "export const u = 1\n")
	wt.Heard("lib/told.ts")
	if got := indexSrc(t, w, "lib/told.ts"); got != "export const t = 1\n" {
		t.Errorf("a file the editor told of: the index holds %q", got)
	}
	if got := indexSrc(t, w, "lib/untold.ts"); got != "" {
		t.Errorf("a file the editor did not tell of is in the index (%q): the look walked", got)
	}
	if err := w.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if got := lastOutside(t, w); !strings.Contains(got, "lib/told.ts") {
		t.Errorf("the newest point is %q, want the outside change of lib/told.ts", got)
	}
	if n := w.walks.Load() - walks; n != 0 {
		t.Errorf("%d walks for files told of", n)
	}
	outsideWrite(t, dir, "lib/new/inside.ts", "export const i = 1\n")
	wt.Heard(filepath.Join(dir, "lib", "new")) // a folder, by its absolute path
	if got := indexSrc(t, w, "lib/new/inside.ts"); got == "" {
		t.Error("a folder the editor told of: its file is not in the index")
	}
	if got := indexSrc(t, w, "lib/untold.ts"); got == "" {
		t.Error("after the walk a folder made, the untold file is still missing")
	}
}
