package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/internal/sample"
)

// TestCheckKeptCLI runs `tent-tools check` again and again on one project
// and holds every run to a fresh run's output (stdout, stderr and exit
// status) in each form: a run that changed nothing answers the findings
// kept in .tent/findings (it reads no index: a .tent/index taken away
// stays away), a run after an edit or with the kept file damaged checks
// again.
func TestCheckKeptCLI(t *testing.T) {
	dir := writeCaseProject(t, "../../check/testdata/formats/project.txt")
	formats := []string{"text", "json", "sarif", "github"}
	fresh := func() map[string]result {
		t.Helper()
		copyDir := t.TempDir()
		files := map[string]string{}
		for p, src := range sample.Load(t, dir) {
			if !strings.HasPrefix(p, ".tent/") {
				files[p] = string(src)
			}
		}
		sample.Write(t, copyDir, files)
		out := map[string]result{}
		for _, f := range formats {
			out[f] = tentTools(t, copyDir, "", "check", "--format", f)
			os.RemoveAll(filepath.Join(copyDir, ".tent")) // each a first run
		}
		return out
	}
	same := func(step string, want map[string]result) {
		t.Helper()
		for _, f := range formats {
			if got := tentTools(t, dir, "", "check", "--format", f); got != want[f] {
				t.Errorf("%s, --format %s: got exit %d\n%s%s\nwant exit %d\n%s%s", step, f, got.exit, got.stdout, got.stderr, want[f].exit, want[f].stdout, want[f].stderr)
			}
		}
	}
	index := filepath.Join(dir, ".tent", "index")
	kept := filepath.Join(dir, ".tent", "findings")

	want := fresh()
	if want["text"].exit != 1 {
		t.Fatalf("the project's check exits %d, want 1", want["text"].exit)
	}
	same("first runs", want)
	if _, err := os.Stat(kept); err != nil {
		t.Fatalf("no findings kept: %v", err)
	}
	if err := os.Remove(index); err != nil {
		t.Fatal(err)
	}
	same("nothing changed", want)
	if _, err := os.Stat(index); err == nil {
		t.Error("a run with nothing changed read the index (and wrote .tent/index)")
	}

	p := filepath.Join(dir, "tables", "orders.ts")
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(src), "ref('user')", "ref('users')", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	edited := fresh()
	if edited["text"] == want["text"] {
		t.Fatal("the edit changed nothing the check says")
	}
	same("one file edited", edited)

	if err := os.WriteFile(kept, []byte("tentfnd\n damaged"), 0o644); err != nil {
		t.Fatal(err)
	}
	same("kept findings damaged", edited)
}
