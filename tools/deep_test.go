package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/projectfiles"
)

// TestDeepPaths checks the bounds of a project path: a write deeper or
// longer than a project path may be is refused (T9105, saying why), and
// folders made that deep outside the tools are left out of the walks and
// the index, which stay quick.
func TestDeepPaths(t *testing.T) {
	w, dir := openCopy(t, Options{})
	deep := strings.Repeat("d/", 500) + "x.ts"
	long := "lib/" + strings.Repeat("n", projectfiles.MaxLen) + ".ts"
	for _, p := range []string{deep, long} {
		_, err := call(w, "write", fmt.Sprintf(`{"path": %q, "text": "export const x = 1\n"}`, p))
		te := wantCode(t, err, diag.T9105)
		if !strings.Contains(te.Message, "at most") {
			t.Errorf("the refusal does not say the bound: %s", te.Message)
		}
	}
	// Made outside: a chain of folders far deeper than the bound, with a
	// file at every level and a .gitignore rule that names none of them.
	os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("build/\n*.gen.ts\n"), 0o644)
	p := dir
	for i := range 300 {
		p = filepath.Join(p, "d")
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Skipf("the file system takes no folders %d deep: %v", i, err)
		}
		os.WriteFile(filepath.Join(p, "x.ts"), []byte("export const x = 1\n"), 0o644)
	}
	ix, err := w.Index(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	deepest := 0
	for _, f := range ix.Files() {
		deepest = max(deepest, strings.Count(f.Path, "/")+1)
	}
	if deepest != projectfiles.MaxDepth {
		t.Errorf("the deepest indexed file has %d names; want %d (the bound)", deepest, projectfiles.MaxDepth)
	}
	ans, err := call(w, "search", `{"text": "export const x"}`)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(ans.Text, "x.ts") > projectfiles.MaxDepth {
		t.Errorf("search found files deeper than the bound")
	}
}
