// Package testneed holds the one rule for a test whose real client, tool
// or browser is missing: under CI (where .ci/setup.d/ installs everything
// the tests drive) it fails, elsewhere it is skipped.
package testneed

import (
	"os"
	"testing"
)

// CI reports whether the tests run in CI: CI is set, and not to "false".
func CI() bool {
	ci := os.Getenv("CI")
	return ci != "" && ci != "false"
}

// Missing ends t for something it needs that is not there: t fails under
// CI and is skipped elsewhere, with the message made from format and args.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	if CI() {
		t.Fatalf(format, args...)
	}
	t.Skipf(format, args...)
}
