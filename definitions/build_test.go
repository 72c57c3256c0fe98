package definitions

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/projectgen"
	"github.com/tent-tools/tent-tools/internal/sample"
)

// writeTree writes files (slash paths) under a new temporary folder.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	sample.Write(t, root, files)
	return root
}

func paths(ix *Index) string {
	var out []string
	for _, f := range ix.Files() {
		out = append(out, f.Path)
	}
	return strings.Join(out, " ")
}

const oneTable = "import { table, text } from 'tent'\nexport const %s = table({ columns: { a: text() } })\n"

func TestBuildSkips(t *testing.T) {
	root := writeTree(t, map[string]string{
		"project.ts":               "import { project } from 'tent'\nexport default project({ name: 'x' })\n",
		"tables/a.ts":              fmt.Sprintf(oneTable, "a"),
		"screens/s.tsx":            "export const s = 1\n",
		".tent/state.ts":           fmt.Sprintf(oneTable, "no1"),
		".git/x.ts":                fmt.Sprintf(oneTable, "no2"),
		"node_modules/m/index.ts":  fmt.Sprintf(oneTable, "no3"),
		"lib/node_modules/m.ts":    fmt.Sprintf(oneTable, "no4"),
		"dist/a.ts":                fmt.Sprintf(oneTable, "no5"),
		"tent.d.ts":                "declare const x: 1\n",
		"tent.clash.ts":            "export {}\n",
		"mcp.lock.json":            "{}",
		".gitignore":               "# build output\nsecret/\n*.gen.ts\n",
		"secret/s.ts":              fmt.Sprintf(oneTable, "no6"),
		"tables/b.gen.ts":          fmt.Sprintf(oneTable, "no7"),
		"lib/.gitignore":           "local.ts\n",
		"lib/local.ts":             fmt.Sprintf(oneTable, "no8"),
		"lib/kept.ts":              "export const k = 1\n",
		"tables/local.ts":          fmt.Sprintf(oneTable, "local"),
		"testdata/a.json":          `[{"id": "1", "a": "x"}]`,
		"testdata/nested/b.json":   `[]`,
		"other.json":               `[]`,
		"README.md":                "# x",
		"functions/notes.txt":      "x",
		"functions/legacy.js":      "export const j = 1",
		"screens/.hidden/okay.tsx": "export const h = 1\n",
	})
	ix, err := Build(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	want := "lib/kept.ts project.ts screens/.hidden/okay.tsx screens/s.tsx tables/a.ts tables/local.ts testdata/a.json"
	if got := paths(ix); got != want {
		t.Errorf("files\n got %s\nwant %s", got, want)
	}
	if len(ix.Findings()) != 0 {
		t.Errorf("findings: %v", ix.Findings())
	}
	if ix.Project() == nil || ix.Definition("a") == nil || ix.Definition("local") == nil {
		t.Error("definitions missing")
	}
	// Update honours the .gitignore files that Build read.
	if next := ix.Update("secret/new.ts", []byte("export const x = 1")); next != ix {
		t.Error("Update indexed a path that .gitignore names")
	}
	if next := ix.Update("lib/local.ts", []byte("export const x = 1")); next != ix {
		t.Error("Update indexed a path that lib/.gitignore names")
	}
}

func TestBuildLinksAndPipes(t *testing.T) {
	root := writeTree(t, map[string]string{
		"tables/real.ts": fmt.Sprintf(oneTable, "real"),
	})
	if err := syscall.Mkfifo(filepath.Join(root, "tables", "pipe.ts"), 0o644); err != nil {
		t.Skipf("no pipes here: %v", err)
	}
	for link, target := range map[string]string{
		"lib/inside.ts": "../tables/real.ts",
		"lib/pipe.ts":   "../tables/pipe.ts",
		"lib/dir":       "../tables",
	} {
		full := filepath.Join(root, filepath.FromSlash(link))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, full); err != nil {
			t.Skipf("no symlinks here: %v", err)
		}
	}
	ix, err := Build(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := paths(ix), "lib/inside.ts lib/pipe.ts tables/real.ts"; got != want {
		t.Errorf("files\n got %s\nwant %s", got, want)
	}
	if f := ix.File("lib/inside.ts"); f == nil || len(f.Definitions) != 1 {
		t.Errorf("a link inside the project is not read")
	}
	var codes []string
	for _, fd := range ix.Findings() {
		codes = append(codes, fd.Path+" "+fd.Code)
	}
	if got := strings.Join(codes, ", "); got != "lib/pipe.ts T1003" {
		t.Errorf("findings %s, want one T1003 for the link to a pipe", got)
	}
}

func TestCleanPath(t *testing.T) {
	tests := map[string]string{
		"tables/a.ts": "tables/a.ts", "./tables/a.ts": "tables/a.ts", "tables//x/../a.ts": "tables/a.ts",
		"": "", ".": "", "..": "", "../a.ts": "", "a/../../b.ts": "", "/etc/passwd": "",
	}
	for in, want := range tests {
		if got := cleanPath(in); got != want {
			t.Errorf("cleanPath(%q) = %q, want %q", in, got, want)
		}
	}
	ix := FromFiles(context.Background(), map[string][]byte{"../out.ts": []byte("export const a = 1"), "/abs.ts": []byte("x")})
	if len(ix.Files()) != 0 {
		t.Errorf("paths out of the root were indexed: %s", paths(ix))
	}
	if ix.Update("../out.ts", []byte("x")) != ix {
		t.Error("Update indexed a path out of the root")
	}
}

func TestBuildRoots(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.ts")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, root := range []string{file, filepath.Join(dir, "missing")} {
		ix, err := Build(context.Background(), root)
		var te *diag.ToolError
		if ix != nil || !errors.As(err, &te) || te.Code != diag.T9103 {
			t.Errorf("Build(%s) = %v, %v; want a T9103 error", root, ix, err)
		}
	}
	empty := t.TempDir()
	ix, err := Build(context.Background(), empty)
	if err != nil {
		t.Fatalf("empty folder: %v", err)
	}
	if len(ix.Files()) != 0 || len(ix.Definitions()) != 0 || ix.Project() != nil || ix.Engine() != nil || len(ix.Findings()) != 0 {
		t.Errorf("empty folder gave files %q", paths(ix))
	}
	if _, _, err := ix.Lookup("orders"); err == nil || err.Code != diag.T9103 {
		t.Errorf("Lookup on an empty index: %v", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Build(ctx, writeTree(t, map[string]string{"a.ts": "export const a = 1"})); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Build: %v", err)
	}
}

func TestBuildBrokenFiles(t *testing.T) {
	t.Parallel()
	// A file of generated data near the 1 MB bound (a larger one is
	// T1004: TestOversizeFiles), with a definition after it.
	var big strings.Builder
	big.WriteString("export const data = [\n")
	for i := 0; big.Len() < MaxIndexed-2000; i++ {
		fmt.Fprintf(&big, "  { id: 'row-%07d', name: 'a generated name that is long enough', n: %d },\n", i, i)
	}
	big.WriteString("]\n" + fmt.Sprintf(oneTable, "afterData"))
	garbage := strings.Repeat("}{)(][ @# ", 256<<10/10)
	root := writeTree(t, map[string]string{
		"tables/big.ts":     big.String(),
		"lib/garbage.ts":    garbage,
		"lib/binary.ts":     "\x7fELF\x02\x01\x01\x00\x00\x00",
		"lib/latin1.tsx":    "export const caf\xe9 = 1\n",
		"tables/bom.ts":     "\ufeff" + fmt.Sprintf(oneTable, "bom"),
		"testdata/bad.json": "\xff\xfe[]",
		"testdata/bom.json": "\ufeff[{\"id\": \"1\"}]",
	})
	if err := os.Symlink(filepath.Join(t.TempDir(), "outside.ts"), filepath.Join(root, "lib", "out.ts")); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	start := time.Now()
	ix, err := Build(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("built in %v", time.Since(start))
	byPath := map[string][]string{}
	for _, fd := range ix.Findings() {
		byPath[fd.Path] = append(byPath[fd.Path], fd.Code)
	}
	if d := ix.Definition("afterData"); d == nil || d.Path != "tables/big.ts" || len(byPath["tables/big.ts"]) != 0 {
		t.Errorf("a 1 MB file: definition %+v, findings %v", d, byPath["tables/big.ts"])
	}
	if n := len(byPath["lib/garbage.ts"]); n == 0 || n > 20 {
		t.Errorf("garbage file: %d findings, want 1 to 20", n)
	}
	for _, p := range []string{"lib/binary.ts", "lib/latin1.tsx", "testdata/bad.json", "lib/out.ts"} {
		if got := strings.Join(byPath[p], " "); got != diag.T1003 {
			t.Errorf("%s: findings %q, want T1003", p, got)
		}
	}
	if d := ix.Definition("bom"); d == nil || string(ix.File("tables/bom.ts").Src[d.NameSpan.Start:d.NameSpan.End]) != "bom" {
		t.Errorf("BOM file: %+v", d)
	}
	if td := ix.File("testdata/bom.json").TestData; td == nil || len(td.Rows) != 1 || td.Rows[0].ID != "1" {
		t.Errorf("BOM test data: %+v", td)
	}
	for _, p := range []string{"tables/bom.ts", "testdata/bom.json"} {
		if fs := byPath[p]; len(fs) != 0 {
			t.Errorf("%s: findings %v", p, fs)
		}
	}
}

func TestBuildShop(t *testing.T) {
	ix, err := Build(context.Background(), filepath.Join("..", "testdata", "projects", "shop"))
	if err != nil {
		t.Fatal(err)
	}
	if fs := ix.Findings(); len(fs) != 0 {
		t.Errorf("the sample project reads with findings: %v", fs)
	}
	kinds := map[Kind]int{}
	for _, d := range ix.Definitions() {
		kinds[d.Kind]++
	}
	if kinds[KindTable] < 5 || kinds[KindFn] < 8 || kinds[KindFlow] < 2 || kinds[KindScreen] < 3 || kinds[KindProject] != 1 || kinds[KindEngine] != 1 {
		t.Errorf("shop definitions by kind: %v", kinds)
	}
	// Build and FromFiles over the same texts agree.
	files := map[string][]byte{}
	for _, f := range ix.Files() {
		files[f.Path] = f.Src
	}
	if got, want := dumpIndex(FromFiles(context.Background(), files)), dumpIndex(ix); got != want {
		t.Error("FromFiles and Build disagree on the sample project")
	}
}

// TestCacheRecordsMatchSave checks that the records a build makes as it
// reads (Options.CacheRecords) are what SaveCache encodes for the same
// files, once the index's views are made too: a save that copies them
// writes the bytes that one that encodes every file writes.
func TestCacheRecordsMatchSave(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	broken := map[string][]byte{
		".gitignore":        []byte("build/\n"),
		"tables/a.ts":       []byte("import { table, text } from 'tent'\nexport const a = table({ columns: { x: text(), y: ref('b'), ...more }, was: ['old'] })\n"),
		"tables/c.ts":       []byte("import { table } from 'tent'\nexport const c = table({ columns: { z: text( } })\n"),
		"lib/binary.ts":     []byte("\x7fELF\x02\x01\x01\x00\x00\x00"),
		"lib/util.ts":       []byte("export function f(ctx) { return ctx.db.a.insert({ x: 1 }) }\n// a comment naming a\n"),
		"testdata/a.json":   []byte(`[{"id": "1", "x": "one", "y": 2}]`),
		"testdata/b.json":   []byte(`[{"id": `),
		"testdata/bad.json": []byte("\xff\xfe[]"),
		"screens/home.tsx":  []byte("import { screen } from 'tent/ui'\nexport const home = screen({ path: '/', view: () => <div>{'a'}</div> })\n"),
		"tables/\u00e9t.ts": []byte("\ufeffexport const \u00e9t = 1\n"),
	}
	build := map[string]func(Options) *Index{
		"broken": func(o Options) *Index { return FromFilesWith(ctx, broken, o) },
		"generated": func(o Options) *Index {
			return FromFilesWith(ctx, projectgen.Generate(projectgen.Options{Tables: 30, Seed: 7}), o)
		},
	}
	for _, name := range []string{"shop", "refactor-basic", "run-http"} {
		build[name] = func(o Options) *Index {
			ix, err := BuildWith(ctx, filepath.Join("..", "testdata", "projects", name), o)
			if err != nil {
				t.Fatal(err)
			}
			return ix
		}
	}
	for name, build := range build {
		t.Run(name, func(t *testing.T) {
			encoded := build(Options{DropTrees: true})
			recorded := build(Options{DropTrees: true, CacheRecords: true})
			for _, ix := range []*Index{encoded, recorded} {
				ix.Findings()
				for _, d := range ix.Definitions() {
					ix.Places(d.Name)
				}
			}
			for _, f := range recorded.Files() {
				// An unreadable file (T1003) has no record.
				if wantRecord := len(f.Findings) == 0 || f.Findings[0].Code != diag.T1003; (f.record != nil) != wantRecord {
					t.Errorf("%s: record made %v, want %v", f.Path, f.record != nil, wantRecord)
				}
			}
			stamps := stampsOf(encoded)
			if !reflect.DeepEqual(stamps, stampsOf(recorded)) {
				t.Fatal("the two builds hold other files")
			}
			if got, want := saved(t, recorded, stamps), saved(t, encoded, stamps); !bytes.Equal(got, want) {
				t.Errorf("saving the recorded build wrote %d bytes unlike the %d of the encoded one", len(got), len(want))
			}
		})
	}
}

// TestRecordsHoldTextAndWords checks that a file built with its cache
// record (Options.CacheRecords) keeps its code words in the record, not
// in copies beside it, its record beside its text (File.recordAt: no
// copy of the text in the record, nor of the record's text in Src), and
// reads the same as a file built without: the same index, the same
// words in the same order.
func TestRecordsHoldTextAndWords(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	files := projectgen.Generate(projectgen.Options{Tables: 30, Seed: 7})
	plain := FromFilesWith(ctx, files, Options{DropTrees: true})
	recorded := FromFilesWith(ctx, files, Options{DropTrees: true, CacheRecords: true})
	if got, want := dumpIndex(recorded), dumpIndex(plain); got != want {
		t.Fatalf("the index built with records differs\n--- with\n%s\n--- without\n%s", got, want)
	}
	shared := 0
	for _, f := range recorded.Files() {
		p := plain.File(f.Path)
		if len(f.Src) > 0 && (f.recordAt == 0 || within(f.Src, f.record)) {
			t.Errorf("%s: the record holds a copy of the text (recordAt %d)", f.Path, f.recordAt)
		}
		if f.stored != nil {
			shared++
			if !within(f.stored.data, f.record) {
				t.Errorf("%s: the words are kept beside the record", f.Path)
			}
		}
		if got, want := f.Words(), p.Words(); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the words read from the record differ\n got %v\nwant %v", f.Path, got, want)
		}
	}
	if shared == 0 {
		t.Error("no file keeps its words in its record")
	}
}

// TestReadBack checks that a file kept as read back from its record
// (Options.ReadBack) reads the same as a file kept as parsed, that its
// names point into the record, and that a tree the build keeps stays.
func TestReadBack(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	files := projectgen.Generate(projectgen.Options{Tables: 30, Seed: 7})
	for _, drop := range []bool{true, false} {
		plain := FromFilesWith(ctx, files, Options{DropTrees: drop})
		back := FromFilesWith(ctx, files, Options{DropTrees: drop, CacheRecords: true, ReadBack: true})
		if got, want := dumpIndex(back), dumpIndex(plain); got != want {
			t.Fatalf("drop trees %v: the index read back differs\n--- read back\n%s\n--- parsed\n%s", drop, got, want)
		}
		names := 0
		for _, f := range back.Files() {
			p := plain.File(f.Path)
			if got, want := f.Words(), p.Words(); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: the words read back differ\n got %v\nwant %v", f.Path, got, want)
			}
			if (f.Tree != nil) != (p.Tree != nil) {
				t.Errorf("drop trees %v: %s: tree kept %v, parsed %v", drop, f.Path, f.Tree != nil, p.Tree != nil)
			}
			for _, d := range f.Definitions {
				if !within(unsafe.Slice(unsafe.StringData(d.Name), len(d.Name)), f.record) {
					t.Errorf("%s: the name %s is kept beside the record", f.Path, d.Name)
				}
				names++
			}
		}
		if names == 0 {
			t.Error("no definitions read back")
		}
	}
}

// within reports whether part lies in whole's array.
func within(part, whole []byte) bool {
	if len(part) == 0 || len(whole) == 0 {
		return false
	}
	p, w := unsafe.Pointer(unsafe.SliceData(part)), unsafe.Pointer(unsafe.SliceData(whole))
	return uintptr(p) >= uintptr(w) && uintptr(p)+uintptr(len(part)) <= uintptr(w)+uintptr(len(whole))
}
