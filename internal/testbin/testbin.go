// Package testbin builds the tent-tools binary that a package's tests
// drive as a user does (the language server, MCP, the studio), once per
// test process, from TestMain.
package testbin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Main builds the command in pkg (a path relative to the test's package,
// "../cmd/tent-tools") into a temporary folder, sets *bin to it, runs the
// tests and exits with their status, after done (may be nil) and the
// folder's removal. With race, a test binary built with -race builds the
// command with the race detector too, so that a race in it fails its
// exit status.
func Main(m *testing.M, bin *string, pkg string, race bool, done func()) {
	dir, err := os.MkdirTemp("", "tent-tools-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	*bin = filepath.Join(dir, filepath.Base(pkg))
	args := []string{"build", "-o", *bin}
	if race && Race {
		args = append(args, "-race")
	}
	build := exec.Command("go", append(args, pkg)...)
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintf(os.Stderr, "build %s: %v\n", pkg, err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	if done != nil {
		done()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}
