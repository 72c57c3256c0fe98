package tools

import (
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/internal/projectgen"
)

// TestSearchParallelSameAnswer checks that search answers the same, in
// the same order and with the same cut, however many files it reads at
// once and hands on at once: the answer of one worker is the one a search
// file by file gives.
func TestSearchParallelSameAnswer(t *testing.T) {
	dir := t.TempDir()
	if err := projectgen.Write(dir, projectgen.Generate(projectgen.Options{Tables: 40, Seed: 3})); err != nil {
		t.Fatal(err)
	}
	w, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	inputs := []string{
		`{"text": "text("}`,
		`{"text": "text(", "limit": 7}`,
		`{"text": "export", "limit": 1000}`,
		`{"text": "MONEY", "caseInsensitive": true, "limit": 50}`,
		`{"text": "ref\\('[a-z]+'\\)", "regex": true}`,
		`{"text": "text(", "count": true, "limit": 5}`,
		`{"text": "text(", "filesOnly": true}`,
		`{"text": "no such text anywhere"}`,
		`{"text": "columns", "in": "tables", "include": "**/*s.ts"}`,
	}
	defer func(n, batch int) { searchWorkers, searchBatch = n, batch }(searchWorkers, searchBatch)
	type way struct{ workers, batch int }
	for _, input := range inputs {
		t.Run(input, func(t *testing.T) {
			var want string
			for _, way := range []way{{1, 32}, {2, 32}, {8, 32}, {64, 32}, {2, 1}, {8, 3}} {
				searchWorkers, searchBatch = way.workers, way.batch
				ans, err := call(w, "search", input)
				if err != nil {
					t.Fatal(err)
				}
				data, err := JSON(ans.Data)
				if err != nil {
					t.Fatal(err)
				}
				got := ans.Text + string(data)
				inPathOrder(t, ans.Data.(SearchAnswer))
				if way.workers == 1 {
					want = got
					if !strings.Contains(input, "no such") && strings.HasPrefix(ans.Text, "no ") {
						t.Fatalf("found nothing, so the test shows nothing: %s", ans.Text)
					}
					continue
				}
				if got != want {
					t.Errorf("%d workers (batches of %d files) answer\n%s\none answers\n%s", way.workers, way.batch, got, want)
				}
			}
		})
	}
}

// inPathOrder fails t unless the hits are in path and line order and the
// files in path order, as the walk meets them.
func inPathOrder(t *testing.T, a SearchAnswer) {
	t.Helper()
	for i := 1; i < len(a.Hits); i++ {
		p, h := a.Hits[i-1], a.Hits[i]
		if p.Path > h.Path || (p.Path == h.Path && p.Line >= h.Line) {
			t.Errorf("hit %s:%d after %s:%d", h.Path, h.Line, p.Path, p.Line)
		}
	}
	for i := 1; i < len(a.Files); i++ {
		if a.Files[i-1].Path >= a.Files[i].Path {
			t.Errorf("file %s after %s", a.Files[i].Path, a.Files[i-1].Path)
		}
	}
}
