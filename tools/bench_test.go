package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/tent-tools/tent-tools/internal/projectgen"
)

// BenchmarkIndexRefresh measures Workspace.Index after a one-file change
// on a generated project of 1,000 tables: the walk that finds the change
// plus the index's update of that one file.
func BenchmarkIndexRefresh(b *testing.B) {
	dir := b.TempDir()
	files := projectgen.Generate(projectgen.Options{Tables: 1000, Seed: 1})
	if err := projectgen.Write(dir, files); err != nil {
		b.Fatal(err)
	}
	w, err := Open(dir, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	if _, err := w.Index(b.Context()); err != nil {
		b.Fatal(err)
	}
	target := filepath.Join(dir, "lib", "money.ts")
	orig, err := os.ReadFile(target)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		if err := os.WriteFile(target, fmt.Appendf(append([]byte{}, orig...), "// %d\n", i), 0o644); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := w.Index(b.Context()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEdit measures one edit through Call on the same project, with
// the index cached: the write and the index's update of that file.
func BenchmarkEdit(b *testing.B) {
	dir := b.TempDir()
	if err := projectgen.Write(dir, projectgen.Generate(projectgen.Options{Tables: 1000, Seed: 1})); err != nil {
		b.Fatal(err)
	}
	w, err := Open(dir, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	if _, err := w.Index(b.Context()); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "lib", "bench.ts"), []byte("export const n = 0\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := range b.N {
		in := fmt.Sprintf(`{"path": "lib/bench.ts", "find": "n = %d\n", "with": "n = %d\n"}`, i, i+1)
		if _, err := call(w, "edit", in); err != nil {
			b.Fatal(err)
		}
	}
}
