package parser

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/internal/soak"
)

// TestCancelledContextsLeaveParsersWhole parses with contexts that are
// cancelled as soon as each parse returns, as a tool call's context is,
// and checks that every later parse still gets its tree. The tree-sitter
// binding watches a cancellable context from a goroutine that may set the
// parser's cancellation flag after the parse has ended; a pooled parser so
// flagged failed every later parse, and a file then silently lost its
// definitions.
func TestCancelledContextsLeaveParsersWhole(t *testing.T) {
	t.Parallel()
	// Large enough that tree-sitter looks at the flag while it parses.
	src := []byte(strings.Repeat("export const a = table({ columns: { n: text(), m: ref('b') } })\n", 50))
	for i := range soak.Rounds(200, 1000) {
		ctx, cancel := context.WithCancel(context.Background())
		tree, _ := Parse(ctx, "a.ts", src)
		cancel()
		runtime.Gosched() // let the binding's watcher run after the cancel
		if tree == nil {
			t.Fatalf("parse %d with a live context gave no tree", i)
		}
		tree.Close()
	}
}
