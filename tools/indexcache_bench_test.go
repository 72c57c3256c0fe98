package tools

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/internal/projectgen"
)

// benchCheckProject writes the generated 1,000-table project and returns
// its folder, its files older than the racy window (as a project's files
// are between two checks).
func benchCheckProject(b *testing.B) string {
	b.Helper()
	dir := b.TempDir()
	if err := projectgen.Write(dir, projectgen.Generate(projectgen.Options{Tables: 1000, Seed: 1})); err != nil {
		b.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			os.Chtimes(p, old, old)
		}
		return nil
	})
	return dir
}

// checkOnce is the check of a new process: a workspace opened, the check
// called, the workspace closed.
func checkOnce(b *testing.B, dir string) {
	w, err := Open(dir, Options{})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := call(w, "check", `{}`); err != nil {
		b.Fatal(err)
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkCheckKept is `tent-tools check` on the 1,000-table project
// with nothing changed since the last check: the kept findings
// (.tent/findings) answer, after a walk that stamps every file.
func BenchmarkCheckKept(b *testing.B) {
	dir := benchCheckProject(b)
	checkOnce(b, dir) // keeps the findings
	b.ResetTimer()
	for b.Loop() {
		checkOnce(b, dir)
	}
}

// BenchmarkCheckCached is the same check where the kept findings are gone
// (as after an edit): the index read from .tent/index, and checked.
// Compare with BenchmarkCheckNoCache in the same run (the target: at
// least 45 times `tsc --noEmit`, scripts/bench/peers.sh).
func BenchmarkCheckCached(b *testing.B) {
	dir := benchCheckProject(b)
	checkOnce(b, dir) // writes the cache
	checkOnce(b, dir) // and the stamps it trusts
	kept := filepath.Join(dir, ".tent", "findings")
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		os.Remove(kept)
		b.StartTimer()
		checkOnce(b, dir)
	}
}

// BenchmarkCheckNoCache is the same check where .tent/index and the kept
// findings are gone: the whole project parsed.
func BenchmarkCheckNoCache(b *testing.B) {
	dir := benchCheckProject(b)
	checkOnce(b, dir)
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		os.Remove(filepath.Join(dir, ".tent", "index"))
		os.Remove(filepath.Join(dir, ".tent", "findings"))
		b.StartTimer()
		checkOnce(b, dir)
	}
}
