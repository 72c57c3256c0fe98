//go:build !race

package check

// raceOn says the tests run under the race detector.
const raceOn = false
