package check

import (
	"context"
	"testing"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/internal/projectgen"
)

// BenchmarkRun times the check alone (the index built once, outside the
// timing) on the generated 1,000-table project.
//
//	go test ./check -run XXX -bench Run -benchtime 10x
func BenchmarkRun(b *testing.B) {
	files := projectgen.Generate(projectgen.Options{Tables: 1000, Seed: 1})
	ix := definitions.FromFiles(context.Background(), files)
	b.ResetTimer()
	for b.Loop() {
		fs := Run(context.Background(), ix, Options{})
		if len(fs) != 0 {
			b.Fatalf("the generated project has %d findings, first %s", len(fs), fs[0])
		}
	}
}

// BenchmarkBuildAndRun times what `tent-tools check` does but start the
// process: index the 1,000-table project from the disk, then check it.
func BenchmarkBuildAndRun(b *testing.B) {
	dir := b.TempDir()
	if err := projectgen.Write(dir, projectgen.Generate(projectgen.Options{Tables: 1000, Seed: 1})); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		ix, err := definitions.Build(context.Background(), dir)
		if err != nil {
			b.Fatal(err)
		}
		Run(context.Background(), ix, Options{})
	}
}

// BenchmarkIndexAndRun times what `tent-tools check` does in memory: build
// the index of the 1,000-table project from its files, then check it.
func BenchmarkIndexAndRun(b *testing.B) {
	files := projectgen.Generate(projectgen.Options{Tables: 1000, Seed: 1})
	b.ResetTimer()
	for b.Loop() {
		ix := definitions.FromFiles(context.Background(), files)
		Run(context.Background(), ix, Options{})
	}
}
