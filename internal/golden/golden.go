// Package golden compares test output with a golden file, and rewrites the
// golden file when the tests run with -update. The diff is then reviewed
// like any other change.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files with the output of the tests")

// Updating reports whether the tests were asked to rewrite golden files.
func Updating() bool { return *update }

// Check fails t when got differs from the file at path (relative to the
// test's package folder), or writes got there under -update.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatalf("golden: %v", err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatalf("golden: %v", err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden: %v (run the test with -update to create it)", err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s differs from the output (run with -update to accept, then review the diff)\n--- want\n%s\n--- got\n%s", path, want, got)
	}
}
