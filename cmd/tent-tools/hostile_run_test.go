package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/internal/sample"
)

// TestHostileRunCLI: through the binary, app code that would kill the
// process (the sort of a huge array-like, issue 13 item 1) is a coded
// error and an ordinary exit; app code that replaces JSON.stringify does
// not break run's nor logs' JSON.
func TestHostileRunCLI(t *testing.T) {
	dir := sample.Copy(t, "../../testdata/projects/run-hostile")
	tests := []struct {
		name   string
		args   []string
		exit   int
		stderr string
	}{
		{"sort of a huge array-like", []string{"run", "arrayLike", "--input", `{"method":"sort"}`}, 1, "T4005: "},
		{"indexOf of the longest array-like", []string{"run", "longestArrayLike", "--input", `{"method":"indexOf"}`}, 1, "T4004: "},
		{"repeat", []string{"run", "repeatHuge"}, 1, "T4005: "},
		{"a forged code", []string{"run", "forgeCode"}, 1, "T4003: the person said no"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tentTools(t, dir, "", tt.args...)
			if r.exit != tt.exit || !strings.Contains(r.stderr, tt.stderr) || strings.Contains(r.stderr, "fatal error") {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", r.exit, r.stderr, tt.exit, tt.stderr)
			}
		})
	}
	for _, args := range [][]string{{"--json", "run", "replaceJSON"}, {"--json", "logs"}} {
		r := tentTools(t, dir, "", args...)
		if r.exit != 0 || !json.Valid([]byte(r.stdout)) {
			t.Errorf("%v: exit %d, not JSON: %s %s", args, r.exit, r.stdout, r.stderr)
		}
	}
}
