//go:build !linux

package workspace

import "testing"

// swapsIn reports false: commits swap names on Linux only.
func swapsIn(testing.TB, string) bool { return false }
