package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/internal/projectgen"
	"github.com/tent-tools/tent-tools/internal/sample"
	"github.com/tent-tools/tent-tools/rename"
)

// BenchmarkHubRename measures renaming the hub table of a generated project
// of 1,000 tables (accounts, the most referenced: 479 files change) and
// back, planned on the warm index and applied through the pipeline, with
// the journal's texts and folders made durable by one syncfs ("syncfs",
// where the platform has it) and by an fsync each, in parallel ("fsync
// each"): the ratio of the two is what syncfs saves on a commit of many
// files.
func BenchmarkHubRename(b *testing.B) {
	dir := b.TempDir()
	if err := projectgen.Write(dir, projectgen.Generate(projectgen.Options{Tables: 1000, Seed: 1})); err != nil {
		b.Fatal(err)
	}
	w, err := New(dir, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	if _, err := w.Index(b.Context()); err != nil {
		b.Fatal(err)
	}
	name := "accounts"
	renameHub := func(b *testing.B) {
		to := "hubs"
		if name == to {
			to = "accounts"
		}
		ix, err := w.Index(b.Context())
		if err != nil {
			b.Fatal(err)
		}
		s, err := rename.Plan(context.Background(), ix, name, to)
		if err != nil {
			b.Fatal(err)
		}
		if len(s.Files) < 400 {
			b.Fatalf("the rename changes %d files; want the hub's 400 or more", len(s.Files))
		}
		if _, err := w.Apply(b.Context(), ix, s); err != nil {
			b.Fatal(err)
		}
		name = to
	}
	renameHub(b) // settles: the starting state; warms the caches
	bySyncMode(b, renameHub)
}

// BenchmarkCommit measures the journal alone (commitFiles) for a change
// of 583 files of about 4 KB in 10 folders, the size of the hub rename:
// the texts written into .tent/tmp/, made durable, the point recorded,
// the renames, the folders made durable and the point done; by one syncfs
// and by an fsync each (in parallel), in one run.
func BenchmarkCommit(b *testing.B) {
	_, commit := hubSizedCommits(b)
	bySyncMode(b, commit)
}

// BenchmarkCommitSpares measures the journal alone (commitFiles) for a
// change of 583 files of about 4 KB, as BenchmarkCommit, in one run: with
// each new text in a new file renamed over its target ("rename", as where
// the filesystem cannot swap two names), and swapped with its target,
// written into the spares the former commit kept ("swap into spares",
// where the platform can swap).
func BenchmarkCommitSpares(b *testing.B) {
	const files = hubSizedFiles
	w, commit := hubSizedCommits(b)
	dir := w.root
	platform := exchange
	defer func() { exchange = platform; w.noExchange.Store(false) }()
	for _, mode := range []string{"rename", "swap into spares"} {
		b.Run(mode, func(b *testing.B) {
			exchange = platform
			w.noExchange.Store(false)
			if mode == "rename" {
				exchange = func(*dirHandle, string, *dirHandle, string) error { return errNoExchange }
			}
			commit(b) // the first swap leaves the spares the next ones write into
			spares, err := os.ReadDir(filepath.Join(dir, tmpFolder))
			if err != nil {
				b.Fatal(err)
			}
			if mode == "swap into spares" && len(spares) < files && swapsIn(b, b.TempDir()) {
				b.Fatalf("%d spares after a commit of %d files", len(spares), files)
			}
			b.ResetTimer()
			for range b.N {
				commit(b)
			}
		})
	}
}

// bySyncMode runs op b.N times in two sub-benchmarks, in one run: with a
// large change made durable by an fsync each ("fsync each") and by one
// syncfs ("syncfs", skipped where the platform has none).
func bySyncMode(b *testing.B, op func(*testing.B)) {
	platform := syncWholeFS
	defer func() { syncWholeFS = platform }()
	for _, mode := range []string{"fsync each", "syncfs"} {
		b.Run(mode, func(b *testing.B) {
			syncWholeFS = platform
			if mode == "syncfs" && !syncWholeFS() {
				b.Skip("no syncfs on this platform")
			}
			if mode == "fsync each" {
				syncWholeFS = func() bool { return false }
			}
			for range b.N {
				op(b)
			}
		})
	}
}

// hubSizedFiles is the number of files of hubSizedCommits' change.
const hubSizedFiles = 583

// hubSizedCommits makes a workspace of hubSizedFiles files of about 4 KB in
// 10 folders, the size of the hub rename, settled, and returns it with a
// commit through the journal alone (commitFiles) that changes every file
// (a line added, another each round).
func hubSizedCommits(b *testing.B) (*Workspace, func(*testing.B)) {
	dir := b.TempDir()
	texts := map[string]string{}
	for i := range hubSizedFiles {
		p := fmt.Sprintf("d%d/f%d.txt", i%10, i)
		texts[p] = strings.Repeat(fmt.Sprintf("line %d\n", i), 500)
	}
	sample.Write(b, dir, texts)
	w, err := New(dir, Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { w.Close() })
	view, release, err := w.Enter(b.Context(), "bench", true) // settles: the starting state
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(release)
	round := 0
	return w, func(b *testing.B) {
		st := &Stage{Summary: "bench"}
		for p, text := range texts {
			old, err := os.ReadFile(filepath.Join(dir, p))
			if err != nil {
				b.Fatal(err)
			}
			st.put(p, old, true, 0o644, fmt.Appendf(nil, "%s// %d\n", text, round))
		}
		round++
		if _, err := view.commitFiles(b.Context(), st, nil); err != nil {
			b.Fatal(err)
		}
	}
}
