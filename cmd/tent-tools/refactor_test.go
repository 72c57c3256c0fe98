package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/internal/sample"
)

// refactorProject copies the refactor sample project into a new folder.
func refactorProject(t *testing.T) string {
	t.Helper()
	return sample.Copy(t, "../../testdata/projects/refactor-basic")
}

// TestRefactorCommands runs rename and remove through the binary with
// --json, and holds the output to the answer of the engine's goldens (the
// same goldens the Go API and the tools are held to).
func TestRefactorCommands(t *testing.T) {
	tests := []struct {
		args   []string
		golden string
	}{
		{[]string{"rename", "orders", "purchases"}, "../../rename/testdata/table-orders.golden"},
		{[]string{"rename", "orders.buyer", "customer"}, "../../rename/testdata/column-buyer.golden"},
		{[]string{"remove", "orders.buyer"}, "../../remove/testdata/column-buyer.golden"},
		{[]string{"remove", "--path", "tables/catalog.ts"}, "../../remove/testdata/file-two-tables.golden"},
		{[]string{"remove", "tables/catalog.ts"}, "../../remove/testdata/file-two-tables.golden"}, // a NAME that is a path
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			dir := refactorProject(t)
			r := tentTools(t, dir, "", append([]string{"--json"}, tt.args...)...)
			if r.exit != 0 {
				t.Fatalf("exit %d: %s", r.exit, r.stderr)
			}
			b, err := os.ReadFile(tt.golden)
			if err != nil {
				t.Fatal(err)
			}
			_, want, _ := strings.Cut(string(b), "=== answer\n")
			// The engine's goldens plan without writing (point null); the
			// command records point 1.
			want = strings.Replace(want, "\n  \"point\": null\n}", "\n  \"point\": 1\n}", 1)
			if r.stdout != want {
				t.Errorf("stdout differs from %s\n--- got\n%s--- want\n%s", tt.golden, r.stdout, want)
			}
		})
	}
}

func TestRefactorCommandErrors(t *testing.T) {
	tests := []struct {
		args   []string
		exit   int
		stderr string
	}{
		{[]string{"rename", "orders"}, 2, "rename takes a NAME and its new name TO"},
		{[]string{"remove"}, 2, "remove takes one NAME, or --path FILE"},
		{[]string{"remove", "orders", "--path", "tables/orders.ts"}, 2, "remove takes one NAME, or --path FILE"},
		{[]string{"rename", "orders", "people"}, 1, "T9107"},
		{[]string{"rename", "nothing", "x"}, 1, "T9103"},
		{[]string{"remove", "--path", "../x.ts"}, 1, "T9105"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			dir := refactorProject(t)
			r := tentTools(t, dir, "", tt.args...)
			if r.exit != tt.exit || !strings.Contains(r.stderr, tt.stderr) {
				t.Errorf("exit %d, stderr %q; want %d and %q", r.exit, r.stderr, tt.exit, tt.stderr)
			}
			if _, err := os.Stat(filepath.Join(dir, "tables", "orders.ts")); err != nil {
				t.Errorf("a refused command changed the project: %v", err)
			}
		})
	}
}

// TestRemoveFolder removes an empty folder, and refuses one that holds a
// file (T9102), leaving it whole.
func TestRemoveFolder(t *testing.T) {
	t.Parallel()
	dir := refactorProject(t)
	if err := os.MkdirAll(filepath.Join(dir, "lib", "old"), 0o755); err != nil {
		t.Fatal(err)
	}
	if r := tentTools(t, dir, "", "remove", "lib/old"); r.exit != 0 || !strings.Contains(r.stdout, "removed the empty folder lib/old") {
		t.Errorf("remove lib/old: exit %d\n%s%s", r.exit, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "lib", "old")); err == nil {
		t.Error("lib/old is still there")
	}
	r := tentTools(t, dir, "", "remove", "--path", "tables")
	if r.exit != 1 || !strings.Contains(r.stderr, "T9102: tables is a folder that holds") {
		t.Errorf("remove --path tables: exit %d\n%s%s", r.exit, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "tables", "catalog.ts")); err != nil {
		t.Errorf("a refused remove of a folder lost a file: %v", err)
	}
}
