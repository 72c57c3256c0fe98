package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestNoTerminalAsksNothing runs a function that sends data out with stdin
// from /dev/null (a character device, but no terminal): the answer is no
// (T3103) and no prompt is printed, only the error.
func TestNoTerminalAsksNothing(t *testing.T) {
	dir := shop(t)
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	order := `{"buyer":"u3","items":[{"product":"p2","quantity":1}],"shipTo":"Leith"}`
	cmd := exec.Command(bin, "run", "placeOrder", "--as", "u3", "--input", order)
	cmd.Dir = dir
	cmd.Stdin = null
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("exit: %v, want status 1\nstdout: %s\nstderr: %s", err, out.String(), errOut.String())
	}
	if out.Len() != 0 {
		t.Errorf("stdout: %q, want nothing", out.String())
	}
	want := "T3103: nobody was asked to let placeOrder send data out (mail): stdin is no terminal"
	lines := strings.Split(strings.TrimSuffix(errOut.String(), "\n"), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], want) {
		t.Errorf("stderr: %q, want one line starting %q", errOut.String(), want)
	}
	if strings.Contains(errOut.String(), "[y/N]") {
		t.Errorf("stderr has the prompt: %q", errOut.String())
	}
}
