package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/internal/sample"
)

// readmeBlock returns the commands of the first ```sh block under the
// README's heading, one per entry (a line ending in \ joined to the next),
// without blank lines.
func readmeBlock(t *testing.T, heading string) []string {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	at := strings.Index(text, "\n"+heading+"\n")
	if at < 0 {
		t.Fatalf("README.md has no heading %q", heading)
	}
	text = text[at:]
	start := strings.Index(text, "\n```sh\n")
	if start < 0 {
		t.Fatalf("README.md has no ```sh block under %q", heading)
	}
	text = text[start+len("\n```sh\n"):]
	end := strings.Index(text, "\n```")
	if end < 0 {
		t.Fatalf("the ```sh block under %q does not end", heading)
	}
	var cmds []string
	var cur strings.Builder
	for _, line := range strings.Split(text[:end], "\n") {
		if body, ok := strings.CutSuffix(line, "\\"); ok {
			cur.WriteString(body)
			continue
		}
		cur.WriteString(line)
		if c := strings.TrimSpace(cur.String()); c != "" {
			cmds = append(cmds, c)
		}
		cur.Reset()
	}
	return cmds
}

// codeInComment finds the finding or tool-error codes a command's comment
// says it prints, such as "(T2504)".
var codeInComment = regexp.MustCompile(`\b[T][0-9]{4}\b`)

// TestReadmeCommandLine runs the README's "The command line" block as
// written, in order, on a fresh copy of the repository's sample, with the
// tested binary on the PATH as tent-tools. Only two things differ from a
// person's terminal: `go install` is left out (the binary is already
// built), and /tmp/ is a folder of the test's own. Every command must
// succeed, but one whose comment says "exit 1"; a comment that names a
// code must see it printed.
func TestReadmeCommandLine(t *testing.T) {
	t.Parallel()
	cmds := readmeBlock(t, "## The command line")
	if len(cmds) < 10 {
		t.Fatalf("the block has %d commands: %q", len(cmds), cmds)
	}
	clone := t.TempDir()
	if err := sample.CopyTo("../../testdata/projects/shop", filepath.Join(clone, "testdata", "projects", "shop")); err != nil {
		t.Fatal(err)
	}
	binDir := t.TempDir()
	if err := os.Symlink(bin, filepath.Join(binDir, "tent-tools")); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	pwdFile := filepath.Join(t.TempDir(), "pwd")
	env := append(os.Environ(), "PATH="+binDir+string(os.PathListSeparator)+os.Getenv("PATH"), "XDG_CACHE_HOME="+t.TempDir())
	cwd := clone
	for i, line := range cmds {
		if strings.HasPrefix(line, "go install ") {
			continue
		}
		command, comment, _ := strings.Cut(line, " #")
		command = strings.ReplaceAll(command, "/tmp/", tmp+"/")
		script := command + "\nstatus=$?\npwd > '" + pwdFile + "'\nexit $status\n"
		cmd := exec.Command("sh", "-c", script)
		cmd.Dir, cmd.Env = cwd, env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		status := 0
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			status = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if status != 0 && !(status == 1 && strings.Contains(comment, "exit 1")) {
			t.Errorf("command %d, %s\nexits %d:\n%s", i+1, line, status, out.String())
		}
		for _, code := range codeInComment.FindAllString(comment, -1) {
			if !strings.Contains(out.String(), code) {
				t.Errorf("command %d, %s\nprints no %s:\n%s", i+1, line, code, out.String())
			}
		}
		if data, err := os.ReadFile(pwdFile); err == nil {
			cwd = strings.TrimSpace(string(data))
		}
	}
	// The example is clean: no command wrote into the project behind the
	// tools (shot's picture goes outside it), so history records no
	// change made outside them.
	h := exec.Command(bin, "--json", "history")
	h.Dir, h.Env = cwd, env
	out, err := h.Output()
	if err != nil {
		t.Fatalf("history after the README: %v", err)
	}
	if strings.Contains(string(out), `"kind": "outside"`) {
		t.Errorf("history after the README's commands records a change made outside the tools:\n%s", out)
	}
}

// TestReadmeGoSnippet holds the README's Go snippet to the example that
// runs it (tools.ExampleCall): the call the README shows is the one the
// example makes.
func TestReadmeGoSnippet(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	example, err := os.ReadFile("../../tools/example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	call := regexp.MustCompile("tools\\.Call\\(ctx, w, \"edit\", json\\.RawMessage\\(`[^`]*`\\)\\)").Find(readme)
	if call == nil {
		t.Fatal("README.md shows no tools.Call of edit")
	}
	if !bytes.Contains(example, call) {
		t.Errorf("tools/example_test.go does not make the README's call %s", call)
	}
}
