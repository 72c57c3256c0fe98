package tools

import (
	"testing"

	"github.com/tent-tools/tent-tools/internal/projectgen"
)

// BenchmarkSearch measures search over a generated project of 300 tables
// (as `tent-gen -tables 300` writes it): a word, a case-insensitive text,
// a regex, and count, each reading every file of the project.
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
}
