//go:build !race

package studio_test

const raceEnabled = false
