package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/internal/projectgen"
)

// BenchmarkHubRename measures renaming the hub table of a generated project
// of 1,000 tables (accounts, the most referenced: 583 files change) and
// back, through Call with the index warm, with the journal's texts and
// folders made durable by one syncfs ("syncfs", where the platform has it)
// and by an fsync each, in parallel ("fsync each"): the ratio of the two
// is what syncfs saves on a commit of many files.
func BenchmarkHubRename(b *testing.B) {
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
	name := "accounts"
	rename := func(b *testing.B) {
		to := "hubs"
		if name == to {
			to = "accounts"
		}
		ans, err := call(w, "rename", fmt.Sprintf(`{"name": %q, "to": %q}`, name, to))
		if err != nil {
			b.Fatal(err)
		}
		if files, _ := asJSON(b, ans.Data)["changed"].([]any); len(files) < 500 {
			b.Fatalf("the rename changed %d files; want the hub's 500 or more", len(files))
		}
		name = to
	}
	rename(b) // settles: the starting state; warms the caches
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
				rename(b)
			}
		})
	}
}

// BenchmarkCommit measures the journal alone (commitFiles) for a change
// of 583 files of about 4 KB in 10 folders, the size of the hub rename:
// the texts written into .tent/tmp/, made durable, the point recorded,
// the renames, the folders made durable and the point done; by one syncfs
// and by an fsync each (in parallel), in one run.
func BenchmarkCommit(b *testing.B) {
	const files = 583
	texts := map[string]string{}
	for i := range files {
		texts[fmt.Sprintf("d%d/f%d.txt", i%10, i)] = strings.Repeat(fmt.Sprintf("line %d\n", i), 500)
	}
	w, dir := openFiles(b, texts)
	if _, err := call(w, "history", `{}`); err != nil {
		b.Fatal(err)
	}
	view := &Workspace{folder: w.folder, opts: w.opts, tool: "bench"}
	if err := view.settle(b.Context()); err != nil {
		b.Fatal(err)
	}
	round := 0
	commit := func(b *testing.B) {
		st := &stage{summary: "bench"}
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
				commit(b)
			}
		})
	}
}
