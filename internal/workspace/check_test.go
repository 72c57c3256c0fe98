package workspace

import (
	"context"
	"reflect"
	"testing"

	"github.com/tent-tools/tent-tools/check"
)

// TestCheckIndexKeepsAChecker: a folder's first check runs once, as a
// one-shot command's does, and keeps nothing; from the second on it keeps
// one incremental check, shared by the folder's views, whose answers are
// the full check's.
func TestCheckIndexKeepsAChecker(t *testing.T) {
	ctx := context.Background()
	w, _ := openCopy(t)
	ix, err := w.Index(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := check.Run(ctx, ix, check.Options{})
	view := w.With(Options{Caller: "another"})
	for i, on := range []*Workspace{w, view, w} {
		got := on.CheckIndex(ctx, ix, check.Options{})
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("check %d answers\n%v\nwant\n%v", i+1, got, want)
		}
		if keeps := w.checker != nil; keeps != (i > 0) {
			t.Errorf("after check %d the folder keeps a checker: %v", i+1, keeps)
		}
	}
}

// TestKeepChecks: after KeepChecks the folder's first check goes through
// its checker too.
func TestKeepChecks(t *testing.T) {
	ctx := context.Background()
	w, _ := openCopy(t)
	ix, err := w.Index(ctx)
	if err != nil {
		t.Fatal(err)
	}
	w.KeepChecks()
	c := w.checker
	if c == nil {
		t.Fatal("KeepChecks kept no checker")
	}
	if got, want := w.CheckIndex(ctx, ix, check.Options{}), check.Run(ctx, ix, check.Options{}); !reflect.DeepEqual(got, want) {
		t.Fatalf("the first check answers\n%v\nwant\n%v", got, want)
	}
	if w.checker != c {
		t.Error("the first check made another checker")
	}
}
