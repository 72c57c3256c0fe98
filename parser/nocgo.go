//go:build !cgo

// The parser is tree-sitter, which is C: tent-tools builds only with cgo
// and a C compiler. Without cgo this file stands in the build, and its
// import path, which cannot be valid, is the one line the build prints.

package parser

import _ "tent-tools needs cgo: build with CGO_ENABLED=1 and a C compiler (gcc or clang) on the PATH"
