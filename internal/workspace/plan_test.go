package workspace

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/defchange"
	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/history"
	"github.com/tent-tools/tent-tools/internal/projectgen"
	"github.com/tent-tools/tent-tools/rename"
)

// TestPlannedReadJudgesAsReread: a plan's read of its new texts
// (readPlanned, which derives the definitions of a rename's files rather
// than parsing them) gives the judgement exactly what the full read
// (reread) gives: the same definition changes, the same refusal of an
// unreadable result. Over renames of tables (the hub too), columns and
// functions of the sample project and a generated one.
func TestPlannedReadJudgesAsReread(t *testing.T) {
	ctx := context.Background()
	gen := t.TempDir()
	if err := projectgen.Write(gen, projectgen.Generate(projectgen.Options{Tables: 60, Seed: 3})); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		project string
		renames [][2]string
	}{
		{copyProject(t, shopDir), [][2]string{{"orders", "purchases"}, {"orders.buyer", "customer"}, {"users", "people"}, {"placeOrder", "submitOrder"}}},
		{gen, [][2]string{{"accounts", "members"}, {"accounts", "hubs"}, {"invoices", "bills"}, {"accounts.email", "contact"}}},
	} {
		w, err := New(tc.project, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		ix, err := w.Index(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range tc.renames {
			t.Run(fmt.Sprintf("%s to %s", r[0], r[1]), func(t *testing.T) {
				s, err := rename.Plan(ctx, ix, r[0], r[1])
				if err != nil {
					t.Fatal(err)
				}
				st := planStage(t, w, s)
				_, before, full := reread(ctx, ix, st, w.walkRules())
				pBefore, planned := readPlanned(ctx, ix, st, w.walkRules())
				derived := 0
				for _, f := range planned {
					// A read file with definitions has their builders'
					// imports; one derived keeps its definitions alone.
					if len(f.Definitions) > 0 && f.Imports == nil {
						derived++
					}
				}
				// A column's places are in its table's file (which gets
				// its was) and the test data: nothing to derive.
				if derived == 0 && !strings.Contains(r[0], ".") {
					t.Fatalf("no file of the rename's %d was derived", len(st.files))
				}
				want := defchange.Diff(before, full, st.renames)
				got := defchange.Diff(pBefore, planned, st.renames)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("the planned read's changes differ from the full read's:\n got %+v\nwant %+v", got, want)
				}
				if len(want) == 0 {
					t.Errorf("the rename changes no definition")
				}
				if a, b := checkReadable(st, before, full), checkReadable(st, pBefore, planned); fmt.Sprint(a) != fmt.Sprint(b) {
					t.Errorf("readable: planned %v, full %v", b, a)
				}
			})
		}
	}
}

// planStage stages a set on the texts it was planned on, as PlanChange
// does.
func planStage(t *testing.T, w *Workspace, s *change.Set) *Stage {
	t.Helper()
	st, err := w.stageFrom(s, func(rel string, f *change.FileEdit) ([]byte, fs.FileMode, error) {
		if f != nil {
			return f.Base, 0o644, nil
		}
		return w.Current(rel)
	})
	if err != nil {
		t.Fatal(err)
	}
	st.dropUnchanged()
	st.readAhead = s.ReadAhead
	return st
}

// TestNewerPlanSupersedesOlder: the same rename planned again (an
// editor's preview cancelled, then asked anew) leaves one plan waiting,
// and the saves of that plan are still its one command point; a plan made
// on an older plan's new texts (the first rename applied, then another)
// waits beside it.
func TestNewerPlanSupersedesOlder(t *testing.T) {
	ctx := context.Background()
	w, dir := openCopy(t)
	if err := w.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	ix, err := w.Index(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var plan *Plan
	for range 3 {
		s, err := rename.Plan(ctx, ix, "orders.buyer", "customer")
		if err != nil {
			t.Fatal(err)
		}
		if plan, err = w.PlanChange(ctx, ix, s); err != nil {
			t.Fatal(err)
		}
	}
	if n := w.Waiting(); n != 1 {
		t.Fatalf("%d plans wait after the same rename planned three times; want 1", n)
	}
	// The buffers hold the plan's texts: a rename planned on them waits
	// beside it.
	var applied []definitions.FileChange
	for _, f := range plan.Files {
		applied = append(applied, definitions.FileChange{Path: f.Path, Src: f.Text})
	}
	ix2 := ix.UpdateFiles(ctx, applied)
	s2, err := rename.Plan(ctx, ix2, "orders.total", "amount")
	if err != nil {
		t.Fatal(err)
	}
	plan2, err := w.PlanChange(ctx, ix2, s2)
	if err != nil {
		t.Fatal(err)
	}
	if n := w.Waiting(); n != 2 {
		t.Fatalf("%d plans wait after a second rename planned on the first's texts; want 2", n)
	}
	hs, err := w.HistoryStore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	last, err := hs.Last(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range plan.Files {
		if err := os.WriteFile(filepath.Join(dir, f.Path), f.Text, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	points, err := hs.Range(ctx, last, last+100)
	if err != nil {
		t.Fatal(err)
	}
	if len(points) != 1 || points[0].Kind != history.KindCommand || points[0].Summary != plan.Summary {
		t.Fatalf("the saves of the newest plan: want its one command point; got %+v", points)
	}
	if n := w.Waiting(); n != 1 || len(plan2.Files) == 0 {
		t.Fatalf("%d plans wait after the first was saved; want the second", n)
	}
}

// TestWaitingPlansBounded: the plans waiting keep at most maxExpectBytes
// of texts; beyond it the oldest leave, and the newest always waits.
func TestWaitingPlansBounded(t *testing.T) {
	var x expects
	big := maxExpectBytes/2 + 1
	for i := range 4 {
		x.add(&expectation{base: map[string]string{fmt.Sprintf("f%d.ts", i): "h"}, bytes: big})
	}
	if len(x.waiting) != 1 || x.bytes != big {
		t.Fatalf("%d plans of %d bytes wait; want the newest alone", len(x.waiting), x.bytes)
	}
	x.add(&expectation{base: map[string]string{"g.ts": "h"}, bytes: 2 * maxExpectBytes})
	if len(x.waiting) != 1 || x.waiting[0].bytes != 2*maxExpectBytes {
		t.Fatalf("a plan larger than the bound: %d plans wait; want it alone", len(x.waiting))
	}
}

// TestPlanLeavesWhenTheHistoryHoldsItsTexts: a waiting plan whose files
// the history learns hold its planned texts already (the same change
// committed by a tool) leaves at the next look, though that look finds
// nothing changed on the disk: a look judges the paths the history's
// state changed since the plan last looked, not only those it found
// changed (claimExpected).
func TestPlanLeavesWhenTheHistoryHoldsItsTexts(t *testing.T) {
	ctx := context.Background()
	w, _ := openCopy(t)
	if err := w.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	ix, err := w.Index(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s, err := rename.Plan(ctx, ix, "orders.buyer", "customer")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.PlanChange(ctx, ix, s); err != nil {
		t.Fatal(err)
	}
	for range 2 { // looks that find nothing changed: the plan waits
		if err := w.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		if n := w.Waiting(); n != 1 {
			t.Fatalf("%d plans wait after a look that found nothing; want 1", n)
		}
	}
	view, release, err := w.Enter(ctx, "rename", true)
	if err != nil {
		t.Fatal(err)
	}
	_, err = view.Apply(ctx, ix, s)
	release()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if n := w.Waiting(); n != 0 {
		t.Fatalf("%d plans wait after the history learned their texts from a commit; want 0", n)
	}
}

// TestStateChangedSince: the state cache tells the paths changed between
// two versions while its log holds every change between them, and says
// it cannot where a change fell out of the log (too many changes, too
// many paths, one change larger than the bound) or the versions are
// not its own.
func TestStateChangedSince(t *testing.T) {
	put := func(paths ...string) history.StateChange {
		var c history.StateChange
		for _, p := range paths {
			c.Put = append(c.Put, history.FileState{Path: p})
		}
		return c
	}
	many := func(n int) history.StateChange {
		var c history.StateChange
		for i := range n {
			c.Put = append(c.Put, history.FileState{Path: fmt.Sprintf("f%d.ts", i)})
		}
		return c
	}
	type ask struct {
		from, to int64
		want     []string // nil with ok false
		ok       bool
	}
	tests := []struct {
		name  string
		steps []history.StateChange // versions 2, 3, ... after the start at 1
		asks  []ask
	}{
		{"a few changes", []history.StateChange{put("a.ts"), put("b.ts", "c.ts"), {Delete: []string{"a.ts"}}}, []ask{
			{1, 4, []string{"a.ts", "b.ts", "c.ts", "a.ts"}, true},
			{2, 4, []string{"b.ts", "c.ts", "a.ts"}, true},
			{4, 4, nil, true},
			{0, 4, nil, false}, // never judged
			{1, 3, nil, false}, // not the cache's version
			{5, 4, nil, false},
		}},
		{"more changes than the log keeps", func() []history.StateChange {
			var s []history.StateChange
			for range maxStateLog + 1 {
				s = append(s, put("a.ts"))
			}
			return s
		}(), []ask{
			{1, maxStateLog + 2, nil, false},
			{2, maxStateLog + 2, func() []string {
				var w []string
				for range maxStateLog {
					w = append(w, "a.ts")
				}
				return w
			}(), true},
		}},
		{"more paths than the log keeps", []history.StateChange{many(maxStateLogPaths - 1), put("a.ts", "b.ts")}, []ask{
			{1, 3, nil, false},
			{2, 3, []string{"a.ts", "b.ts"}, true},
		}},
		{"one change larger than the bound", []history.StateChange{put("a.ts"), many(maxStateLogPaths + 1), put("b.ts")}, []ask{
			{1, 4, nil, false},
			{2, 4, nil, false},
			{3, 4, []string{"b.ts"}, true},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &stateCache{files: map[string]history.FileState{}, version: 1}
			for i, s := range tt.steps {
				c.fold(int64(i+2), s)
			}
			for _, a := range tt.asks {
				got, ok := c.changedSince(a.from, a.to)
				if ok != a.ok || !reflect.DeepEqual(got, a.want) {
					t.Errorf("changedSince(%d, %d) = %v %v; want %v %v", a.from, a.to, got, ok, a.want, a.ok)
				}
			}
		})
	}
}
