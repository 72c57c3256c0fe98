//go:build !race

package tools

// raceOn says the tests run under the race detector.
const raceOn = false
