// Package layering holds the test that keeps the package rules of
// ARCHITECTURE.md: which packages may import which, read from `go list`.
// It has no code of its own.
package layering
