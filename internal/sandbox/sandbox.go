// Package sandbox runs a command confined to one folder (docs/pages/shell.md):
// on Linux in new user, PID, mount and IPC namespaces (and a network
// namespace of its own where asked) set up by bubblewrap (bwrap, the
// sandbox Flatpak uses), with the folder the only place of the host's disk
// it may write, a read-only system (/usr, /bin, /lib*, /etc without its
// secrets), its own /proc, /dev and /tmp, and nothing else of the host's
// files. Every process of the command ends with it: the PID namespace's
// first process is the command's parent, and its end kills the rest.
// Where no sandbox can be had (no bwrap, no unprivileged user namespaces,
// another platform) Command answers an error that wraps ErrUnavailable.
// Imports nothing of the project's.
package sandbox

import (
	"errors"
	"os/exec"
)

// ErrUnavailable is wrapped by the error of a sandbox that cannot be had
// here: bwrap is not installed, the kernel refuses the namespaces, or the
// platform has none.
var ErrUnavailable = errors.New("no sandbox can be had here")

// ErrLinked is wrapped by the error of a path to be kept read-only that
// is a symbolic link: a mount would follow it, so it cannot be held.
var ErrLinked = errors.New("a link, which the sandbox cannot hold read-only")

// Spec is a command to run confined.
type Spec struct {
	// Root is the folder the command may write: an absolute path, which
	// the command sees at the same path (its links resolved).
	Root string
	// ReadOnly are paths inside Root (slash-separated, relative) that the
	// command may read but not write, replace or remove. One missing is
	// held as an empty placeholder that the command cannot write either
	// (a file, or a folder where Dir is set), removed again by Cleanup.
	ReadOnly []Path
	// Dir is the working folder: Root or a folder inside it (absolute,
	// as Root is spelt).
	Dir string
	// Argv is the program and its arguments; Env its environment.
	Argv []string
	Env  []string
	// NoNetwork gives the command a network namespace of its own, with
	// no route out.
	NoNetwork bool
}

// Path is a path inside the root kept read-only.
type Path struct {
	Rel string
	Dir bool // where missing, a folder is held in its place, else a file
}

// Sandboxed is a command made ready to run in the sandbox: start Cmd (its
// Stdout and Stderr the caller's to set), wait for it, then call Close,
// which says whether the sandbox came up and removes the placeholders.
type Sandboxed struct {
	// Cmd runs the sandbox, which runs the command. Killing Cmd's process
	// ends every process of the command.
	Cmd *exec.Cmd
	impl
}
