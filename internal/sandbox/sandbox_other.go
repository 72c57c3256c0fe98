//go:build unix && !linux

package sandbox

import (
	"fmt"
	"os/exec"
	"runtime"
	"syscall"
)

// impl holds nothing where there is no sandbox.
type impl struct{}

// Command answers ErrUnavailable: this platform has no namespaces to
// confine a command with.
func Command(spec Spec) (*Sandboxed, error) {
	return nil, fmt.Errorf("%w: %s has no namespaces to confine a command with", ErrUnavailable, runtime.GOOS)
}

// Unconfined makes spec's command ready to run without a sandbox, as the
// operator may accept: in a process group of its own in spec.Dir, which
// a child that leaves the group (setsid) outlives.
func Unconfined(spec Spec) *Sandboxed {
	cmd := exec.Command(spec.Argv[0], spec.Argv[1:]...)
	cmd.Dir, cmd.Env = spec.Dir, spec.Env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return &Sandboxed{Cmd: cmd}
}

// Start starts the command.
func (s *Sandboxed) Start() error { return s.Cmd.Start() }

// Close does nothing: there was no sandbox.
func (s *Sandboxed) Close() error { return nil }
