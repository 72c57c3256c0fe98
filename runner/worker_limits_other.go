//go:build !linux

package runner

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// setAddressSpace sets nothing: macOS has no RLIMIT_AS that holds (the
// kernel does not enforce it). There the run's memory limit is the
// watchdog's (T4005), and an allocation that would take the machine's
// memory ends the worker when the system refuses it, never the host.
func setAddressSpace(cfg wireConfig) (string, error) { return "", nil }

// closeOtherFDs closes nothing: outside Linux no listing tells the
// runtime's descriptors from others, and the worker was started with its
// standard three and the .tent folder only (every descriptor Go opens is
// close-on-exec).
func closeOtherFDs(keep []int) {}

// dupCloexec duplicates fd, close-on-exec.
func dupCloexec(fd int) (int, error) {
	return unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0)
}

// workerProcAttr puts the worker in a process group of its own; a worker
// whose host died ends when its pipe closes.
func workerProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
