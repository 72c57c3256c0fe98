//go:build race

package studio_test

// raceEnabled builds the binary the tests drive with the race detector
// too, so that a race in the server fails its exit status.
const raceEnabled = true
