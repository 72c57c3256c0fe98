package workspace

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tent-tools/tent-tools/internal/projectgen"
)

// BenchmarkStart measures the first call's recording of the starting state
// on a generated project of 1,000 tables (a fresh copy: no history yet):
// "hashes" is what settling does now (every file read for its hash, the
// state recorded by hash and stamp); "every content" adds what it did
// before contents were kept lazily: every file's content written into
// .tent/history.db (KeepUnkept, which shell runs before a command).
func BenchmarkStart(b *testing.B) {
	dir := b.TempDir()
	if err := projectgen.Write(dir, projectgen.Generate(projectgen.Options{Tables: 1000, Seed: 1})); err != nil {
		b.Fatal(err)
	}
	fresh := func(b *testing.B) *Workspace {
		b.Helper()
		for _, name := range []string{"history.db", "history.db-wal", "history.db-shm"} {
			if err := os.Remove(filepath.Join(dir, ".tent", name)); err != nil && !os.IsNotExist(err) {
				b.Fatal(err)
			}
		}
		w, err := New(dir, Options{})
		if err != nil {
			b.Fatal(err)
		}
		return w
	}
	for _, every := range []bool{false, true} {
		name := "hashes"
		if every {
			name = "every content"
		}
		b.Run(name, func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				w := fresh(b)
				b.StartTimer()
				if err := w.settle(b.Context()); err != nil {
					b.Fatal(err)
				}
				if every {
					hs, err := w.HistoryStore(b.Context())
					if err != nil {
						b.Fatal(err)
					}
					if err := w.KeepUnkept(b.Context(), hs); err != nil {
						b.Fatal(err)
					}
				}
				b.StopTimer()
				w.Close()
				b.StartTimer()
			}
		})
	}
}
