package runner

import (
	"context"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the CPU time (user and system) the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkWarmRun is a warm run, in a worker (as every run is) and in
// process (as runs were before workers): bundles cached, database open and
// migrated, a fresh JavaScript runtime per run, one transaction, one log
// entry. Besides the wall time per run it reports the CPU time per run of
// this process (cpu-ns/op; a worker's own is not in it), which a busy
// machine inflates less.
func BenchmarkWarmRun(b *testing.B) {
	for _, tc := range []struct {
		where     string
		inProcess bool
	}{{"worker", false}, {"in-process", true}} {
		for _, name := range []string{"whoami", "listProducts"} {
			b.Run(tc.where+"/"+name, func(b *testing.B) { benchWarmRun(b, name, tc.inProcess) })
		}
	}
}

func benchWarmRun(b *testing.B, name string, inProcess bool) {
	root := shopWithProbe(b)
	ix := index(b, root)
	r := newRunner(b, root, Config{InProcess: inProcess})
	ctx := context.Background()
	req := Request{Name: name, As: "u3"}
	if _, err := r.Run(ctx, ix, req); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	cpu := cpuTime()
	for b.Loop() {
		if _, err := r.Run(ctx, ix, req); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
}

// BenchmarkWorkerStart is what a killed worker costs: the start of a new
// worker process up to its ready (its limits set), which the pool makes
// in the background after a death.
func BenchmarkWorkerStart(b *testing.B) {
	root := shopWithProbe(b)
	r := newRunner(b, root, Config{})
	p := r.workers()
	for b.Loop() {
		w, err := p.start()
		if err != nil {
			b.Fatal(err)
		}
		w.kill()
	}
}

// BenchmarkRunAfterKill is a run right after one that ended its worker
// (a stack overflow): the run and the worker's death, and the next run on
// the worker started in the background.
func BenchmarkRunAfterKill(b *testing.B) {
	root := project(b, "run-hostile")
	ix := index(b, root)
	r := newRunner(b, root, Config{})
	ctx := context.Background()
	sum := Request{Name: "sum", Input: []byte(`{"a":1,"b":2}`)}
	if _, err := r.Run(ctx, ix, sum); err != nil {
		b.Fatal(err)
	}
	starts := r.workers().starts.Load()
	for b.Loop() {
		if _, err := r.Run(ctx, ix, Request{Name: "shiftHuge"}); err == nil {
			b.Fatal("shiftHuge ended well")
		}
		if _, err := r.Run(ctx, ix, sum); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(r.workers().starts.Load()-starts)/float64(b.N), "starts/op")
}
