// Package check finds what is wrong with a tent project (docs/pages/format.md §7): each
// finding code is one small rule over the shared index, the rules run in
// parallel, and nothing is parsed again. It also writes the findings in the
// forms CI reads (text, JSON, SARIF 2.1.0, GitHub workflow annotations,
// GitLab Code Quality, reviewdog's rdjson, JUnit XML), and narrows them to
// what a change brings: a baseline of known findings matched by
// fingerprints that survive moving code, and the lines a diff changed.
//
// The check only reads the index; it never opens a file nor writes one.
package check

import (
	"context"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
)

// Options tunes a run of the check.
type Options struct {
	// Extra holds findings made elsewhere that belong to the same report,
	// such as T2011, which needs the test database that the runner keeps.
	// They are merged and sorted with the rest.
	Extra []diag.Finding
}

// Run checks the project ix holds and returns its findings sorted errors
// first, then by path, line and column (diag.Sort). It stops early, with the
// findings so far, when ctx is done. A process that checks one project
// again and again (the language server) keeps a Checker instead.
func Run(ctx context.Context, ix *definitions.Index, opts Options) []diag.Finding {
	c := NewChecker()
	c.once = true
	return c.Run(ctx, ix, opts)
}

// HasErrors reports whether any finding is an error: the CI face then exits 1.
func HasErrors(fs []diag.Finding) bool {
	for _, f := range fs {
		if f.Severity == diag.Error {
			return true
		}
	}
	return false
}

// FailLevel is the worst severity that still lets a CI run pass: the check
// fails (the CLI exits 1) where a reported finding is at FailOn or worse.
type FailLevel string

// The fail levels of `check --fail-on`.
const (
	FailOnError   FailLevel = "error"   // errors fail; warnings and infos do not (the default)
	FailOnWarning FailLevel = "warning" // errors and warnings fail
	FailOnNever   FailLevel = "never"   // nothing fails: the findings are only reported
)

// FailLevels lists the fail levels, for usage messages.
var FailLevels = []FailLevel{FailOnError, FailOnWarning, FailOnNever}

// Fails reports whether findings fail a run at this level.
func (l FailLevel) Fails(fs []diag.Finding) bool {
	for _, f := range fs {
		switch {
		case l == FailOnError && f.Severity == diag.Error,
			l == FailOnWarning && (f.Severity == diag.Error || f.Severity == diag.Warning):
			return true
		}
	}
	return false
}
