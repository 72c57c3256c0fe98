package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"regexp"
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

// onTerminal runs the binary in dir with env added to its environment
// and its stderr (with stdout too, where both) on a pseudo-terminal; it
// answers what the terminal showed.
func onTerminal(t *testing.T, dir string, env []string, both bool, args ...string) string {
	t.Helper()
	control, term := openPTY(t)
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Stderr = dir, term
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout = &out
	if both {
		cmd.Stdout = term
	}
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
			shown := onTerminal(t, c.dir, []string{progressAfterVar + "=" + c.after}, false, c.args...)
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

// TestHistoryTimesOnATerminal: history's text shows times in the local
// zone with its offset on a terminal, in UTC elsewhere; its JSON is UTC.
func TestHistoryTimesOnATerminal(t *testing.T) {
	t.Parallel()
	dir := shop(t)
	if r := tentTools(t, dir, "", "edit", "tables/orders.ts", "--find", "total: money(),", "--with", "total: money({ was: 'sum' }),"); r.exit != 0 {
		t.Fatalf("edit: %s", r.stderr)
	}
	kolkata := []string{"TZ=Asia/Kolkata"}
	seconds := `\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d`
	local := regexp.MustCompile(`point 1  ` + seconds + `\+05:30  `)
	if shown := onTerminal(t, dir, kolkata, true, "history"); !local.MatchString(shown) {
		t.Errorf("history on a terminal in Asia/Kolkata shows %q; want the time with +05:30", shown)
	}
	utc := regexp.MustCompile(`point 1  ` + seconds + `Z  `)
	cmd := exec.Command(bin, "history")
	cmd.Dir, cmd.Env = dir, append(os.Environ(), kolkata...)
	out, err := cmd.Output()
	if err != nil || !utc.MatchString(string(out)) {
		t.Errorf("history in a pipe says %q (%v); want the time in UTC", out, err)
	}
	if shown := onTerminal(t, dir, kolkata, true, "history", "--json"); !regexp.MustCompile(`"time": ?"` + seconds + `Z"`).MatchString(shown) {
		t.Errorf("history --json on a terminal shows %q; want the time in UTC", shown)
	}
}

// TestProgressAfterNotADuration: a delay that is no duration is a usage
// error that names the variable, terminal or not.
func TestProgressAfterNotADuration(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(bin, "map")
	cmd.Dir = shop(t)
	cmd.Env = append(os.Environ(), progressAfterVar+"=soon")
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(errOut.String(), progressAfterVar+`="soon": want a duration`) {
		t.Errorf("map with %s=soon: %v, stderr %q; want exit 2 naming the variable", progressAfterVar, err, errOut.String())
	}
}
