package main

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/internal/sample"
)

// TestWorkerDeathsCLI: through the binary, each way app code ended the
// whole process (issue 20) is an exit 1 with a code on stderr and no Go
// crash text, and the next run in the same project is answered. The
// 600 KB file of nested brackets is written with write, then run.
func TestWorkerDeathsCLI(t *testing.T) {
	dir := sample.Copy(t, "../../testdata/projects/run-hostile")
	deep := "import { fn } from 'tent'\n\nexport const deep = fn({ run: () => " + strings.Repeat("[", 3e5) + strings.Repeat("]", 3e5) + " })\n"
	if r := tentTools(t, dir, deep, "write", "functions/deep.ts"); r.exit != 0 {
		t.Fatalf("write: exit %d: %s", r.exit, r.stderr)
	}
	t.Setenv("TENT_RUN_TIME_LIMIT", "1s")
	// The first run builds the test database and the app snapshot: not
	// what the limits time.
	if r := tentTools(t, dir, "", "run", "sum", "--input", `{"a":1,"b":2}`); r.exit != 0 {
		t.Fatalf("run sum: exit %d: %s", r.exit, r.stderr)
	}
	code := regexp.MustCompile(`^T40(04|05|13): `)
	// What Go writes when a process dies (the worker's one line is quoted
	// inside T4013's message, never a line of its own).
	crash := regexp.MustCompile(`(?m)^(fatal error|panic|runtime stack)|goroutine \d+ \[`)
	for _, name := range []string{"evalBrackets", "functionBrackets", "evalMinus", "deep", "shiftHuge",
		"powerHuge", "multiplyLoop", "lookaheads", "normalizeHuge", "writeThenDie"} {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			r := tentTools(t, dir, "", "run", name)
			if took := time.Since(start); took > 6*time.Second {
				t.Errorf("took %v, more than the limit of 1 s and 5 s", took)
			}
			if r.exit != 1 || !code.MatchString(r.stderr) {
				t.Errorf("exit %d, stderr %q; want exit 1 and T4004, T4005 or T4013", r.exit, r.stderr)
			}
			if crash.MatchString(r.stderr) {
				t.Errorf("stderr holds Go's crash text: %s", r.stderr)
			}
			if r := tentTools(t, dir, "", "run", "sum", "--input", `{"a":1,"b":2}`); r.exit != 0 {
				t.Errorf("the next run: exit %d: %s", r.exit, r.stderr)
			}
		})
	}
	if r := tentTools(t, dir, "", "rows", "notes"); r.exit != 0 || strings.Contains(r.stdout, "written before the end") {
		t.Errorf("rows notes after writeThenDie: exit %d: %s%s", r.exit, r.stdout, r.stderr)
	}
}

// TestBuiltinWithinLimitCLI: a builtin that runs in Go past every limit
// ends within the documented 5 s and 5 s more.
func TestBuiltinWithinLimitCLI(t *testing.T) {
	dir := sample.Copy(t, "../../testdata/projects/run-hostile")
	start := time.Now()
	r := tentTools(t, dir, "", "run", "normalizeHuge")
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("took %v, more than the limit of 5 s and 5 s", took)
	}
	if r.exit != 1 || !strings.HasPrefix(r.stderr, "T4004: ") && !strings.HasPrefix(r.stderr, "T4005: ") {
		t.Errorf("exit %d, stderr %q; want T4004 or T4005", r.exit, r.stderr)
	}
}
