package definitions

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/diag"
)

// TestOversizeFiles: a file over MaxIndexed, however it reaches the index
// (Build's walk, a link, an update of the text, a read that found it too
// large), is indexed without its contents with one T1004 naming its size;
// one of MaxIndexed bytes is indexed as any other.
func TestOversizeFiles(t *testing.T) {
	ctx := context.Background()
	def := "import { table, text } from 'tent'\nexport const orders = table({ columns: { buyer: text() } })\n"
	padded := func(n int) string { return def + "//" + strings.Repeat("x", n-len(def)-3) + "\n" }
	dir := writeTree(t, map[string]string{
		"project.ts":      "export default project({ name: 'shop' })\n",
		"tables/fits.ts":  padded(MaxIndexed),
		"tables/over.ts":  padded(MaxIndexed + 1),
		"testdata/x.json": "[" + strings.Repeat(`{"a": 1},`, MaxIndexed/9) + `{"a": 1}]`,
	})
	// A 50 MB file of no real size on disk (sparse): told by its size, never read.
	huge := filepath.Join(dir, "lib", "huge.ts")
	os.MkdirAll(filepath.Dir(huge), 0o755)
	f, _ := os.Create(huge)
	f.Truncate(50 << 20)
	f.Close()
	os.Symlink("huge.ts", filepath.Join(dir, "lib", "link.ts"))
	ix, err := Build(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if f := ix.File("tables/fits.ts"); f == nil || len(f.Definitions) != 1 || len(f.Findings) != 0 {
		t.Fatalf("a file of 1 MB is not indexed whole: %+v", f)
	}
	for p, size := range map[string]string{"tables/over.ts": "1.0 MB", "lib/huge.ts": "50.0 MB", "lib/link.ts": "50.0 MB", "testdata/x.json": "1.0 MB"} {
		oversize(t, ix.File(p), p, size)
	}
	// An update with a text over the bound, and a change whose read found
	// the file too large.
	up := ix.Update("tables/fits.ts", []byte(padded(MaxIndexed+10)))
	oversize(t, up.File("tables/fits.ts"), "tables/fits.ts", "1.0 MB")
	_, err = ReadIndexed(os.DirFS(dir), "lib/huge.ts")
	if _, ok := tooLarge(err); !ok {
		t.Fatalf("ReadIndexed of 50 MB: %v", err)
	}
	up = ix.UpdateFiles(ctx, []FileChange{{Path: "tables/fits.ts", Err: err}})
	oversize(t, up.File("tables/fits.ts"), "tables/fits.ts", "50.0 MB")
	if src, err := ReadIndexed(os.DirFS(dir), "tables/fits.ts"); err != nil || len(src) != MaxIndexed {
		t.Fatalf("ReadIndexed of 1 MB: %d bytes, %v", len(src), err)
	}
	// The cache keeps the finding.
	var buf bytes.Buffer
	if err := SaveCache(&buf, ix, map[string]Stamp{"lib/huge.ts": {Size: 50 << 20}}); err != nil {
		t.Fatal(err)
	}
	loaded, _, err := LoadCache(ctx, buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	oversize(t, loaded.File("lib/huge.ts"), "lib/huge.ts", "50.0 MB")
}

func oversize(t *testing.T, f *File, p, size string) {
	t.Helper()
	if f == nil {
		t.Fatalf("%s is not in the index", p)
	}
	if f.Src != nil || len(f.Definitions) != 0 || len(f.Findings) != 1 || f.Findings[0].Code != diag.T1004 ||
		!strings.Contains(f.Findings[0].Message, "the file is "+size) {
		t.Fatalf("%s: %d bytes kept, %d definitions, findings %v; want none and one T1004 naming %s", p, len(f.Src), len(f.Definitions), f.Findings, size)
	}
}
