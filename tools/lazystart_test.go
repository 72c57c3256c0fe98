package tools

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/tent-tools/tent-tools/diag"
)

// blobCount counts the contents the workspace's history keeps.
func blobCount(t *testing.T, w *Workspace) int {
	t.Helper()
	hs, err := w.state.HistoryStore(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	n, err := hs.Blobs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestLazyStart checks the starting state kept by hashes alone: the first
// write keeps the contents of the one file it changed (before and after),
// none of the others, and undo puts that file back byte for byte.
func TestLazyStart(t *testing.T) {
	w, dir := openCopy(t, Options{})
	before := snapshot(t, dir)
	// A first call that changes nothing records the start: no content.
	if _, err := call(w, "edit", editInput("tables/orders.ts", "no such text", "x")); err == nil {
		t.Fatal("an edit of text that is not there succeeded")
	}
	if n := blobCount(t, w); n != 0 {
		t.Errorf("the start keeps %d contents; want none", n)
	}
	if hs, _ := w.state.HistoryStore(context.Background()); hs != nil {
		if v, err := hs.Version(context.Background()); v == 0 || err != nil {
			t.Fatalf("the first call recorded no start (version %d, %v)", v, err)
		}
	}
	mustCall(t, w, "edit", editInput("tables/orders.ts", "total: money()", "total: int()"))
	if n := blobCount(t, w); n != 2 {
		t.Errorf("the first write keeps %d contents; want 2 (orders.ts before and after)", n)
	}
	hs, _ := w.state.HistoryStore(context.Background())
	state, _, err := hs.State(context.Background())
	if err != nil || state["lib/format.ts"].Hash == "" || state["tables/orders.ts"].Hash == "" {
		t.Fatalf("the start recorded %d files (%v), without lib/format.ts or tables/orders.ts", len(state), err)
	}
	mustCall(t, w, "undo", `{}`)
	after := snapshot(t, dir)
	for p, text := range before {
		if after[p] != text {
			t.Errorf("%s differs after the undo", p)
		}
	}
	if len(after) != len(before) {
		t.Errorf("%d files after the undo; want %d", len(after), len(before))
	}
}

// TestLazyStartOutsideChange checks an outside change of a file no tool
// read: where the index (in memory, or its cache in .tent/index for a
// new process) still holds the earlier text, undo puts it back exactly;
// where nothing does, undoing past the change is T9140, nothing written.
func TestLazyStartOutsideChange(t *testing.T) {
	const file = "lib/format.ts"
	for _, tt := range []struct {
		name string
		// index reads the index before the outside change; fresh opens a
		// new workspace (a new process) after it.
		index, fresh bool
		lost         bool
	}{
		{name: "no index", lost: true},
		{name: "index in memory", index: true},
		{name: "index cache, new process", index: true, fresh: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w, dir := openCopy(t, Options{})
			mustCall(t, w, "write", `{"path": "start.txt", "text": "the history starts"}`)
			if tt.index {
				mustCall(t, w, "check", `{}`)
			}
			old := readFile(t, dir, file)
			if err := os.WriteFile(filepath.Join(dir, file), []byte(old+"// changed outside\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if tt.fresh {
				w.Close()
				var err error
				if w, err = Open(dir, Options{}); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { w.Close() })
			}
			h := mustCall(t, w, "history", `{"newest": 1}`).Data.(HistoryAnswer)
			if len(h.Points) != 1 || h.Points[0].Kind != "outside" || h.Points[0].Point != 2 {
				t.Fatalf("points: %+v; want the outside point 2", h.Points)
			}
			_, err := call(w, "undo", `{}`)
			if tt.lost {
				te := wantCode(t, err, diag.T9140)
				if te.Data["point"] != 2 || te.Data["path"] != file {
					t.Errorf("error data %v; want point 2, path %s", te.Data, file)
				}
				if got := readFile(t, dir, file); got != old+"// changed outside\n" {
					t.Error("the refused undo wrote the file")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := readFile(t, dir, file); got != old {
				t.Errorf("undo put back %q; want the earlier text", got)
			}
		})
	}
}
