package main

import (
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/internal/sample"
)

// TestCheckFixCommand runs check --fix through the binary: bad usage,
// the dry run's diff (nothing written, exit 0), the fix (exit 0, nothing
// left), and the exit status where errors are left.
func TestCheckFixCommand(t *testing.T) {
	dir := sample.Copy(t, "../../testdata/projects/clinic")
	if r := tentTools(t, dir, "", "check", "--dry-run"); r.exit != 2 {
		t.Errorf("--dry-run alone: exit %d, %s", r.exit, r.stderr)
	}
	if r := tentTools(t, dir, "", "check", "--fix", "--format", "sarif"); r.exit != 2 {
		t.Errorf("--fix --format sarif: exit %d, %s", r.exit, r.stderr)
	}
	if r := tentTools(t, dir, "", "rename", "patients.born", "bornAt"); r.exit != 0 {
		t.Fatalf("rename: %d %s", r.exit, r.stderr)
	}
	// A name no was explains: its finding has no fix and stays.
	if r := tentTools(t, dir, "", "edit", "screens/visits.tsx", "--find", "{patient.ward ?? 'none'}", "--with", "{patient.bed ?? 'none'}"); r.exit != 0 {
		t.Fatalf("edit: %d %s %s", r.exit, r.stdout, r.stderr)
	}
	r := tentTools(t, dir, "", "check", "--fix", "--dry-run")
	if r.exit != 0 || !strings.Contains(r.stdout, "would fix 2 findings") || !strings.Contains(r.stdout, "+  return `${patient.fullName} (${patient.bornAt.slice(0, 4)})`") {
		t.Fatalf("dry run: exit %d\n%s%s", r.exit, r.stdout, r.stderr)
	}
	if got := string(mustRead(t, dir+"/lib/format.ts")); strings.Contains(got, "bornAt") {
		t.Fatal("the dry run wrote lib/format.ts")
	}
	r = tentTools(t, dir, "", "check", "--fix")
	if r.exit != 1 || !strings.Contains(r.stdout, "fixed 2 findings") || !strings.Contains(r.stdout, "left:\nscreens/visits.tsx:38:") ||
		!strings.Contains(r.stderr, "1 error left after the fixes") {
		t.Fatalf("fix with an error left: exit %d\n%s%s", r.exit, r.stdout, r.stderr)
	}
	if r := tentTools(t, dir, "", "--json", "check", "--fix", "--fail-on", "never"); r.exit != 0 || !strings.Contains(r.stdout, `"fixed": []`) {
		t.Errorf("--json fix again: exit %d\n%s%s", r.exit, r.stdout, r.stderr)
	}
}
