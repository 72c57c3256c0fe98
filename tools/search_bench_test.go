package tools

import (
	"context"
	"io/fs"
	"testing"

	"github.com/tent-tools/tent-tools/internal/projectfiles"
	"github.com/tent-tools/tent-tools/internal/projectgen"
)

// BenchmarkSearch measures search over a generated project of 300 tables
// (as `tent-gen -tables 300` writes it): a word, a case-insensitive text,
// a regex (one that starts with a text, which Go's regexp scans for, and
// one that does not, whose files are chosen by the text every match
// holds), and count, each reading every file of the project; then the
// reading alone, by the walk of the other tools (io/fs on os.Root: what
// search did before) and by descriptors (projectfiles.Walk: what it does):
// compare the two.
func BenchmarkSearch(b *testing.B) {
	dir := b.TempDir()
	if err := projectgen.Write(dir, projectgen.Generate(projectgen.Options{Tables: 300, Seed: 1})); err != nil {
		b.Fatal(err)
	}
	w, err := Open(dir, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	for _, c := range []struct{ name, input string }{
		{"word", `{"text": "placedAt"}`},
		{"caseInsensitive", `{"text": "PLACEDAT", "caseInsensitive": true}`},
		{"regex", `{"text": "money\\(\\{ ?optional", "regex": true}`},
		{"regex/no-leading-text", `{"text": "[Mm]oney\\(\\{ ?optional", "regex": true}`},
		{"count", `{"text": "text(", "count": true}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := call(w, "search", c.input); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	ctx := context.Background()
	b.Run("read/fs-walk", func(b *testing.B) {
		for b.Loop() {
			err := w.state.Walk(ctx, ".", func(p string, d fs.DirEntry, _ int) error {
				if d.Type().IsRegular() {
					_, err := w.state.FS().ReadFile(p)
					return err
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("read/descriptors", func(b *testing.B) {
		for b.Loop() {
			err := w.state.WalkFiles(ctx, ".", func(e projectfiles.Entry) error {
				_, err := e.Dir.ReadFile(e.Name, MaxFile, nil)
				return err
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	})
}
