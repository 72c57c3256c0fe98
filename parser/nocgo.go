//go:build !cgo

// The parser is tree-sitter, which is C: tent-tools builds only with cgo
// and a C compiler. Without cgo this file stands in the build, and its
// import, of a package that cannot exist, is the one line the build
// prints (with CGO_ENABLED=1 the file is left out, its import unread).

package parser

import _ "tent-tools/needs-cgo-and-a-C-compiler/build-with-CGO_ENABLED-1-and-gcc-or-clang-on-the-PATH"
