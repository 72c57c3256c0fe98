package defchange_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/tent-tools/tent-tools/defchange"
	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/internal/projectgen"
	"github.com/tent-tools/tent-tools/rename"
)

// TestDiffOfRenamedStatements: the diff of a rename's files as a planned
// change reads them (definitions.File.RenamedStatements: the definitions
// no edit lies in as their statements alone) is the diff of their parse,
// for the hub table, an ordinary one and a column of a generated project.
func TestDiffOfRenamedStatements(t *testing.T) {
	ctx := context.Background()
	ix := definitions.FromFiles(ctx, projectgen.Generate(projectgen.Options{Tables: 60, Seed: 3}))
	for _, tc := range []struct{ target, to string }{{"accounts", "members"}, {"accounts2", "ledgers"}, {"accounts.email", "mail"}} {
		s, err := rename.Plan(ctx, ix, tc.target, tc.to)
		if err != nil {
			t.Fatalf("rename %s: %v", tc.target, err)
		}
		var before, parsed, derived []*definitions.File
		texts := map[string][]byte{}
		statements := 0
		for _, f := range s.Files {
			old := ix.File(f.Path)
			if old == nil || f.New || f.NewPath() != f.Path {
				continue
			}
			src, err := f.Result()
			if err != nil {
				t.Fatal(err)
			}
			texts[f.Path] = src
			edits := make([]definitions.TextEdit, len(f.Edits))
			for i, e := range f.Edits {
				edits[i] = definitions.TextEdit{Start: e.Start, End: e.End, Text: e.Text}
			}
			before = append(before, old)
			defs, ok := old.RenamedStatements(src, edits)
			if !ok {
				derived = append(derived, nil) // read as parsed (below), as a plan reads it
				continue
			}
			for _, d := range defs {
				if d.Arg == nil && d.Kind != definitions.KindProject && d.Kind != definitions.KindEngine {
					statements++
				}
			}
			derived = append(derived, &definitions.File{Path: old.Path, Lang: old.Lang, Src: src, Definitions: defs})
		}
		next := definitions.FromFiles(ctx, texts)
		for i, f := range before {
			parsed = append(parsed, next.File(f.Path))
			if derived[i] == nil {
				derived[i] = parsed[i]
			}
		}
		want := defchange.Diff(before, parsed, defchange.Renames(s.Renamed))
		got := defchange.Diff(before, derived, defchange.Renames(s.Renamed))
		if !reflect.DeepEqual(got, want) {
			t.Errorf("rename %s: the diff of the statements\n%+v\nthe diff of the parse\n%+v", tc.target, got, want)
		}
		if len(want) == 0 {
			t.Errorf("rename %s: no change", tc.target)
		}
		t.Logf("rename %s: %d files, %d changes, %d definitions as statements", tc.target, len(before), len(want), statements)
	}
}
