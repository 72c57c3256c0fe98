//go:build race

package check

// raceOn says the tests run under the race detector, where each round of
// the random comparisons costs several times its plain time: they run
// fewer rounds there (the long run, TENT_SOAK=1, is plain and full).
const raceOn = true
