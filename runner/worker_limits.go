package runner

import (
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"time"

	"golang.org/x/sys/unix"
)

// The operating system's limits of a worker (docs/pages/run.md,
// "Isolation"), set by the worker itself before it reads any app code.

// workerMaxStack bounds a goroutine's stack in a worker: a parser that
// recurses once per bracket of a hostile source ends the worker at 64 MB
// (a stack overflow, T4013) instead of growing to Go's 1 GB.
const workerMaxStack = 64 << 20

// workerCPUBudget is the CPU time a worker may use over its life (the hard
// RLIMIT_CPU: the kernel kills it there); the host retires a worker that
// used half of it.
const workerCPUBudget = 10 * time.Minute

// cpuLimitLine is what a worker writes to its standard error when it
// passes a run's CPU time: the host reads it as T4004.
const cpuLimitLine = "tent-tools worker: the run passed its CPU time limit"

// setWorkerLimits sets the limits of a worker: no core dump, its CPU time
// (a run's share is set by setCPULimit), its address space where the
// platform has the limit (setAddressSpace), the stack of a goroutine, and
// a soft memory limit for the collector. It answers the names of those set.
func setWorkerLimits(cfg wireConfig) ([]string, error) {
	var set []string
	if err := unix.Setrlimit(unix.RLIMIT_CORE, &unix.Rlimit{}); err != nil {
		return nil, fmt.Errorf("RLIMIT_CORE: %w", err)
	}
	set = append(set, "RLIMIT_CORE")
	budget := cfg.CPUBudget
	if budget <= 0 {
		budget = workerCPUBudget
	}
	secs := uint64(budget / time.Second)
	if err := unix.Setrlimit(unix.RLIMIT_CPU, &unix.Rlimit{Cur: secs, Max: secs + 5}); err != nil {
		return nil, fmt.Errorf("RLIMIT_CPU: %w", err)
	}
	set = append(set, "RLIMIT_CPU")
	// Past a run's share of CPU time the kernel sends SIGXCPU, which Go
	// ignores unless asked: the worker ends, and the host answers T4004.
	xcpu := make(chan os.Signal, 1)
	signal.Notify(xcpu, unix.SIGXCPU)
	go func() {
		<-xcpu
		fmt.Fprintln(os.Stderr, cpuLimitLine)
		os.Exit(3)
	}()
	if name, err := setAddressSpace(cfg); err != nil {
		return nil, err
	} else if name != "" {
		set = append(set, name)
	}
	debug.SetMaxStack(workerMaxStack)
	debug.SetMemoryLimit(int64(cfg.MemoryLimit) + 64<<20)
	return set, nil
}

// setCPULimit gives the next run its share of CPU time: what the worker has
// used, and twice the run's time limit and a second more (the collector
// and esbuild work on more than one core), within the worker's budget.
func setCPULimit(timeLimit time.Duration) {
	var lim unix.Rlimit
	var ru unix.Rusage
	if unix.Getrlimit(unix.RLIMIT_CPU, &lim) != nil || unix.Getrusage(unix.RUSAGE_SELF, &ru) != nil {
		return
	}
	used := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	lim.Cur = min(uint64((used+2*timeLimit+2*time.Second)/time.Second), lim.Max)
	unix.Setrlimit(unix.RLIMIT_CPU, &lim)
}
