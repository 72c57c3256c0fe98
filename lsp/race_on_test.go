//go:build race

package lsp

// raceEnabled builds the server binary the tests drive with the race
// detector too, so that a race in the server fails its exit status.
const raceEnabled = true
