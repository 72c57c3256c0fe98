package check

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
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

// BenchmarkIncremental is the long-lived workspace's one-file change on
// generated projects of 1,000, 5,000 and 10,000 tables: Update re-reading
// the file ("index"), then the Checker making the findings again
// ("findings", Update included), each edit made and taken back in turn;
// "full" is a full Run of the same snapshots, for the ratio. The edits: a
// character in the hub table's comment (what an editor sends per
// keystroke), a column added to the hub table (about half the tables refer
// to it; the files that read its columns are checked again), a column
// added to an ordinary table, and a line in a function's body. Compare
// cpu-ms/op within one run; pick a size and a step, the larger projects
// take seconds to set up:
//
//	go test ./check -run XXX -bench 'Incremental/tables=5000/.*/findings' -benchtime 50x
func BenchmarkIncremental(b *testing.B) {
	edits := []struct{ name, path, find, replace string }{
		{"hub-comment", "tables/accounts.ts", "// Accounts", "// Accountsx"},
		{"hub-column", "tables/accounts.ts", "columns: {", "columns: {\n    benchNote: text({ optional: true }),"},
		{"table-column", "tables/accounts18.ts", "columns: {", "columns: {\n    benchNote: text({ optional: true }),"},
		{"function-body", "functions/accounts18.ts", "ctx.log('added account18'", "ctx.log('added one account18'"},
	}
	for _, tables := range []int{1000, 5000, 10000} {
		b.Run(fmt.Sprintf("tables=%d", tables), func(b *testing.B) {
			// Made on first use, then shared by the edits: each edit is
			// taken back, so every edit starts from the same project.
			var (
				ctx   = context.Background()
				files map[string][]byte
				ix    *definitions.Index
				c     *Checker
			)
			setup := func(b *testing.B) {
				if ix != nil {
					return
				}
				b.StopTimer()
				files = projectgen.Generate(projectgen.Options{Tables: tables, Seed: 1})
				ix = definitions.FromFiles(ctx, files)
				c = NewChecker()
				if fs := c.Run(ctx, ix, Options{}); len(fs) != 0 {
					b.Fatalf("the generated project has %d findings, first %s", len(fs), fs[0])
				}
				b.StartTimer()
			}
			for _, e := range edits {
				for _, step := range []string{"index", "findings", "full"} {
					b.Run(e.name+"/"+step, func(b *testing.B) {
						setup(b)
						src := files[e.path]
						if !bytes.Contains(src, []byte(e.find)) {
							b.Fatalf("%s: the generated project has no %q in %s", e.name, e.find, e.path)
						}
						versions := [2][]byte{bytes.Replace(src, []byte(e.find), []byte(e.replace), 1), src}
						// One round first: the lineage's joins and the
						// checker's digests are warm, as in a session.
						for i := range 2 {
							ix = ix.Update(e.path, versions[i%2])
							c.Run(ctx, ix, Options{})
						}
						runtime.GC()
						cpu := cpuTime()
						i := 0
						for b.Loop() {
							ix = ix.Update(e.path, versions[i%2])
							i++
							var fs []diag.Finding
							switch step {
							case "findings":
								fs = c.Run(ctx, ix, Options{})
							case "full":
								fs = Run(ctx, ix, Options{})
							}
							if len(fs) != 0 {
								b.Fatalf("%d findings, first %s", len(fs), fs[0])
							}
						}
						spent := cpuTime() - cpu
						remade := c.remade
						if i%2 == 1 { // the edit is in: take it back
							ix = ix.Update(e.path, versions[1])
						}
						if step != "findings" {
							// Keep the checker in step with the
							// snapshot for the next edit.
							c.Run(ctx, ix, Options{})
						}
						b.ReportMetric(float64(spent)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
						if step == "findings" {
							b.ReportMetric(float64(remade), "files-remade")
						}
					})
				}
			}
		})
	}
}

// cpuTime is the CPU time the process has used, all threads: on a busy
// machine it says more about the code than the wall time does.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkColdRun times the check as a one-shot `check` with no .tent/
// runs it: on a fresh index, whose joins the rules ask for are made in
// the run. The index is built once as the workspace builds it for a
// check (Lazy, no trees, cache records) and saved; each run checks a new
// index loaded from that cache (a build of 10,000 tables would take ten
// times the check). Only the check's CPU is counted (all threads):
// cpu-ms/op on average and, since other processes' load moves it,
// cpu-ms-min, the least of the runs.
//
//	go test ./check -run XXX -bench ColdRun/tables=1000$ -benchtime 10x
func BenchmarkColdRun(b *testing.B) {
	for _, tables := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("tables=%d", tables), func(b *testing.B) {
			dir := b.TempDir()
			if err := projectgen.Write(dir, projectgen.Generate(projectgen.Options{Tables: tables, Seed: 1})); err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			built, err := definitions.BuildWith(ctx, dir, definitions.Options{DropTrees: true, CacheRecords: true, Lazy: true})
			if err != nil {
				b.Fatal(err)
			}
			stamps := map[string]definitions.Stamp{}
			for _, f := range built.SortedFiles() {
				stamps[f.Path] = definitions.Stamp{Size: int64(len(f.Src))}
			}
			var cache bytes.Buffer
			if err := definitions.SaveCache(&cache, built, stamps); err != nil {
				b.Fatal(err)
			}
			built = nil
			var spent, least time.Duration
			for b.Loop() {
				b.StopTimer()
				ix, _, err := definitions.LoadCache(ctx, cache.Bytes())
				if err != nil {
					b.Fatal(err)
				}
				runtime.GC()
				b.StartTimer()
				cpu := cpuTime()
				if fs := Run(ctx, ix, Options{}); len(fs) != 0 {
					b.Fatalf("the generated project has %d findings, first %s", len(fs), fs[0])
				}
				run := cpuTime() - cpu
				spent += run
				if least == 0 || run < least {
					least = run
				}
			}
			b.ReportMetric(float64(spent)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(least)/float64(time.Millisecond), "cpu-ms-min")
		})
	}
}
