package projectgen

import (
	"context"
	"testing"

	"github.com/tent-tools/tent-tools/definitions"
)

// TestIndexed reads a generated project with the project's own index: no
// file finding (T1xxx, T2010), every planned definition found, and the hub
// named from about half as many places as there are tables, which the
// rename benchmark relies on.
func TestIndexed(t *testing.T) {
	const tables = 400
	ix := definitions.FromFiles(context.Background(), Generate(Options{Tables: tables, Seed: 1}))
	for _, f := range ix.Findings() {
		t.Errorf("%s:%d: %s %s", f.Path, f.Line, f.Code, f.Message)
	}
	for _, s := range plan(tables, 1) {
		d := ix.Definition(s.name)
		if d == nil || d.Kind != definitions.KindTable || len(d.Table.Columns) != len(s.cols) {
			t.Errorf("table %s not indexed as planned", s.name)
		}
		if ix.Definition(createName(s)) == nil || ix.Definition(listName(s)) == nil {
			t.Errorf("functions of %s not indexed", s.name)
		}
	}
	places := len(ix.Places(hub))
	t.Logf("%s: %d places", hub, places)
	if lo, hi := tables*2/5, tables*3/5; places < lo || places > hi {
		t.Errorf("%s has %d places, want %d..%d", hub, places, lo, hi)
	}
}
