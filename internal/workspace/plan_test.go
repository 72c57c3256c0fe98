package workspace

import (
	"context"
	"fmt"
	"io/fs"
	"reflect"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/defchange"
	"github.com/tent-tools/tent-tools/definitions"
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
					if f.Lines == nil && f.Lang != definitions.LangJSON { // a read file has its lines
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
