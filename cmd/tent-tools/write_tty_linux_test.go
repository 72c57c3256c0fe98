package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal: its controlling side and the terminal a
// child reads from.
func openPTY(t *testing.T) (control, term *os.File) {
	t.Helper()
	control, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open /dev/ptmx: %v", err)
	}
	t.Cleanup(func() { control.Close() })
	if err := unix.IoctlSetPointerInt(int(control.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlock the pty: %v", err)
	}
	n, err := unix.IoctlGetInt(int(control.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("the pty's number: %v", err)
	}
	term, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open the pty: %v", err)
	}
	t.Cleanup(func() { term.Close() })
	return control, term
}

// TestWriteOnATerminal runs write with no --text on a terminal: it says
// what it waits for, then writes what was typed up to Ctrl-D.
func TestWriteOnATerminal(t *testing.T) {
	t.Parallel()
	dir := shop(t)
	control, term := openPTY(t)
	cmd := exec.Command(bin, "write", "lib/tax.ts")
	cmd.Dir, cmd.Stdin = dir, term
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Canonical mode: a line, then Ctrl-D at the start of the next, is the end.
	if _, err := control.WriteString("export const rate = 0.2\n\x04"); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("write on a terminal: %v\nstdout: %s\nstderr: %s", err, out.String(), errOut.String())
		}
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("write on a terminal did not end\nstderr: %s", errOut.String())
	}
	if !strings.Contains(errOut.String(), "write: type the text of lib/tax.ts, then Ctrl-D") {
		t.Errorf("stderr says %q; want what write waits for", errOut.String())
	}
	got, err := os.ReadFile(filepath.Join(dir, "lib", "tax.ts"))
	if err != nil || string(got) != "export const rate = 0.2\n" {
		t.Errorf("lib/tax.ts holds %q (%v)", got, err)
	}
}
