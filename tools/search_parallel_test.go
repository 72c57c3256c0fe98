package tools

import (
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/internal/projectgen"
)

// TestSearchParallelSameAnswer checks that search answers the same, in
// the same order and with the same cut, however many files it reads at
// once: the answer of one worker is the one a search file by file gives.
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
	defer func(n int) { searchWorkers = n }(searchWorkers)
	for _, input := range inputs {
		t.Run(input, func(t *testing.T) {
			var want string
			for _, workers := range []int{1, 2, 8, 64} {
				searchWorkers = workers
				ans, err := call(w, "search", input)
				if err != nil {
					t.Fatal(err)
				}
				data, err := JSON(ans.Data)
				if err != nil {
					t.Fatal(err)
				}
				got := ans.Text + string(data)
				if workers == 1 {
					want = got
					if !strings.Contains(input, "no such") && strings.HasPrefix(ans.Text, "no ") {
						t.Fatalf("found nothing, so the test shows nothing: %s", ans.Text)
					}
					continue
				}
				if got != want {
					t.Errorf("%d workers answer\n%s\none answers\n%s", workers, got, want)
				}
			}
		})
	}
}
