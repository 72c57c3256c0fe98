package workspace

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/history"
)

// TestFreshCopyFirstCall: a copy of a project with its index cache (every
// stamp new, as cp gives) whose first call records the starting state.
// The index's first look takes the texts that recording read instead of
// reading each file again, and must answer as a fresh Build does; the
// state must hold each file's hash as on the disk. A file changed in the
// copy (not the text the cache holds) shows a text taken from the cache.
func TestFreshCopyFirstCall(t *testing.T) {
	ctx := context.Background()
	orig := copyProject(t, shopDir)
	w, err := New(orig, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Index(ctx); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	cache, err := os.ReadFile(filepath.Join(orig, ".tent", "index"))
	if err != nil {
		t.Fatal(err)
	}
	const changed = "tables/orders.ts"
	for _, tc := range []struct {
		name      string
		coldFirst bool // ColdStamps takes the settling walk before the index looks
	}{
		{name: "the index takes the start's texts"},
		{name: "the walk taken before the index", coldFirst: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyProject(t, shopDir)
			if err := os.MkdirAll(filepath.Join(dir, ".tent"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, ".tent", "index"), cache, 0o644); err != nil {
				t.Fatal(err)
			}
			src, err := os.ReadFile(filepath.Join(dir, changed))
			if err != nil {
				t.Fatal(err)
			}
			text := strings.Replace(string(src), "export const orders", "// changed in the copy\nexport const orders", 1)
			if text == string(src) {
				t.Fatalf("%s has no export const orders", changed)
			}
			if err := os.WriteFile(filepath.Join(dir, changed), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			fresh, err := definitions.Build(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			want := answersOf(t, fresh)

			w, err := New(dir, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			if err := w.settle(ctx); err != nil {
				t.Fatal(err)
			}
			if got := string(w.startTexts[changed]); got != text {
				t.Fatalf("the start kept %q of %s, want the text on the disk", got, changed)
			}
			if tc.coldFirst && w.ColdStamps(ctx) == nil {
				t.Fatal("ColdStamps took no walk")
			}
			ix, err := w.Index(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !w.index.loaded {
				t.Fatal("the copy's index cache was not read")
			}
			if w.startTexts != nil || w.scanned != nil {
				t.Error("the start's texts or walk are kept after the index's look")
			}
			if got := answersOf(t, ix); got != want {
				t.Fatalf("the first call's index differs from a fresh Build at %s", firstDiff(got, want))
			}
			if got := string(ix.File(changed).Src); got != text {
				t.Errorf("the index holds %q of %s, want the text on the disk", got, changed)
			}
			hs, err := w.HistoryStore(ctx)
			if err != nil {
				t.Fatal(err)
			}
			state, _, err := hs.State(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if got := state[changed].Hash; got != history.Hash([]byte(text)) {
				t.Errorf("the starting state holds %s for %s, want the hash of its text", got, changed)
			}
		})
	}
}
