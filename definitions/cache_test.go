package definitions

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"hash/crc32"
	"io"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/projectgen"
)

// stampsOf gives every file of ix a stamp, as the tools give the files
// they stamped.
func stampsOf(ix *Index) map[string]Stamp {
	out := map[string]Stamp{}
	for i, f := range ix.Files() {
		out[f.Path] = Stamp{Size: int64(len(f.Src)), MTime: int64(i), CTime: int64(i), Inode: uint64(i + 1), Seen: int64(i) + int64(time.Hour)}
	}
	return out
}

// saved is SaveCache's bytes for ix.
func saved(t testing.TB, ix *Index, stamps map[string]Stamp) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := SaveCache(&buf, ix, stamps); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// cacheProjects are the projects the round trip runs on: every sample
// project, broken files, and a generated one.
func cacheProjects(t *testing.T) map[string]*Index {
	t.Helper()
	ctx := context.Background()
	out := map[string]*Index{}
	for _, name := range []string{"shop", "refactor-basic", "refactor-conflict", "refactor-style", "run-http", "run-limits"} {
		ix, err := Build(ctx, filepath.Join("..", "testdata", "projects", name))
		if err != nil {
			t.Fatal(err)
		}
		out[name] = ix
	}
	out["broken"] = FromFiles(ctx, map[string][]byte{
		".gitignore":      []byte("build/\n*.gen.ts\n"),
		"lib/.gitignore":  []byte("local.ts\n"),
		"tables/a.ts":     []byte("import { table, text } from 'tent'\nexport const a = table({ columns: { x: text(), y: ref('b'), ...more }, was: ['old'] })\n"),
		"tables/b.ts":     []byte("export const b = table({ columns: { \x00 } })"),
		"tables/c.ts":     []byte("import { table } from 'tent'\nexport const c = table({ columns: { z: text( } })\n"),
		"lib/util.ts":     []byte("export function f(ctx) { return ctx.db.a.insert({ x: 1 }) }\n// a comment naming a\n"),
		"testdata/a.json": []byte(`[{"id": "1", "x": "one", "y": 2}]`),
		"testdata/b.json": []byte(`[{"id": `),
		// Test data of every kind of value, kept with its rows.
		"testdata/c.json": []byte("[{\"id\": \"c-1\", \"n\": -1.5e3, \"ok\": true, \"no\": false, \"none\": null, \"list\": [1, \"two\", [], {}, [null]],\n" +
			"  \"obj\": {\"b\": {\"deep\": [\"x\"]}, \"a\": \"\\u00e9\\n\"}, \"esc\": \"tab\\there\", \"k\\u0065y\": \"\", \"\": \"empty key\", \"é\": \"été\"},\n" +
			"  {}, {\"id\": 7}, {\"id\": \"first\", \"id\": \"last\"}, {\"id\": \"\\ud83d\\ude00\"}]"),
		"testdata/d.json":         []byte("[]"),
		"testdata/e.json":         []byte("\ufeff[{\"id\": \"e-1\"}, 2]"),
		"testdata/f.json":         []byte("\ufeff [ {\"id\" : \"f-1\" , \"x\":{}} ] \n"),
		"screens/home.tsx":        []byte("import { screen } from 'tent/ui'\nexport const home = screen({ path: '/', view: () => <div>{'a'}</div> })\n"),
		"tables/\u00e9t\u00e9.ts": []byte("\ufeffexport const \u00e9t\u00e9 = 1\n"),
	})
	out["generated"] = FromFiles(ctx, projectgen.Generate(projectgen.Options{Tables: 30, Seed: 7}))
	return out
}

// TestCacheRoundTrip checks that an index read back from the cache holds
// exactly what the index that was saved holds (but the syntax trees), and
// that saving it again gives the same bytes.
func TestCacheRoundTrip(t *testing.T) {
	for name, ix := range cacheProjects(t) {
		t.Run(name, func(t *testing.T) {
			stamps := stampsOf(ix)
			data := saved(t, ix, stamps)
			got, gotStamps, err := LoadCache(context.Background(), data)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(gotStamps, stamps) {
				t.Errorf("stamps differ:\n got %v\nwant %v", gotStamps, stamps)
			}
			if len(got.Files()) != len(ix.Files()) {
				t.Fatalf("%d files, want %d", len(got.Files()), len(ix.Files()))
			}
			for i, f := range ix.Files() {
				if why := sameValue(reflect.ValueOf(got.Files()[i]), reflect.ValueOf(f), f.Path); why != "" {
					t.Errorf("%s", why)
				}
				// Test data exactly, nil and empty told apart: rows
				// read back from the cache are what the scanner gives.
				if !reflect.DeepEqual(got.Files()[i].TestData, f.TestData) {
					t.Errorf("%s: test data %+v, want %+v", f.Path, got.Files()[i].TestData, f.TestData)
				}
			}
			if !reflect.DeepEqual(got.ignore.src, ix.ignore.src) {
				t.Errorf("the .gitignore texts differ: %q, want %q", got.ignore.src, ix.ignore.src)
			}
			if again := saved(t, got, gotStamps); !bytes.Equal(again, data) {
				t.Errorf("saving the loaded index gives other bytes (%d, want %d)", len(again), len(data))
			}
			// The loaded files keep their records, which a save copies;
			// encoded anew from what was read they give the same bytes.
			for _, f := range got.Files() {
				if f.record == nil {
					t.Fatalf("%s: loaded without its record", f.Path)
				}
				f.record = nil
				f.words, f.stored = f.Words(), nil
			}
			if again := saved(t, got, gotStamps); !bytes.Equal(again, data) {
				t.Errorf("encoding the loaded index anew gives other bytes (%d, want %d)", len(again), len(data))
			}
		})
	}
}

// TestCacheSaveAfterUpdate checks that a loaded index that was updated
// saves the same bytes as the built index updated alike: the changed
// files are encoded anew, not written from the records they replaced.
func TestCacheSaveAfterUpdate(t *testing.T) {
	ctx := context.Background()
	files := projectgen.Generate(projectgen.Options{Tables: 20, Seed: 3})
	built := FromFilesWith(ctx, files, Options{DropTrees: true})
	stamps := stampsOf(built)
	loaded, _, err := LoadCache(ctx, saved(t, built, stamps))
	if err != nil {
		t.Fatal(err)
	}
	changes := []FileChange{
		{Path: "tables/accounts.ts", Src: append(bytes.Clone(files["tables/accounts.ts"]), "\nexport const added = table({ columns: { x: text() } })\n"...)},
		{Path: "testdata/accounts.json", Src: []byte(`[{"id": "a1"}]`)},
		{Path: "lib/new.ts", Src: []byte("export const n = 1\n")},
	}
	stamps["lib/new.ts"] = Stamp{Size: 1, Inode: 99}
	want := saved(t, built.UpdateFiles(ctx, changes), stamps)
	if got := saved(t, loaded.UpdateFiles(ctx, changes), stamps); !bytes.Equal(got, want) {
		t.Errorf("the updated loaded index saves other bytes (%d) than the updated built one (%d)", len(got), len(want))
	}
}

// sameValue compares what the index computed, field by field: a nil and
// an empty list or map are the same, File.Tree is left out, a file's
// words and lines are compared as File.Words and File.Lines give them, and
// pointers are compared by what they point to. It returns the first
// difference.
func sameValue(a, b reflect.Value, at string) string {
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return at + ": one is nil"
			}
			return ""
		}
		return sameValue(a.Elem(), b.Elem(), at)
	case reflect.Struct:
		for i := range a.NumField() {
			name := a.Type().Field(i).Name
			if name == "Tree" || name == "record" || name == "recordAt" || name == "words" || name == "stored" || name == "refs" || name == "lazy" || name == "lines" || name == "lateLines" {
				continue // a file's words, refs and lines are compared below, as Words, IdentRefs and Lines give them
			}
			if why := sameValue(a.Field(i), b.Field(i), at+"."+name); why != "" {
				return why
			}
		}
		if fa, ok := a.Addr().Interface().(*File); ok {
			fb := b.Addr().Interface().(*File)
			if why := sameValue(reflect.ValueOf(fa.IdentRefs()), reflect.ValueOf(fb.IdentRefs()), at+".IdentRefs"); why != "" {
				return why
			}
			if why := sameValue(reflect.ValueOf(fa.Lines()), reflect.ValueOf(fb.Lines()), at+".Lines"); why != "" {
				return why
			}
			return sameValue(reflect.ValueOf(fa.Words()), reflect.ValueOf(fb.Words()), at+".Words")
		}
		return ""
	case reflect.Slice:
		if a.Len() != b.Len() {
			return at + ": lengths differ"
		}
		for i := range a.Len() {
			if why := sameValue(a.Index(i), b.Index(i), at); why != "" {
				return why
			}
		}
		return ""
	case reflect.Map:
		if a.Len() != b.Len() {
			return at + ": sizes differ"
		}
		for _, k := range a.MapKeys() {
			bv := b.MapIndex(k)
			if !bv.IsValid() {
				return at + ": key missing"
			}
			if why := sameValue(a.MapIndex(k), bv, at); why != "" {
				return why
			}
		}
		return ""
	default:
		if !reflect.DeepEqual(a.Interface(), b.Interface()) {
			return at + ": differs"
		}
		return ""
	}
}

// TestCacheRejects checks that bytes that are no cache of this version —
// cut short, damaged anywhere, another version, empty — are refused with
// an error, never read as an index.
func TestCacheRejects(t *testing.T) {
	ix := cacheProjects(t)["shop"]
	data := saved(t, ix, stampsOf(ix))
	otherVersion := bytes.Clone(data)
	binary.LittleEndian.PutUint32(otherVersion[len(cacheMagic):], CacheVersion+1)
	body := otherVersion[:len(otherVersion)-4]
	binary.LittleEndian.PutUint32(otherVersion[len(otherVersion)-4:], crc32.Checksum(body, castagnoli))
	tests := map[string][]byte{
		"empty":         nil,
		"magic only":    []byte(cacheMagic),
		"other version": otherVersion,
		"cut in half":   data[:len(data)/2],
		"one byte less": data[:len(data)-1],
		"not a cache":   []byte("export const a = 1\n"),
	}
	for _, at := range []int{len(cacheMagic) + 5, len(data) / 3, len(data) - 5} {
		bad := bytes.Clone(data)
		bad[at] ^= 0x40
		tests["flipped byte"] = bad
	}
	// A body that is well summed but makes no sense.
	junk := append([]byte(cacheMagic), 1, 0, 0, 0, 0xff, 0xff, 0xff)
	junk = binary.LittleEndian.AppendUint32(junk, crc32.Checksum(junk, castagnoli))
	tests["nonsense body"] = junk
	for name, data := range tests {
		ix, stamps, err := LoadCache(context.Background(), data)
		if err == nil || ix != nil || stamps != nil {
			t.Errorf("%s: LoadCache = %v, %v, %v; want an error", name, ix, stamps, err)
		} else if !errors.Is(err, errCache) {
			t.Errorf("%s: error %v is no errCache", name, err)
		}
	}
}

// TestCacheKeepsRows checks which test data files the cache keeps with
// their rows (read back without scanning) and which as their text alone
// (read again at load, which finds what reading them found).
func TestCacheKeepsRows(t *testing.T) {
	ix := cacheProjects(t)["broken"]
	got, _, err := LoadCache(context.Background(), saved(t, ix, stampsOf(ix)))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path string
		want int
	}{
		{"testdata/a.json", recordRows},
		{"testdata/b.json", recordText}, // cut short: a T1002 finding
		{"testdata/c.json", recordRows},
		{"testdata/d.json", recordRows},
		{"testdata/e.json", recordText}, // a row that is no object
		{"testdata/f.json", recordRows},
		{"tables/a.ts", recordParsed},
	}
	for _, tt := range tests {
		f := got.File(tt.path)
		if f == nil {
			t.Fatalf("%s: not loaded", tt.path)
		}
		d := &decoder{data: f.record}
		if d.str(); d.uint() != tt.want {
			t.Errorf("%s: record kind %d, want %d", tt.path, d.data[d.off-1], tt.want)
		}
	}
}

// TestCacheWordsKeptAsText checks that a code file whose words do not
// stand under themselves, which the cache's layout assumes (the word is
// the key it is grouped by), is kept as its text and read again at load,
// and that a file's words are read from its record only when asked for.
func TestCacheWordsKeptAsText(t *testing.T) {
	ctx := context.Background()
	files := map[string][]byte{
		"tables/a.ts": []byte("export const a = table({ columns: { b: text() } })\n"),
		"lib/x.ts":    []byte("export function f(ctx) { return ctx.db.a.get('b') } // a b\n"),
	}
	ix := FromFilesWith(ctx, files, Options{DropTrees: true})
	odd := ix.File("lib/x.ts")
	if len(odd.Words()) == 0 {
		t.Fatal("lib/x.ts has no words")
	}
	odd.record = nil // encoded anew, with a word under another key
	for k, ws := range odd.words {
		ws = slices.Clone(ws)
		ws[0].Word = k + "z"
		odd.words[k] = ws
		break
	}
	got, _, err := LoadCache(ctx, saved(t, ix, stampsOf(ix)))
	if err != nil {
		t.Fatal(err)
	}
	d := &decoder{data: got.File("lib/x.ts").record}
	if d.str(); d.uint() != recordText {
		t.Errorf("lib/x.ts: record kind %d, want %d (the text alone)", d.data[d.off-1], recordText)
	}
	if f := got.File("tables/a.ts"); f.stored == nil || f.stored.words != nil {
		t.Errorf("tables/a.ts: words read at load (%v), want them kept as stored until asked for", f.stored)
	}
	want := FromFilesWith(ctx, files, Options{DropTrees: true})
	for _, p := range []string{"lib/x.ts", "tables/a.ts"} {
		if why := sameValue(reflect.ValueOf(got.File(p)), reflect.ValueOf(want.File(p)), p); why != "" {
			t.Errorf("%s", why)
		}
	}
}

// TestCacheLeavesOutUnstamped checks that a file without a stamp is not
// kept: the next process reads it.
func TestCacheLeavesOutUnstamped(t *testing.T) {
	ix := cacheProjects(t)["shop"]
	stamps := stampsOf(ix)
	delete(stamps, "tables/orders.ts")
	got, _, err := LoadCache(context.Background(), saved(t, ix, stamps))
	if err != nil {
		t.Fatal(err)
	}
	if got.File("tables/orders.ts") != nil || len(got.Files()) != len(ix.Files())-1 {
		t.Errorf("an unstamped file is kept: %d files of %d", len(got.Files()), len(ix.Files()))
	}
}

func TestStampRacy(t *testing.T) {
	seen := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC).UnixNano()
	old := seen - int64(time.Hour)
	tests := []struct {
		name  string
		stamp Stamp
		racy  bool
	}{
		{"changed long before", Stamp{MTime: old, CTime: old, Seen: seen}, false},
		{"modified just before", Stamp{MTime: seen - int64(time.Millisecond), CTime: old, Seen: seen}, true},
		{"modification time set back, changed just before", Stamp{MTime: old, CTime: seen - 1, Seen: seen}, true},
		{"at the window's edge", Stamp{MTime: seen - int64(racyWindow), CTime: old, Seen: seen}, true},
		{"just out of the window", Stamp{MTime: seen - int64(racyWindow) - 1, CTime: old, Seen: seen}, false},
		{"times after the stamp (a skewed clock)", Stamp{MTime: seen + int64(time.Hour), CTime: old, Seen: seen}, true},
	}
	for _, tt := range tests {
		if got := tt.stamp.Racy(); got != tt.racy {
			t.Errorf("%s: Racy() = %v, want %v", tt.name, got, tt.racy)
		}
	}
	a := Stamp{Size: 1, MTime: 2, CTime: 3, Inode: 4, Seen: 5}
	for name, b := range map[string]Stamp{
		"size": {Size: 9, MTime: 2, CTime: 3, Inode: 4}, "mtime": {Size: 1, MTime: 9, CTime: 3, Inode: 4},
		"ctime": {Size: 1, MTime: 2, CTime: 9, Inode: 4}, "inode": {Size: 1, MTime: 2, CTime: 3, Inode: 9},
	} {
		if a.Same(b) {
			t.Errorf("stamps that differ in %s are the same", name)
		}
	}
	if !a.Same(Stamp{Size: 1, MTime: 2, CTime: 3, Inode: 4, Seen: 99}) {
		t.Error("when a stamp was taken changes what it stamps")
	}
}

// TestUpdateFiles checks that a batch of changes, one by one or in
// parallel, gives the index that Update gives change by change, and that
// an unreadable file is indexed as Build indexes it.
func TestUpdateFiles(t *testing.T) {
	ctx := context.Background()
	files := projectgen.Generate(projectgen.Options{Tables: 20, Seed: 3})
	ix := FromFiles(ctx, files)
	var paths []string
	for _, f := range ix.Files() {
		if f.Lang == LangTS {
			paths = append(paths, f.Path)
		}
	}
	for _, n := range []int{1, parallelUpdates + 3} {
		var changes []FileChange
		want := ix
		for i := range n {
			p := paths[i*3%len(paths)]
			var c FileChange
			switch i % 3 {
			case 0:
				c = FileChange{Path: p, Src: append(bytes.Clone(files[p]), "\nexport const extra"+p[:2]+" = 1\n"...)}
				want = want.Update(p, c.Src)
			case 1:
				c = FileChange{Path: p, Gone: true}
				want = want.Update(p, nil)
			case 2:
				c = FileChange{Path: p, Err: errors.New("permission denied")}
				want = want.replaced(map[string]*File{p: unreadableFile(p, c.Err)})
			}
			changes = append(changes, c)
		}
		changes = append(changes, FileChange{Path: "README.md", Src: []byte("x")}, FileChange{Path: "gone.ts", Gone: true})
		got := ix.UpdateFiles(ctx, changes)
		if len(got.Files()) != len(want.Files()) {
			t.Fatalf("%d changes: %d files, want %d", n, len(got.Files()), len(want.Files()))
		}
		for i, f := range want.Files() {
			if why := sameValue(reflect.ValueOf(got.Files()[i]), reflect.ValueOf(f), f.Path); why != "" {
				t.Errorf("%d changes: %s", n, why)
			}
		}
		var unreadable int
		for _, f := range got.Findings() {
			if f.Code == diag.T1003 {
				unreadable++
			}
		}
		if wantN := (n + 1) / 3; unreadable != wantN && n > 2 {
			t.Errorf("%d changes: %d T1003 findings, want %d", n, unreadable, wantN)
		}
	}
	if same := ix.UpdateFiles(ctx, []FileChange{{Path: paths[0], Src: files[paths[0]]}}); same != ix {
		t.Error("an unchanged text makes a new snapshot")
	}
}

// The gob layout, for BenchmarkCacheLoadGob: the same data as the cache
// format (typed parts read from the field tree at load) in gob.
type gobFile struct {
	Path     string
	Lang     Lang
	Src      []byte
	Defs     []gobDef
	Imports  []Import
	Exports  []Export
	Refs     []IdentRef
	Words    map[string][]Word
	Uses     Uses
	Findings []diag.Finding
}

type gobDef struct {
	Name, Builder  string
	Kind           Kind
	Stmt, NameSpan Span
	Arg            *Value
}

func gobFiles(ix *Index) []gobFile {
	var out []gobFile
	for _, f := range ix.Files() {
		g := gobFile{Path: f.Path, Lang: f.Lang, Src: f.Src, Imports: f.Imports, Exports: f.Exports, Refs: f.IdentRefs(), Words: f.Words(), Uses: f.Uses, Findings: f.Findings}
		for _, d := range f.Definitions {
			g.Defs = append(g.Defs, gobDef{Name: d.Name, Builder: d.Builder, Kind: d.Kind, Stmt: d.Stmt, NameSpan: d.NameSpan, Arg: d.Arg})
		}
		out = append(out, g)
	}
	return out
}

func benchCacheIndex(b *testing.B) *Index {
	return FromFilesWith(context.Background(), benchProject(b), Options{DropTrees: true})
}

// BenchmarkCacheLoad reads the 1,000-table project's index from the cache
// format: compare with BenchmarkCacheLoadGob (the same data in gob) and
// BenchmarkFromFiles (what the cache saves).
func BenchmarkCacheLoad(b *testing.B) {
	ix := benchCacheIndex(b)
	data := saved(b, ix, stampsOf(ix))
	cpu := startCPU(b)
	for b.Loop() {
		got, _, err := LoadCache(context.Background(), data)
		if err != nil || len(got.Files()) != len(ix.Files()) {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu)
	b.ReportMetric(float64(len(data))/1e6, "MB")
}

// BenchmarkCacheLoadGob is BenchmarkCacheLoad with gob: decode, then read
// each definition's typed part and each file's lines, as LoadCache does.
func BenchmarkCacheLoadGob(b *testing.B) {
	ix := benchCacheIndex(b)
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(gobFiles(ix)); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	cpu := startCPU(b)
	for b.Loop() {
		var gfs []gobFile
		if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&gfs); err != nil {
			b.Fatal(err)
		}
		files := make([]*File, len(gfs))
		for i, g := range gfs {
			f := &File{Path: g.Path, Lang: g.Lang, Src: g.Src, lines: LineStarts(g.Src), Imports: g.Imports, Exports: g.Exports, refs: g.Refs, words: g.Words, Uses: g.Uses, Findings: g.Findings}
			for _, gd := range g.Defs {
				d := &Definition{Name: gd.Name, Builder: gd.Builder, Kind: gd.Kind, Path: g.Path, Stmt: gd.Stmt, NameSpan: gd.NameSpan, Arg: gd.Arg}
				readTyped(d)
				f.Definitions = append(f.Definitions, d)
			}
			files[i] = f
		}
		newIndex(files, &ignoreSet{})
	}
	reportCPU(b, cpu)
	b.ReportMetric(float64(len(data))/1e6, "MB")
}

// BenchmarkCacheSave writes the 1,000-table project's index in the cache
// format: built (every file encoded), built as a one-shot check builds it
// (Options.Lazy: no code words, as a cold check's background save writes
// it), and loaded from the cache with one file changed (the others'
// records copied), as a command that changed a file saves it.
func BenchmarkCacheSave(b *testing.B) {
	ix := benchCacheIndex(b)
	checked := FromFilesWith(context.Background(), benchProject(b), Options{DropTrees: true, Lazy: true})
	stamps := stampsOf(ix)
	loaded, _, err := LoadCache(context.Background(), saved(b, ix, stamps))
	if err != nil {
		b.Fatal(err)
	}
	first := loaded.Files()[0]
	loaded = loaded.UpdateFiles(context.Background(), []FileChange{{Path: first.Path, Src: append(bytes.Clone(first.Src), '\n')}})
	for _, c := range []struct {
		name string
		ix   *Index
	}{{"built", ix}, {"checked", checked}, {"loaded", loaded}} {
		b.Run(c.name, func(b *testing.B) {
			cpu := startCPU(b)
			for b.Loop() {
				// io.Discard: the growth of a buffer of the cache's size
				// would cost more than the encoding measured.
				if err := SaveCache(io.Discard, c.ix, stamps); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu)
		})
	}
}
