package defchange_test

import (
	"context"
	"testing"

	"github.com/tent-tools/tent-tools/defchange"
	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/internal/projectgen"
	"github.com/tent-tools/tent-tools/rename"
)

// BenchmarkDiffHub diffs the definitions of the 479 files that the rename
// of the hub table of the generated 1,000-table project changes (accounts
// to clients), as the change pipeline does before the policy judges it.
//
//	go test ./defchange -run '^$' -bench DiffHub -benchtime 20x
func BenchmarkDiffHub(b *testing.B) {
	ctx := context.Background()
	ix := definitions.FromFiles(ctx, projectgen.Generate(projectgen.Options{Tables: 1000, Seed: 1}))
	s, err := rename.Plan(context.Background(), ix, "accounts", "clients")
	if err != nil {
		b.Fatal(err)
	}
	var changes []definitions.FileChange
	for _, f := range s.Files {
		text, err := f.Result()
		if err != nil {
			b.Fatal(err)
		}
		if f.NewPath() != f.Path {
			changes = append(changes, definitions.FileChange{Path: f.Path, Gone: true})
		}
		changes = append(changes, definitions.FileChange{Path: f.NewPath(), Src: text})
	}
	next := ix.UpdateFiles(ctx, changes)
	var before, after []*definitions.File
	for _, f := range s.Files {
		if bf := ix.File(f.Path); bf != nil {
			before = append(before, bf)
		}
		if af := next.File(f.NewPath()); af != nil {
			after = append(after, af)
		}
	}
	var changed []defchange.DefChange
	for b.Loop() {
		changed = defchange.Diff(before, after, defchange.Renames(s.Renamed))
	}
	b.ReportMetric(float64(len(before)), "files")
	b.ReportMetric(float64(len(changed)), "changes")
}
