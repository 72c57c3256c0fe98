package main

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestStateFolderLinkCLI: with .tent a link to a folder outside the
// project, rows, run and reset (which keep the test database, the run log
// and the bundle cache in .tent/) and edit are refused with T9105, in JSON
// too, and nothing is made outside.
func TestStateFolderLinkCLI(t *testing.T) {
	dir := shop(t)
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, ".tent")); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"rows", "users"},
		{"run", "listProducts"},
		{"reset"},
		{"edit", "project.ts", "--find", "shop", "--with", "store"},
	} {
		r := tentTools(t, dir, "", append([]string{"--json"}, args...)...)
		var answer struct {
			Error struct{ Code, Message string }
		}
		if err := json.Unmarshal([]byte(r.stdout), &answer); err != nil || r.exit == 0 {
			t.Errorf("%v: exit %d, %q %q", args, r.exit, r.stdout, r.stderr)
			continue
		}
		if answer.Error.Code != "T9105" || !strings.Contains(answer.Error.Message, "rm .tent") {
			t.Errorf("%v: %+v; want T9105 saying how to fix it", args, answer.Error)
		}
	}
	entries, _ := os.ReadDir(outside)
	for _, e := range entries {
		t.Errorf("%s was made outside the project", e.Name())
	}
}

// endless is a reader of 200 MB of JSON-ish bytes, made as it is read.
type endless struct{ left int }

func (e *endless) Read(p []byte) (int, error) {
	if e.left <= 0 {
		return 0, io.EOF
	}
	n := min(len(p), e.left)
	for i := range n {
		p[i] = 'a'
	}
	e.left -= n
	return n, nil
}

// TestCallStdinBounded: 200 MB on stdin to call is not read whole: the
// call answers T9104 after reading what a tool could take at most.
func TestCallStdinBounded(t *testing.T) {
	dir := shop(t)
	cmd := exec.Command(bin, "--json", "call", "write", "-")
	cmd.Dir = dir
	src := &endless{left: 200 << 20}
	cmd.Stdin = src
	out, _ := cmd.Output()
	if !strings.Contains(string(out), `"code": "T9104"`) {
		t.Errorf("got %s", out)
	}
	if read := 200<<20 - src.left; read > 32<<20 {
		t.Errorf("%d MB of stdin were read", read>>20)
	}
}
