package check

import (
	"context"
	"fmt"
	"strings"
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

// BenchmarkTestDataRows times the check of one table's test data of many
// rows, one row a line and all rows on one line: linear in the rows (the
// 100,000-row cases take about ten times the 10,000-row ones, about a
// second or less).
//
//	go test ./check -run XXX -bench TestDataRows -benchtime 3x
func BenchmarkTestDataRows(b *testing.B) {
	for _, rows := range []int{10_000, 100_000} {
		for _, layout := range []string{"lines", "one-line"} {
			b.Run(fmt.Sprintf("%s/%d", layout, rows), func(b *testing.B) {
				var data strings.Builder
				data.WriteString("[")
				for i := range rows {
					if i > 0 {
						data.WriteString(",")
					}
					if layout == "lines" {
						data.WriteString("\n  ")
					}
					fmt.Fprintf(&data, `{"id": "r%d", "name": "row %d", "parent": "r%d"}`, i, i, i/2)
				}
				data.WriteString("]\n")
				files := map[string][]byte{
					"project.ts":          []byte("export default project({ name: 'rows' })\n"),
					"tables/items.ts":     []byte("import { table, text, ref } from 'tent'\n\nexport const items = table({\n  columns: {\n    name: text(),\n    parent: ref('items', { optional: true }),\n  },\n})\n"),
					"testdata/items.json": []byte(data.String()),
				}
				ix := definitions.FromFiles(context.Background(), files)
				b.ResetTimer()
				for b.Loop() {
					if fs := Run(context.Background(), ix, Options{}); len(fs) != 0 {
						b.Fatalf("%d findings, first %s", len(fs), fs[0])
					}
				}
			})
		}
	}
}
