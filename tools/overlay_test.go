package tools

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/check"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/history"
	"github.com/tent-tools/tent-tools/internal/workspace"
	"github.com/tent-tools/tent-tools/rename"
)

// findingCodes lists the codes the check finds in one file.
func findingCodes(t *testing.T, w *Workspace, path string) []string {
	t.Helper()
	ans, err := call(w, "check", `{}`)
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, f := range findingsOf(ans) {
		if f.Path == path {
			codes = append(codes, f.Code)
		}
	}
	return codes
}

func findingsOf(a Answer) []diag.Finding {
	return a.Data.(check.Answer).Findings
}

func TestOverlaySeenByIndexCheckAndRead(t *testing.T) {
	w, dir := openCopy(t, Options{})
	const path = "tables/orders.ts"
	disk := readFile(t, dir, path)
	broken := strings.Replace(disk, "ref('users')", "ref('userz')", 1)
	if codes := findingCodes(t, w, path); slices.Contains(codes, diag.T2003) {
		t.Fatalf("the sample already has T2003 in %s: %v", path, codes)
	}
	if _, err := w.SetOverlay(path, []byte(broken)); err != nil {
		t.Fatal(err)
	}
	if codes := findingCodes(t, w, path); !slices.Contains(codes, diag.T2003) {
		t.Errorf("with the overlay, check finds %v in %s, want T2003", codes, path)
	}
	ans, err := call(w, "read", `{"path": "tables/orders.ts"}`)
	if err != nil {
		t.Fatal(err)
	}
	if got := ans.Data.(ReadAnswer).Text; got != broken {
		t.Errorf("read answers the disk's text, not the overlay's")
	}
	ix, err := w.DiskIndex(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if string(ix.File(path).Src) != disk {
		t.Errorf("the disk index holds the overlay")
	}
	if got := readFile(t, dir, path); got != disk {
		t.Errorf("an overlay reached the disk")
	}
	w.DropOverlay(path)
	if codes := findingCodes(t, w, path); slices.Contains(codes, diag.T2003) {
		t.Errorf("after the overlay is dropped, check still finds T2003: %v", codes)
	}
}

func TestDirtyOverlayRefusesWrites(t *testing.T) {
	tests := []struct {
		name, tool, input string
		overlay           string // the file with unsaved text
		clean             bool   // the overlay holds the disk's text
		want              string // the code, "" for success
	}{
		{"rename touching a dirty file", "rename", `{"name": "orders.buyer", "to": "customer"}`, "tables/orders.ts", false, diag.T9120},
		{"rename touching a clean overlay", "rename", `{"name": "orders.buyer", "to": "customer"}`, "tables/orders.ts", true, ""},
		{"edit of a dirty file", "edit", `{"path": "tables/orders.ts", "find": "total: money()", "with": "sum: money()"}`, "tables/orders.ts", false, diag.T9120},
		{"rename not touching the dirty file", "rename", `{"name": "orders.buyer", "to": "customer"}`, "lib/money.ts", false, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w, dir := openCopy(t, Options{})
			text := readFile(t, dir, tc.overlay)
			if !tc.clean {
				text += "\n// not saved yet\n"
			}
			if _, err := w.SetOverlay(tc.overlay, []byte(text)); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, dir)
			_, err := call(w, tc.tool, tc.input)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("%s: %v", tc.tool, err)
				}
				return
			}
			te := wantCode(t, err, tc.want)
			if te.Data["path"] != tc.overlay || !strings.Contains(te.Message, tc.overlay) {
				t.Errorf("the refusal does not name %s: %v", tc.overlay, te)
			}
			if after := snapshot(t, dir); !mapsEqual(before, after) {
				t.Errorf("a refused write changed files")
			}
		})
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// eventLog collects the events a workspace tells.
type eventLog struct {
	mu  sync.Mutex
	evs []Event
	got chan struct{}
}

func listen(t *testing.T, w *Workspace) *eventLog {
	l := &eventLog{got: make(chan struct{}, 100)}
	cancel := w.Subscribe(func(ev Event) {
		l.mu.Lock()
		l.evs = append(l.evs, ev)
		l.mu.Unlock()
		l.got <- struct{}{}
	})
	t.Cleanup(cancel)
	return l
}

func (l *eventLog) all() []Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Event(nil), l.evs...)
}

func TestEventsOfEverySource(t *testing.T) {
	w, dir := openCopy(t, Options{Caller: "ann"})
	ctx := context.Background()
	if err := w.Refresh(ctx); err != nil { // the starting state: no event
		t.Fatal(err)
	}
	l := listen(t, w)
	if _, err := call(w, "rename", `{"name": "orders.buyer", "to": "customer"}`); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "lib/extra.ts"), []byte("export const x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := w.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := call(w, "undo", `{}`); err != nil {
		t.Fatal(err)
	}
	evs := l.all()
	if len(evs) != 3 {
		t.Fatalf("got %d events, want 3 (rename, outside, undo): %+v", len(evs), evs)
	}
	if evs[0].Point != 1 || !slices.Contains(evs[0].Definitions, "orders.buyer") || !slices.Contains(evs[0].Files, "tables/orders.ts") {
		t.Errorf("rename's event: %+v", evs[0])
	}
	if evs[1].Point != 2 || !slices.Equal(evs[1].Files, []string{"lib/extra.ts"}) {
		t.Errorf("the outside change's event: %+v", evs[1])
	}
	if evs[2].Point != 3 || !slices.Contains(evs[2].Files, "lib/extra.ts") {
		t.Errorf("undo's event: %+v", evs[2])
	}
}

// writePlanned writes a plan's files as an editor saves them.
func writePlanned(t *testing.T, dir string, f workspace.PlannedFile) {
	t.Helper()
	if f.From != "" {
		if err := os.Rename(filepath.Join(dir, f.From), filepath.Join(dir, f.Path)); err != nil {
			t.Fatal(err)
		}
	}
	if f.Gone {
		if err := os.Remove(filepath.Join(dir, f.Path)); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err := os.WriteFile(filepath.Join(dir, f.Path), f.Text, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestPlannedChangeSavedByTheEditorIsOneCommandPoint(t *testing.T) {
	for _, tc := range []struct {
		name, target, to string
		reverse          bool // save the files last first
		deviate          bool // one file saved with another text
		midSave          bool // each file is seen half written first
	}{
		{name: "column, in order", target: "orders.buyer", to: "customer"},
		{name: "table with its test data file, reversed", target: "orders", to: "purchases", reverse: true},
		{name: "a file saved otherwise", target: "orders.buyer", to: "customer", deviate: true},
		{name: "each file seen half written", target: "orders", to: "purchases", midSave: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, dir := openCopy(t, Options{Caller: "ann", Agent: "editor"})
			ctx := context.Background()
			if err := w.Refresh(ctx); err != nil {
				t.Fatal(err)
			}
			before, err := w.History(ctx, HistoryInput{})
			if err != nil {
				t.Fatal(err)
			}
			nBefore := len(before.Points)
			ix, err := w.Index(ctx)
			if err != nil {
				t.Fatal(err)
			}
			s, err := rename.Plan(context.Background(), ix, tc.target, tc.to)
			if err != nil {
				t.Fatal(err)
			}
			plan, err := w.PlanChange(ctx, ix, s)
			if err != nil {
				t.Fatal(err)
			}
			if len(plan.Files) < 2 {
				t.Fatalf("the plan has %d files; the test needs two or more", len(plan.Files))
			}
			if !mapsEqual(snapshot(t, copyProject(t, shopDir)), snapshot(t, dir)) {
				t.Fatal("planning wrote files")
			}
			files := plan.Files
			if tc.reverse {
				files = slices.Clone(files)
				slices.Reverse(files)
			}
			if tc.deviate {
				files[0].Text = append(slices.Clone(files[0].Text), "// mine\n"...)
			}
			for i, f := range files {
				if tc.midSave && !f.Gone && f.From == "" {
					// An editor's save truncates, then writes: a look
					// in between sees part of the text, just written.
					half := f
					half.Text = f.Text[:len(f.Text)/2]
					writePlanned(t, dir, half)
					if err := w.Refresh(ctx); err != nil {
						t.Fatal(err)
					}
					if points := newPoints(t, w, nBefore); len(points) != 0 {
						t.Fatalf("a file seen half saved was recorded: %+v", points)
					}
				}
				writePlanned(t, dir, f)
				if tc.deviate && i == 0 {
					// Saved otherwise, and still for longer than a save
					// takes: judged as what it is.
					old := time.Now().Add(-time.Minute)
					if err := os.Chtimes(filepath.Join(dir, f.Path), old, old); err != nil {
						t.Fatal(err)
					}
				}
				if err := w.Refresh(ctx); err != nil {
					t.Fatal(err)
				}
				points := newPoints(t, w, nBefore)
				if i < len(files)-1 && !tc.deviate && len(points) != 0 {
					t.Fatalf("after %d of %d files saved, points were recorded: %+v", i+1, len(files), points)
				}
			}
			points := newPoints(t, w, nBefore)
			if tc.deviate {
				var kinds []string
				for _, p := range points {
					kinds = append(kinds, p.Kind)
				}
				slices.Sort(kinds)
				if !slices.Equal(kinds, []string{history.KindCommand, history.KindOutside}) {
					t.Fatalf("a file saved otherwise: points of kinds %v, want one command and one outside", kinds)
				}
				return
			}
			if len(points) != 1 || points[0].Kind != history.KindCommand || points[0].Who != "ann" || points[0].Agent != "editor" || points[0].Tool != "rename" {
				t.Fatalf("want one command point by ann through editor; got %+v", points)
			}
			if len(points[0].Files) != len(plan.Files)+countMoves(plan) {
				t.Errorf("the point names files %v; the plan %d", points[0].Files, len(plan.Files))
			}
			if w.state.Waiting() != 0 {
				t.Errorf("the plan still waits")
			}
			// The start keeps no contents: the point keeps the plan's old
			// texts, so undo puts the files back as they were.
			if _, err := call(w, "undo", `{}`); err != nil {
				t.Fatalf("undo of the editor's saves: %v", err)
			}
			if !mapsEqual(snapshot(t, copyProject(t, shopDir)), snapshot(t, dir)) {
				t.Error("undo did not put the files back as they were")
			}
		})
	}
}

func countMoves(p *workspace.Plan) int {
	n := 0
	for _, f := range p.Files {
		if f.From != "" {
			n++
		}
	}
	return n
}

// newPoints answers the points recorded after the first n, oldest first.
func newPoints(t *testing.T, w *Workspace, n int) []PointAnswer {
	t.Helper()
	ans, err := w.History(context.Background(), HistoryInput{Newest: 100})
	if err != nil {
		t.Fatal(err)
	}
	all := ans.Points
	if len(all) <= n {
		return nil
	}
	out := slices.Clone(all[:len(all)-n])
	slices.Reverse(out)
	return out
}

func TestPlanChangeIsJudged(t *testing.T) {
	w, dir := openCopy(t, Options{Policy: &Policy{Deny: []string{"rename:column"}}})
	ctx := context.Background()
	ix, err := w.Index(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s, err := rename.Plan(context.Background(), ix, "orders.buyer", "customer")
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.PlanChange(ctx, ix, s)
	wantCode(t, err, diag.T9105)
	if w.state.Waiting() != 0 {
		t.Errorf("a refused plan waits for saves")
	}
	_ = dir
}

func TestWatcherRecordsOutsideChanges(t *testing.T) {
	w, dir := openCopy(t, Options{})
	ctx := context.Background()
	if err := w.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	l := listen(t, w)
	wt, err := w.Watch(func(err error) { t.Errorf("watch: %v", err) })
	if err != nil {
		t.Fatal(err)
	}
	defer wt.Close()
	if err := os.MkdirAll(filepath.Join(dir, "lib/more"), 0o755); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond) // the new folder is watched
	if err := os.WriteFile(filepath.Join(dir, "lib/more/x.ts"), []byte("export const x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(10 * time.Second)
	for {
		for _, ev := range l.all() {
			if slices.Contains(ev.Files, "lib/more/x.ts") && ev.Point > 0 {
				return
			}
		}
		select {
		case <-l.got:
		case <-deadline:
			t.Fatalf("no event for the new file; got %+v", l.all())
		}
	}
}
