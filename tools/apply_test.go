package tools

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/change/changetest"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/sample"
	"github.com/tent-tools/tent-tools/internal/workspace"
	"github.com/tent-tools/tent-tools/rename"
)

// planned opens refactor-basic and plans the rename of orders to
// purchases on the workspace's index: a set that writes seven files (one
// of them moved) and so removes one.
func planned(t *testing.T) (*Workspace, string, map[string][]byte, *change.Set) {
	t.Helper()
	w, dir, before := openRefactor(t)
	ix, err := w.Index(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	s, err := rename.Plan(context.Background(), ix, "orders", "purchases")
	if err != nil {
		t.Fatal(err)
	}
	return w, dir, before, s
}

func TestApplyRefusesUnreadable(t *testing.T) {
	w, dir, before := openRefactor(t)
	ix, err := w.Index(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	b := change.NewBuilder()
	good := ix.File("tables/refunds.ts")
	b.Edit(good.Path, good.Src, change.Edit{Start: 0, End: 0, Text: "// fine\n"})
	bad := ix.File("tables/orders.ts")
	at := strings.Index(string(bad.Src), "table({")
	b.Edit(bad.Path, bad.Src, change.Edit{Start: at, End: at + len("table({"), Text: "table({{"})
	s, err := b.Set()
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.state.Apply(context.Background(), ix, s)
	te := wantCode(t, err, diag.T1001)
	if te.Data["path"] != "tables/orders.ts" {
		t.Errorf("refusal names %v", te.Data["path"])
	}
	sameFiles(t, changetest.Load(t, dir), before)

	// Test data that would not be JSON is refused as T1002.
	td := ix.File("testdata/orders.json")
	b = change.NewBuilder()
	b.Edit(td.Path, td.Src, change.Edit{Start: 0, End: 1, Text: "{"})
	s, _ = b.Set()
	_, err = w.state.Apply(context.Background(), ix, s)
	wantCode(t, err, diag.T1002)
	sameFiles(t, changetest.Load(t, dir), before)
}

func TestApplyStale(t *testing.T) {
	w, dir, before, s := planned(t)
	p := filepath.Join(dir, "lib", "report.ts")
	changed := append([]byte("// edited meanwhile\n"), before["lib/report.ts"]...)
	if err := os.WriteFile(p, changed, 0o644); err != nil {
		t.Fatal(err)
	}
	ix, _ := w.Index(context.Background())
	_, err := w.state.Apply(context.Background(), ix, s)
	if err == nil || !strings.Contains(err.Error(), "changed on the disk") {
		t.Fatalf("got %v; want a refusal of a stale plan", err)
	}
	before["lib/report.ts"] = changed
	sameFiles(t, changetest.Load(t, dir), before)
	sample.NoTemps(t, dir)
}

func TestApplyMoveOntoAFile(t *testing.T) {
	w, dir, before, s := planned(t)
	// A file the index does not read stands where the test data would go.
	if err := os.WriteFile(filepath.Join(dir, "testdata", "purchases.json"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	before["testdata/purchases.json"] = []byte("x")
	ix, _ := w.Index(context.Background())
	_, err := w.state.Apply(context.Background(), ix, s)
	wantCode(t, err, diag.T9107)
	sameFiles(t, changetest.Load(t, dir), before)
}

// failingOps fails the nth rename (counting from 1) or, where renames is
// 0, the nth removal.
type failingOps struct {
	fsys             workspace.FileOps
	renames, removes int
}

func (f *failingOps) Rename(a, b string) error {
	if f.renames--; f.renames == 0 {
		return errors.New("disk full")
	}
	return f.fsys.Rename(a, b)
}

func (f *failingOps) Remove(name string) error {
	if f.removes--; f.removes == 0 {
		return errors.New("device gone")
	}
	return f.fsys.Remove(name)
}

func TestApplyPutsBack(t *testing.T) {
	for _, ops := range []failingOps{{renames: 1}, {renames: 4}, {renames: 6}, {removes: 1}} {
		w, dir, before, s := planned(t)
		ops.fsys = w.state.FS()
		w.state.SetFileOps(&ops)
		ix, _ := w.Index(context.Background())
		point, err := w.state.Apply(context.Background(), ix, s)
		if err == nil || !strings.Contains(err.Error(), "nothing was changed") {
			t.Errorf("%+v: got %v; want a failure put back", ops, err)
		}
		sameFiles(t, changetest.Load(t, dir), before)
		sample.NoTemps(t, dir)
		// The point recorded before the renames is taken back.
		hs, _ := w.state.HistoryStore(context.Background())
		if last, _ := hs.Last(context.Background()); point != 0 || last != 0 {
			t.Errorf("%+v: point %d, last %d; want none", ops, point, last)
		}
		if pending, _ := hs.Pending(context.Background()); len(pending) != 0 {
			t.Errorf("%+v: %d points left not done", ops, len(pending))
		}
	}
}

func TestApplyKeepsMode(t *testing.T) {
	w, dir, _, s := planned(t)
	p := filepath.Join(dir, "tables", "orders.ts")
	if err := os.Chmod(p, 0o600); err != nil {
		t.Fatal(err)
	}
	ix, _ := w.Index(context.Background())
	if _, err := w.state.Apply(context.Background(), ix, s); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v; want 0600", info.Mode().Perm())
	}
	// The workspace's index sees the change at once.
	ix, _ = w.Index(context.Background())
	if ix.Definition("purchases") == nil || ix.File("testdata/purchases.json") == nil || ix.File("testdata/orders.json") != nil {
		t.Error("the index does not see the rename")
	}
}

// cutOps loses a new text instead of renaming it into place, and stops
// the change there, as a power cut would between the point's commit and
// the rename's reaching the disk.
type cutOps struct{ fsys workspace.FileOps }

func (c cutOps) Rename(a, b string) error { c.fsys.Remove(a); panic("power cut") }
func (c cutOps) Remove(name string) error { panic("power cut") }

// TestFinishFromHistory checks that a change whose point was recorded but
// whose new text was lost is finished from the contents the history keeps.
func TestFinishFromHistory(t *testing.T) {
	w, dir := openCopy(t, Options{})
	w.state.SetFileOps(cutOps{fsys: w.state.FS()})
	_, err := call(w, "edit", `{"path": "project.ts", "find": "name: 'shop'", "with": "name: 'store'"}`)
	if err == nil || !strings.Contains(err.Error(), "power cut") {
		t.Fatalf("got %v; want the cut", err)
	}
	if strings.Contains(readFile(t, dir, "project.ts"), "store") {
		t.Fatal("the text reached the disk")
	}
	w.state.SetFileOps(nil)
	h := mustCall(t, w, "history", `{}`).Data.(HistoryAnswer)
	if !strings.Contains(readFile(t, dir, "project.ts"), "name: 'store'") {
		t.Error("the change was not finished")
	}
	if len(h.Points) != 1 || h.Points[0].Tool != "edit" {
		t.Errorf("points: %+v", h.Points)
	}
	sample.NoTemps(t, dir)
}
