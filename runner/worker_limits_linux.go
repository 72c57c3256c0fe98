package runner

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// workerAddressBase is the address space a worker needs besides its heap:
// its program and libraries mapped, the stacks of its threads, the
// runtime's reservations (measured at about 1.2 GB on linux/amd64; the
// bound leaves room over it).
const workerAddressBase = 2 << 30

// setAddressSpace sets RLIMIT_AS: the runtime's own needs and four times
// a run's memory limit (the collector's headroom, esbuild's), so that one
// allocation past it (8 GB for 1n << 2n**36n) fails in the kernel and ends
// the worker with "out of memory" (T4005), not the machine.
func setAddressSpace(cfg wireConfig) (string, error) {
	n := uint64(workerAddressBase) + 4*cfg.MemoryLimit
	if err := unix.Setrlimit(unix.RLIMIT_AS, &unix.Rlimit{Cur: n, Max: n}); err != nil {
		return "", fmt.Errorf("RLIMIT_AS: %w", err)
	}
	return "RLIMIT_AS", nil
}

// closeOtherFDs closes every descriptor of the worker but keep and the Go
// runtime's own (its epoll and event descriptors, anonymous inodes): what
// a library might have left open without close-on-exec is not the app's.
func closeOtherFDs(keep []int) {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return
	}
	kept := map[int]bool{}
	for _, k := range keep {
		kept[k] = true
	}
	for _, e := range ents {
		fd, err := strconv.Atoi(e.Name())
		if err != nil || kept[fd] {
			continue
		}
		target, err := os.Readlink("/proc/self/fd/" + e.Name())
		if err != nil || strings.HasPrefix(target, "anon_inode:") {
			continue
		}
		unix.Close(fd)
	}
}

// dupCloexec duplicates fd, close-on-exec.
func dupCloexec(fd int) (int, error) {
	return unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0)
}

// workerProcAttr ends the worker with its host: where the host dies, the
// kernel kills the worker.
func workerProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
