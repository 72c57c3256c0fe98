package tools

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/internal/projectfiles"
)

// TestSearchSameAsWalk checks that search, which walks by descriptors and
// matches no file against .gitignore rules that name only folders, finds
// exactly the files walk gives (the walk of list and of every other tool),
// in the same order, under rules that name folders only, files, negations
// and nested .gitignore files, from the root and from folders named by in
// (also ignored ones).
func TestSearchSameAsWalk(t *testing.T) {
	base := map[string]string{
		"a.ts":              "needle\n",
		"gen":               "needle (a file named like an ignored folder)\n",
		"build/out.js":      "needle\n",
		"lib/a.ts":          "x\nneedle\n",
		"lib/gen/b.ts":      "needle\n",
		"lib/gen.ts":        "needle\n",
		"lib/keep.log":      "needle\n",
		"lib/app.log":       "needle\n",
		"lib/sub/c.gen.ts":  "needle\n",
		"lib/sub/c.ts":      "needle\n",
		"out/keep/k.ts":     "needle\n",
		"out/x.ts":          "needle\n",
		"sub/c.gen.ts":      "needle\n",
		"tables/orders.ts":  "needle needle\nneedle\n",
		"tent.d.ts":         "needle\n",
		"dist/app.js":       "needle\n",
		"lib/dist/app.js":   "needle\n",
		"lib/deep/er/z.tsx": "needle\n",
	}
	rules := map[string]map[string]string{
		"none":          {},
		"folders only":  {".gitignore": "build/\ngen/\n# a comment\n\nout/\n"},
		"files":         {".gitignore": "*.log\n!keep.log\n"},
		"negated":       {".gitignore": "out/\n!out/keep/\n"},
		"nested":        {".gitignore": "build/\n", "lib/.gitignore": "*.gen.ts\n", "lib/sub/.gitignore": "deep/\n"},
		"nested folder": {".gitignore": "*.gen.ts\n", "lib/.gitignore": "gen/\nsub/\n"},
		"crlf":          {".gitignore": "build/\r\nlib/gen/\r\n"},
	}
	for name, extra := range rules {
		t.Run(name, func(t *testing.T) {
			files := map[string]string{}
			for p, text := range base {
				files[p] = text
			}
			for p, text := range extra {
				files[p] = text
			}
			w, _ := openFiles(t, files)
			for _, in := range []string{"", "lib", "lib/sub", "build", "out", "lib/gen", "dist"} {
				ans, err := call(w, "search", fmt.Sprintf(`{"text": "needle", "in": %q, "limit": 1000}`, in))
				if err != nil {
					t.Fatalf("in %q: %v", in, err)
				}
				var got []string
				for _, h := range ans.Data.(SearchAnswer).Hits {
					got = append(got, fmt.Sprintf("%s:%d", h.Path, h.Line))
				}
				if want := hitsByWalk(t, w, in); !slices.Equal(got, want) {
					t.Errorf("in %q: search finds\n%v\nwalk gives\n%v", in, got, want)
				}
			}
		})
	}
}

// hitsByWalk is what search should find of "needle" below in: each line
// that holds it, of each regular file walk gives, in walk's order.
func hitsByWalk(t *testing.T, w *Workspace, in string) []string {
	t.Helper()
	rel := in
	if rel == "" {
		rel = "."
	}
	var out []string
	err := w.state.Walk(context.Background(), rel, func(p string, d fs.DirEntry, _ int) error {
		if !d.Type().IsRegular() || projectfiles.FrameworkFile(p) {
			return nil
		}
		src, err := w.state.FS().ReadFile(p)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(src), "\n") {
			if bytes.Contains([]byte(line), []byte("needle")) {
				out = append(out, fmt.Sprintf("%s:%d", p, i+1))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
