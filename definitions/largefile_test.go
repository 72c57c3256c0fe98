package definitions

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// TestLargeFileKeepsNoTree checks that the index keeps no syntax tree of a
// file over maxTreeKept, built or updated, while a small file keeps its
// own; and that the large file is still indexed whole and can be walked
// (File.SyntaxTree parses it).
func TestLargeFileKeepsNoTree(t *testing.T) {
	ctx := context.Background()
	const orders = "import { table, text } from 'tent'\nexport const orders = table({ columns: { buyer: text() } })\n"
	small := "export const a = 1\n"
	large := orders + "export function big(ab, d) { " + strings.Repeat("ab.c(d);", maxTreeKept/8+1) + " }\n"
	ix := FromFiles(ctx, map[string][]byte{"lib/a.ts": []byte(small), "lib/x.ts": []byte(large)})
	if ix.File("lib/a.ts").Tree == nil {
		t.Error("a small file lost its tree")
	}
	x := ix.File("lib/x.ts")
	if x.Tree != nil {
		t.Errorf("a file of %d bytes keeps its tree", len(large))
	}
	if len(x.Definitions) != 1 || x.Definitions[0].Name != "orders" || len(x.Findings) != 0 {
		t.Errorf("the large file is not indexed whole: %d definitions, findings %v", len(x.Definitions), x.Findings)
	}
	tree := x.SyntaxTree()
	if tree == nil || int(tree.RootNode().EndByte()) != len(large) {
		t.Fatal("the large file gives no syntax tree to walk")
	}
	tree.Close()
	updated := ix.Update("lib/x.ts", []byte(large+"export const items = table({ columns: { name: text() } })\n"))
	if f := updated.File("lib/x.ts"); f.Tree != nil || len(f.Definitions) != 2 {
		t.Errorf("the updated large file: tree kept %v, %d definitions", f.Tree != nil, len(f.Definitions))
	}
	updated = updated.Update("lib/a.ts", []byte(small+"export const b = 2\n"))
	if updated.File("lib/a.ts").Tree == nil {
		t.Error("an updated small file keeps no tree")
	}
}

// BenchmarkLargeFileMemory indexes a 1 MB file, on one line and on many,
// keeping trees as the workspace does for a file that changed, and
// reports the Go heap the index keeps per byte of text (the syntax tree,
// in C, would be about 170 more: maxTreeKept) and the time.
func BenchmarkLargeFileMemory(b *testing.B) {
	const unit = "a.b(c);"
	n := (1 << 20) / len(unit)
	for name, body := range map[string]string{
		"one-line":   strings.Repeat(unit, n),
		"many-lines": strings.Repeat(unit+"\n", n),
	} {
		src := []byte(fmt.Sprintf("export function f(a, c) {%s}\n", body))
		b.Run(name, func(b *testing.B) {
			var kept float64
			for b.Loop() {
				runtime.GC()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				ix := FromFiles(context.Background(), map[string][]byte{"lib/x.ts": src})
				runtime.GC()
				runtime.ReadMemStats(&after)
				if ix.File("lib/x.ts").Tree != nil {
					b.Fatal("the tree of a 1 MB file is kept")
				}
				kept = float64(after.HeapAlloc-before.HeapAlloc) / float64(len(src))
				runtime.KeepAlive(ix)
			}
			b.ReportMetric(kept, "kept-B/B")
		})
	}
}
