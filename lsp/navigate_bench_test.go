package lsp

import (
	"context"
	"os"
	"runtime/metrics"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/internal/servergc"
)

// BenchmarkHeldNavigate times references of the hub table, a hover,
// documentSymbol and the planned rename of the hub the way `tent-tools
// lsp` serves them: with its heap held (servergc.Collector.Hold), in the
// session of scripts/bench/lspbench (benchSession), after its warm-up
// round. Each op is one round of the four requests; each reports the
// median wall time (X-ms), the process's mean CPU over the request (X-cpu-ms,
// server and client, the collector's work included: what a held heap
// costs) and the collections that ran during it (X-gcs). The goal (issue
// 24): references, hover and documentSymbol at or under TypeScript 7's
// server at every size. TENT_BENCH_TABLES sets the size (5,000 by
// default), TENT_BENCH_DIR a project as it is; TENT_BENCH_CPUPROFILE=PREFIX
// writes the CPU profile of each round to PREFIX.N; TENT_BENCH_PAUSE (a
// duration) pauses before each request, as lspbench's peer's request
// makes the server wait (without it the requests come back to back).
// Run:
//
//	go test ./lsp -run XXX -bench HeldNavigate -benchtime 3x
func BenchmarkHeldNavigate(b *testing.B) {
	dir := benchProject(b, 5000)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	gc := servergc.Watch(ctx)
	s := openBenchSession(b, dir, Options{Indexed: gc.Hold})
	// The warm-up round, as lspbench's: every request once.
	s.edits()
	s.renameOrdinary()
	s.renameHub()
	s.rest()
	heap, rss := memoryNow(b, "warm")
	b.ReportMetric(heap, "warm-heap-MB")
	b.ReportMetric(rss, "warm-rss-MB")
	type timed struct {
		name  string
		do    func()
		walls []time.Duration
		cpu   time.Duration
		gcs   uint64
	}
	refs := s.at(hubFile, "export const accounts")
	refs["context"] = map[string]any{"includeDeclaration": true}
	steps := []*timed{
		{name: "refs", do: func() { s.c.must("textDocument/references", refs) }},
		{name: "hover", do: func() { s.c.must("textDocument/hover", s.at(benchOrdinary, "export const accounts2")) }},
		{name: "symbols", do: func() {
			s.c.must("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": s.c.uri(benchFns)}})
		}},
		{name: "hub", do: s.renameHub},
	}
	var pause time.Duration
	if p := os.Getenv("TENT_BENCH_PAUSE"); p != "" {
		var err error
		if pause, err = time.ParseDuration(p); err != nil {
			b.Fatalf("TENT_BENCH_PAUSE=%q: %v", p, err)
		}
	}
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		s.edits()
		s.renameOrdinary()
		stopProfile := startBenchProfile(b, strconv.Itoa(i))
		b.StartTimer()
		for _, t := range steps {
			b.StopTimer()
			time.Sleep(pause)
			b.StartTimer()
			cpu0, gc0, t0 := processCPU(b), collections(), time.Now()
			t.do()
			t.walls = append(t.walls, time.Since(t0))
			t.cpu += processCPU(b) - cpu0
			t.gcs += collections() - gc0
		}
		b.StopTimer()
		stopProfile()
		b.StartTimer()
	}
	b.StopTimer()
	for _, t := range steps {
		slices.Sort(t.walls)
		b.ReportMetric(float64(t.walls[len(t.walls)/2].Microseconds())/1000, t.name+"-ms")
		b.ReportMetric(float64(t.cpu.Microseconds())/1000/float64(b.N), t.name+"-cpu-ms")
		b.ReportMetric(float64(t.gcs)/float64(b.N), t.name+"-gcs")
	}
	heap, rss = memoryNow(b, "end")
	b.ReportMetric(heap, "end-heap-MB")
	b.ReportMetric(rss, "end-rss-MB")
}

// collections is how many collections the process has finished.
func collections() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
