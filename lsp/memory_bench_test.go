package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/internal/servergc"
)

// BenchmarkSessionMemory measures the server's memory over the session of
// scripts/bench/lspbench, in this process, on the generated 5,000-table
// project (issue 24's goal: at most half of TypeScript 7's server, after
// the open and at the end): the open of three documents to their first
// diagnostics, then rounds of didChange edits of a function's body and of
// a table (each in and out again), planned renames of an ordinary table
// and of the hub (never saved), references of the hub, hover and
// documentSymbol. It reports the live Go heap after a collection and the
// process's resident set (Go's heap, tree-sitter's C memory, the
// client's share of the test) at both points, the resident set after an
// editor's pause (servergc's watcher gives the free memory back), the
// open's time and the CPU of the process over the session and of a
// planned rename of the hub (what a tighter collector would cost).
// -test.v logs what of the resident set is Go's (TENT_BENCH_CLASSES=1: each
// of the runtime's memory classes); TENT_BENCH_HEAPPROFILE
// writes the heap profiles; TENT_BENCH_TABLES sets another size, and
// TENT_BENCH_DIR a project of lspbench's (its .tent/index as it is: an
// editor opening a project it opened before). Run:
//
//	go test ./lsp -run XXX -bench SessionMemory -benchtime 1x
func BenchmarkSessionMemory(b *testing.B) {
	dir := benchProject(b, 5000)
	// The memory watcher of `tent-tools lsp` (GOGC or GOMEMLIMIT in the
	// environment: none).
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	gc := servergc.Watch(ctx)
	for range b.N {
		t0 := time.Now()
		s := openBenchSession(b, dir, Options{Indexed: gc.Hold})
		opened := time.Since(t0)
		openHeap, openRSS := memoryNow(b, "open")
		var hubCPU, sessionCPU time.Duration
		var hubAllocs uint64
		session := processCPU(b)
		for range 3 { // the warm-up and two rounds, as lsp.sh's ROUNDS=2
			s.edits()
			s.renameOrdinary()
			cpu, allocs := processCPU(b), allocated()
			s.renameHub()
			hubCPU += processCPU(b) - cpu
			hubAllocs += allocated() - allocs
			s.rest()
		}
		sessionCPU = processCPU(b) - session
		endHeap, endRSS := memoryNow(b, "end")
		// An editor's pause: the watcher gives the free memory back.
		time.Sleep(servergc.IdleAfter + 2*time.Second)
		idleRSS := residentMB(b)
		b.Logf("idle: resident %.0f MB", idleRSS)
		b.ReportMetric(float64(opened.Milliseconds()), "open-ms")
		// CPU of the process (server and client): the collector's share
		// of a session is what a tighter heap costs.
		b.ReportMetric(float64(hubCPU.Milliseconds())/3, "hub-rename-cpu-ms")
		b.ReportMetric(float64(sessionCPU.Milliseconds()), "session-cpu-ms")
		b.ReportMetric(float64(hubAllocs)/3/(1<<20), "hub-rename-alloc-MB")
		b.ReportMetric(openHeap, "open-heap-MB")
		b.ReportMetric(openRSS, "open-rss-MB")
		b.ReportMetric(endHeap, "end-heap-MB")
		b.ReportMetric(endRSS, "end-rss-MB")
		b.ReportMetric(idleRSS, "idle-rss-MB")
	}
}

// allocated is how many bytes the process has allocated so far.
func allocated() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// firstDiagnostics waits for the diagnostics of rel's first version: the
// open of a large project on a busy machine may take longer than
// waitFor's 30 s.
func firstDiagnostics(b *testing.B, c *client, rel string) {
	b.Helper()
	deadline := time.After(5 * time.Minute)
	for from := 0; ; {
		c.mu.Lock()
		n := len(c.notes)
		for _, m := range c.notes[from:n] {
			var p published
			if m.Method == "textDocument/publishDiagnostics" && json.Unmarshal(m.Params, &p) == nil &&
				p.URI == c.uri(rel) && p.Version != nil && *p.Version == 1 {
				c.mu.Unlock()
				return
			}
		}
		c.mu.Unlock()
		from = n
		select {
		case <-c.changed:
		case <-deadline:
			b.Fatalf("no first diagnostics of %s in 5 minutes", rel)
		}
	}
}

// memoryNow answers the live Go heap (after a collection: what the
// process keeps) and the resident set, both in MB, before the collection
// (what an observer of the process sees). It logs what of the resident
// set is Go's (the heap's objects, its free pages not yet given back,
// the rest the runtime keeps) and what is not (tree-sitter's C memory,
// the binary), and where TENT_BENCH_HEAPPROFILE names a file prefix it
// writes the heap profile at point ("prefix.open.pb.gz").
func memoryNow(b *testing.B, point string) (heap, rss float64) {
	b.Helper()
	rss = residentMB(b)
	s := []metrics.Sample{
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/memory/classes/heap/free:bytes"},
		{Name: "/gc/heap/live:bytes"},
	}
	metrics.Read(s)
	mb := func(i int) float64 { return float64(s[i].Value.Uint64()) / (1 << 20) }
	goRes := mb(0) - mb(1)
	runtime.GC()
	metrics.Read(s)
	cpu := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}, {Name: "/cpu/classes/gc/mark/assist:cpu-seconds"},
		{Name: "/cpu/classes/gc/mark/dedicated:cpu-seconds"}, {Name: "/cpu/classes/gc/mark/idle:cpu-seconds"}, {Name: "/cpu/classes/user:cpu-seconds"}}
	metrics.Read(cpu)
	b.Logf("%s: %d collections; CPU s: GC assist %.2f, dedicated %.2f, idle %.2f; user %.2f", point, cpu[0].Value.Uint64(),
		cpu[1].Value.Float64(), cpu[2].Value.Float64(), cpu[3].Value.Float64(), cpu[4].Value.Float64())
	b.Logf("%s: resident %.0f MB: Go %.0f MB (heap objects %.0f, free %.0f; live after a collection %.0f), the rest %.0f MB",
		point, rss, goRes, mb(2), mb(3), mb(4), rss-goRes)
	if os.Getenv("TENT_BENCH_CLASSES") != "" {
		for _, d := range metrics.All() {
			if strings.HasPrefix(d.Name, "/memory/classes/") {
				x := []metrics.Sample{{Name: d.Name}}
				metrics.Read(x)
				b.Logf("  %s %.1f MB", d.Name, float64(x[0].Value.Uint64())/(1<<20))
			}
		}
	}
	if prefix := os.Getenv("TENT_BENCH_HEAPPROFILE"); prefix != "" {
		f, err := os.Create(prefix + "." + point + ".pb.gz")
		if err != nil {
			b.Fatal(err)
		}
		if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
	return mb(4), rss
}

// residentMB is this process's resident set in MB (Linux's /proc).
func residentMB(b *testing.B) float64 {
	b.Helper()
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Skipf("no resident set: %v", err)
	}
	for line := range bytes.Lines(status) {
		if v, ok := bytes.CutPrefix(line, []byte("VmRSS:")); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(string(v)), " kB"), 64)
			if err != nil {
				b.Fatalf("VmRSS %q: %v", v, err)
			}
			return kb / 1024
		}
	}
	b.Skip("no VmRSS in /proc/self/status")
	return 0
}
