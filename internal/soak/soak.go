// Package soak says how many rounds a test's random or repeated loop runs:
// few in the default run, which every `go test` and each CI pass makes,
// and many where the environment asks for the long run (TENT_SOAK=1), which
// CI makes once (.ci/run).
package soak

import "os"

// Env is the environment variable that asks for the long run.
const Env = "TENT_SOAK"

// Long reports whether the long run is asked for.
func Long() bool { return os.Getenv(Env) == "1" }

// Rounds returns short in the default run and long in the long run.
func Rounds(short, long int) int {
	if Long() {
		return long
	}
	return short
}
