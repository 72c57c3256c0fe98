package mcp_test

import "testing"

// BenchmarkRun is a warm run (listProducts on shop) through tools.Call and
// through `tent-tools mcp` on stdio; in both its app code runs in the
// workspace's worker process (docs run, Isolation). The runner's own
// BenchmarkWarmRun sets the worker beside a run in process.
func BenchmarkRun(b *testing.B) {
	benchFaces(b, "run", func(int) string { return `{"name": "listProducts", "input": {}}` })
}
