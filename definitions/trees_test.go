package definitions

import (
	"bytes"
	"context"
	"fmt"
	"testing"
)

// tentImport is a table file's first line.
const tentImport = "import { table, text } from 'tent'\n"

// TestBulkUpdateKeepsNoNewTrees checks which files keep a syntax tree for
// incremental parsing: a file updated alone (an editor's buffer) keeps its
// new tree; files updated many at once (a rename's plan, a checkout) keep
// none, but for those that had one, which stay incremental; and what the
// index reads is the same either way.
func TestBulkUpdateKeepsNoNewTrees(t *testing.T) {
	ctx := context.Background()
	files := map[string][]byte{}
	for i := range 3 * parallelUpdates {
		files[fmt.Sprintf("tables/t%02d.ts", i)] = fmt.Appendf(nil, "%sexport const t%02d = table({ columns: { a: text() } })\n", tentImport, i)
	}
	ix := FromFilesWith(ctx, files, Options{DropTrees: true})
	hot := "tables/t00.ts"
	ix = ix.Update(hot, append([]byte("// the buffer\n"), files[hot]...))
	if ix.File(hot).Tree == nil {
		t.Fatal("a file updated alone kept no tree")
	}
	var changes []FileChange
	want := map[string][]byte{}
	for p := range files {
		src := bytes.Replace(files[p], []byte("a: text()"), []byte("a: text(), b: text()"), 1)
		changes = append(changes, FileChange{Path: p, Src: src})
		want[p] = src
	}
	next := ix.UpdateFiles(ctx, changes)
	for p := range files {
		f := next.File(p)
		if f == nil || len(f.Definitions) != 1 || !bytes.Equal(f.Src, want[p]) {
			t.Fatalf("%s after the bulk update: %+v", p, f)
		}
		if kept := f.Tree != nil; kept != (p == hot) {
			t.Errorf("%s keeps a tree: %v, want %v", p, kept, p == hot)
		}
	}
	if got, want := dumpIndex(next), dumpIndex(FromFiles(ctx, want)); got != want {
		t.Errorf("the bulk update reads otherwise than a build\n--- update\n%s\n--- build\n%s", got, want)
	}
}
