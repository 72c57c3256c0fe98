package workspace

import (
	"context"
	"testing"
)

// TestVersion: every change told grows the version, an event carries the
// version after it, and a new process over the same folder starts at the
// history's newest point.
func TestVersion(t *testing.T) {
	ctx := context.Background()
	w, dir := openCopy(t)
	v0, err := w.Version(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []Event
	cancel := w.Subscribe(func(ev Event) { got = append(got, ev) })
	for _, text := range []string{"export const a = 1\n", "export const a = 2\n", "export const a = 3\n"} {
		if err := writeThrough(w, "lib/money.ts", text); err != nil {
			t.Fatal(err)
		}
	}
	cancel()
	if len(got) != 3 {
		t.Fatalf("%d events, want 3", len(got))
	}
	last := v0
	for _, ev := range got {
		if ev.Version <= last || ev.Version < ev.Point {
			t.Errorf("event %+v after version %d: want a version above it and at least its point", ev, last)
		}
		last = ev.Version
	}
	if v, _ := w.Version(ctx); v != last {
		t.Errorf("Version %d after the events told %d", v, last)
	}
	w2, err := New(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w2.Close()
	if v, err := w2.Version(ctx); err != nil || v < got[2].Point {
		t.Errorf("a new workspace's version %d (%v), want at least the newest point %d", v, err, got[2].Point)
	}
}
