package main

import (
	"encoding/json"
	"os"
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
