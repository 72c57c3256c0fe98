package definitions

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/internal/golden"
)

// TestRowSitesArchives: each archive of testdata/rows is a project; its
// golden lists every row site (the column named, the table the row is of,
// how), one a line with the line's text.
func TestRowSitesArchives(t *testing.T) {
	archives, _ := filepath.Glob("testdata/rows/*.txtar")
	if len(archives) == 0 {
		t.Fatal("no archives")
	}
	for _, a := range archives {
		name := strings.TrimSuffix(filepath.Base(a), ".txtar")
		t.Run(name, func(t *testing.T) {
			srcs, _ := readArchive(t, a)
			ix := FromFiles(context.Background(), srcs)
			golden.Check(t, "testdata/rows/"+name+".golden", []byte(showRowSites(ix, ix.AllRowSites())))
		})
	}
}

func showRowSites(ix *Index, sites []RowSite) string {
	var b strings.Builder
	for _, s := range sites {
		f := ix.File(s.Path)
		line, col := f.Pos(s.Column.Span.Start)
		ls := strings.LastIndex(string(f.Src[:s.Column.Span.Start]), "\n") + 1
		le := strings.IndexByte(string(f.Src[s.Column.Span.Start:]), '\n')
		text := string(f.Src[ls:])
		if le >= 0 {
			text = string(f.Src[ls : s.Column.Span.Start+le])
		}
		a, z := s.Column.Span.Start-ls, s.Column.Span.End-ls
		fmt.Fprintf(&b, "%s:%d:%d %s.%s %s  %s⟨%s⟩%s\n", s.Path, line, col, s.Table, s.Column.Name, s.How,
			strings.TrimLeft(text[:a], " "), text[a:z], text[z:])
	}
	return b.String()
}
