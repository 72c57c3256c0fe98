package tools

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/internal/projectgen"
	"github.com/tent-tools/tent-tools/runner"
)

// BenchmarkRunColdProcess measures `run` of a function that reads the test
// database as a new process does it, on a generated project of 1,000
// tables with its test database built and its index cached: a new
// workspace, one call, Close. From the app snapshot (a run needs the
// schema, not the index of the code) and from the index (no snapshot:
// what the first run after a change pays, the snapshot then kept), in one
// run, so their ratio holds on a busy machine; cpu-ns/op is the CPU time.
//
//	go test ./tools -run '^$' -bench RunColdProcess -benchtime 10x
func BenchmarkRunColdProcess(b *testing.B) {
	dir := b.TempDir()
	if err := projectgen.Write(dir, projectgen.Generate(projectgen.Options{Tables: 1000, Seed: 1})); err != nil {
		b.Fatal(err)
	}
	const in = `{"name":"listAccounts2","input":{"limit":10}}`
	once := func() {
		w, err := Open(dir, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := call(w, "run", in); err != nil {
			b.Fatal(err)
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
	once()                              // the index cached, the test database built
	time.Sleep(2100 * time.Millisecond) // stamps that prove something (outside the racy window)
	once()                              // the app kept
	snapshot := filepath.Join(dir, ".tent", runner.CacheDir, "app")
	for _, c := range []struct {
		name string
		prep func()
	}{
		{"snapshot", func() {}},
		{"index", func() {
			if err := os.Remove(snapshot); err != nil {
				b.Fatal(err)
			}
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			var cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				c.prep()
				b.StartTimer()
				start := cpuTime()
				once()
				cpu += cpuTime() - start
			}
			b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

// cpuTime is the CPU time (user and system) the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
