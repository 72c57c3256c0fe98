//go:build race

package tools

// raceOn says the tests run under the race detector, which makes every
// process several times slower: the crash test kills fewer children then.
const raceOn = true
