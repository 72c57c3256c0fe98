package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/internal/chromiumtest"
	"github.com/tent-tools/tent-tools/internal/projectgen"
	"github.com/tent-tools/tent-tools/shot"
)

// generated writes a generated project of tables tables into a new folder.
func generated(t *testing.T, tables int) string {
	t.Helper()
	dir := t.TempDir()
	if err := projectgen.Write(dir, projectgen.Generate(projectgen.Options{Tables: tables, Seed: 1})); err != nil {
		t.Fatal(err)
	}
	return dir
}

// onTerminal runs the binary in dir with its stderr on a pseudo-terminal
// and TENT_TOOLS_PROGRESS_AFTER set to after; it answers what the terminal
// showed.
func onTerminal(t *testing.T, dir, after string, args ...string) string {
	t.Helper()
	control, term := openPTY(t)
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Stderr = dir, term
	cmd.Env = append(os.Environ(), progressAfterVar+"="+after)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	term.Close() // the child holds it: the control side ends when the child does
	shown := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(control) // ends with EIO once no one holds the terminal
		shown <- b
	}()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("%v on a terminal: %v\nstdout: %s", args, err, out.String())
		}
	case <-time.After(120 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("%v on a terminal did not end", args)
	}
	return string(<-shown)
}

// TestProgressOnATerminal: long work shows a progress line on a terminal
// once it has run the delay, and nothing where it ends before.
func TestProgressOnATerminal(t *testing.T) {
	t.Parallel()
	big := generated(t, 300)
	cases := []struct {
		name, dir, after string
		args             []string
		want             string // "": nothing shown
		browser          bool   // the case needs Chromium
	}{
		{"first index", big, "0s", []string{"map"}, "indexing ", false},
		{"first index, shorter than the delay", big, "1h", []string{"map"}, "", false},
		{"first build of the test database", shop(t), "0s", []string{"rows", "orders"}, "building the test database", false},
		{"start of the browser", shop(t), "0s", []string{"shot", "/orders/o2", "--as", "u3", "-o", "o2.png"}, "starting the browser", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.browser {
				chromiumtest.Need(t, shot.Find)
			}
			shown := onTerminal(t, c.dir, c.after, c.args...)
			if c.want == "" {
				if shown != "" {
					t.Errorf("the terminal showed %q; want nothing", shown)
				}
				return
			}
			if !strings.Contains(shown, c.want) || !strings.Contains(shown, "\r") {
				t.Errorf("the terminal showed %q; want a progress line %q", shown, c.want)
			}
		})
	}
}

// TestProgressNotOnATerminal: where stderr is no terminal, long work
// writes nothing, whatever the delay.
func TestProgressNotOnATerminal(t *testing.T) {
	t.Parallel()
	dir := generated(t, 300)
	cmd := exec.Command(bin, "map")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), progressAfterVar+"=0s")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("map: %v\nstderr: %s", err, errOut.String())
	}
	if errOut.Len() != 0 {
		t.Errorf("stderr says %q; want nothing", errOut.String())
	}
	if out.Len() == 0 {
		t.Error("map printed no map")
	}
}
