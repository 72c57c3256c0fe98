//go:build !race

package testbin

// Race says the test binary was built with the race detector.
const Race = false
