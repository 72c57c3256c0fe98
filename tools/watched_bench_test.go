package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/internal/projectgen"
	"github.com/tent-tools/tent-tools/rename"
)

// benchTables is the size of the generated project of the watched
// benchmarks: TENT_BENCH_TABLES, else 1,000.
func benchTables(b *testing.B) int {
	if s := os.Getenv("TENT_BENCH_TABLES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			b.Fatalf("TENT_BENCH_TABLES=%q: give a number of tables", s)
		}
		return n
	}
	return 1000
}

// benchProject writes the generated project of tables tables and
// returns its folder, its files older than the racy window (as a
// project's files are, but for the few just edited), change times too.
func benchProject(b *testing.B, tables int) string {
	b.Helper()
	dir := b.TempDir()
	if err := projectgen.Write(dir, projectgen.Generate(projectgen.Options{Tables: tables, Seed: 1})); err != nil {
		b.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			os.Chtimes(p, old, old)
		}
		return nil
	})
	// A change time within the racy window proves nothing: every look
	// would read the file again (definitions.Stamp.Racy).
	time.Sleep(2100 * time.Millisecond)
	return dir
}

// openWarm opens the project as a language server that has run before
// does: its index read from .tent/index, which an earlier process wrote
// (so that no save of it runs in the background while the loop is timed).
func openWarm(b *testing.B, dir string) *Workspace {
	b.Helper()
	w, err := Open(dir, Options{})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := w.Index(context.Background()); err != nil {
		b.Fatal(err)
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	if w, err = Open(dir, Options{}); err != nil {
		b.Fatal(err)
	}
	return w
}

// BenchmarkWatchedRenamePlan is the workspace's part of a language
// server's rename of an ordinary table in client mode, on a watched
// folder with nothing changed outside: the index now, the plan, the look
// for changes made before it (Refresh) and the plan judged (PlanChange),
// as lsp's rename does (issue 24's targets for the whole request: 3 ms at
// 1,000 tables, 10 ms at 10,000; TENT_BENCH_TABLES sets the size).
//
//	go test ./tools -run '^$' -bench WatchedRenamePlan -benchtime 50x
func BenchmarkWatchedRenamePlan(b *testing.B) {
	w := openWarm(b, benchProject(b, benchTables(b)))
	defer w.Close()
	wt, err := w.Watch(func(err error) { b.Errorf("watch: %v", err) })
	if err != nil {
		b.Fatal(err)
	}
	defer wt.Close()
	ctx := context.Background()
	if err := w.Refresh(ctx); err != nil {
		b.Fatal(err)
	}
	request := func() {
		ix, err := w.Index(ctx)
		if err != nil {
			b.Fatal(err)
		}
		set, err := rename.Plan(ctx, ix, "invoices2", "bills2")
		if err != nil {
			b.Fatal(err)
		}
		if err := w.Refresh(ctx); err != nil {
			b.Fatal(err)
		}
		if _, err := w.PlanChange(ctx, ix, set); err != nil {
			b.Fatal(err)
		}
	}
	request() // warm: the index's views, the history's state read
	runtime.GC()
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		request()
	}
}

// reportCPU reports the process's CPU time per op (user and system, every
// goroutine: the watcher's too) when the returned func is called after
// the loop: on a loaded machine the time per op is mostly waiting.
func reportCPU(b *testing.B) func() {
	var start syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &start)
	return func() {
		var end syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &end)
		cpu := time.Duration(end.Utime.Nano() + end.Stime.Nano() - start.Utime.Nano() - start.Stime.Nano())
		if b.N > 0 {
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
		}
	}
}

// BenchmarkWatchedMap is a warm map call through tools.Call on a watched
// folder, nothing changed (the MCP face's target: 10 ms at 1,000 tables,
// mcp's BenchmarkMapBig over stdio).
//
//	go test ./tools -run '^$' -bench WatchedMap -benchtime 100x
func BenchmarkWatchedMap(b *testing.B) {
	w := openWarm(b, benchProject(b, benchTables(b)))
	defer w.Close()
	wt, err := w.Watch(func(err error) { b.Errorf("watch: %v", err) })
	if err != nil {
		b.Fatal(err)
	}
	defer wt.Close()
	ctx := context.Background()
	if _, err := Call(ctx, w, "map", json.RawMessage(`{}`)); err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	defer reportCPU(b)()
	for b.Loop() {
		if _, err := Call(ctx, w, "map", json.RawMessage(`{}`)); err != nil {
			b.Fatal(err)
		}
	}
}
