package runner

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/definitions"
)

// oldStamps are stamps of the project's files taken long after their last
// change, so that none is racy: what a walk finds in a project left alone.
func oldStamps(t testing.TB, ix *definitions.Index) map[string]definitions.Stamp {
	t.Helper()
	long := time.Now().Add(-time.Hour).UnixNano()
	stamps := map[string]definitions.Stamp{}
	for i, f := range ix.Files() {
		stamps[f.Path] = definitions.Stamp{Size: int64(len(f.Src)), MTime: long, CTime: long, Inode: uint64(i + 1), Seen: time.Now().UnixNano()}
	}
	for p, src := range ix.IgnoreFiles() { // stamped by the walk as well
		stamps[p] = definitions.Stamp{Size: int64(len(src)), MTime: long, CTime: long, Inode: uint64(len(stamps) + 1), Seen: time.Now().UnixNano()}
	}
	return stamps
}

// TestShopRunsFromAppSnapshot runs shop's golden sequence in a runner that
// never sees the index: from the app snapshot another runner kept, on a
// test database built from the snapshot's test data. Every answer is the
// one a run from the index gives.
func TestShopRunsFromAppSnapshot(t *testing.T) {
	root := shopWithProbe(t)
	stamps := oldStamps(t, index(t, root))
	newRunner(t, root, Config{}).KeepApp(index(t, root), stamps)
	if _, err := os.Stat(TestDBPath(root)); err == nil {
		t.Fatal("keeping the app built the test database")
	}
	pay := &fakePayments{}
	r := newRunner(t, root, Config{HTTP: &http.Client{Transport: pay}})
	checkShopRuns(t, pay, func(req Request) (*Result, error) {
		res, ok, err := r.RunStamped(context.Background(), stamps, req)
		if !ok {
			t.Fatalf("%s: the app snapshot was not used", req.Name)
		}
		return res, err
	})
	if r.lastApp != nil {
		t.Error("the runner read an index")
	}
}

// TestAppSnapshotFits: a snapshot is used only where every stamp is the
// one it was made from and none was racy; anything else runs nothing and
// leaves the run to the index.
func TestAppSnapshotFits(t *testing.T) {
	root := project(t, "shop")
	ix := index(t, root)
	kept := oldStamps(t, ix)
	newRunner(t, root, Config{}).KeepApp(ix, kept)
	file := filepath.Join(root, ".tent", CacheDir, appFile)
	good, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	with := func(change func(map[string]definitions.Stamp)) map[string]definitions.Stamp {
		now := map[string]definitions.Stamp{}
		for p, s := range kept {
			now[p] = s
		}
		change(now)
		return now
	}
	cases := []struct {
		name  string
		now   map[string]definitions.Stamp
		bytes []byte // the snapshot's file (nil: as kept)
		fits  bool
	}{
		{"the same stamps", with(func(map[string]definitions.Stamp) {}), nil, true},
		{"a file changed size", with(func(m map[string]definitions.Stamp) { s := m["tables/users.ts"]; s.Size++; m["tables/users.ts"] = s }), nil, false},
		{"a file changed time", with(func(m map[string]definitions.Stamp) {
			s := m["testdata/users.json"]
			s.MTime++
			m["testdata/users.json"] = s
		}), nil, false},
		{"a file replaced", with(func(m map[string]definitions.Stamp) { s := m["engine.ts"]; s.Inode += 1000; m["engine.ts"] = s }), nil, false},
		{"a file added", with(func(m map[string]definitions.Stamp) { m["tables/more.ts"] = m["tables/users.ts"] }), nil, false},
		{"a file gone", with(func(m map[string]definitions.Stamp) { delete(m, "project.ts") }), nil, false},
		{"a cut snapshot", kept, good[:len(good)/2], false},
		{"a damaged snapshot", kept, append([]byte("x"), good[1:]...), false},
		{"a byte changed within", kept, flip(good, len(good)/3), false},
		{"no snapshot", kept, []byte{}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := good
			if c.bytes != nil {
				data = c.bytes
			}
			if err := os.WriteFile(file, data, 0o600); err != nil {
				t.Fatal(err)
			}
			r := newRunner(t, root, Config{})
			res, ok, err := r.RunStamped(context.Background(), c.now, Request{Name: "listProducts"})
			if ok != c.fits {
				t.Fatalf("used = %v, want %v", ok, c.fits)
			}
			if !ok && (res != nil || err != nil || r.db != nil || r.log != nil) {
				t.Fatalf("a snapshot not used still ran: %v, %v", res, err)
			}
			if ok && err != nil {
				t.Fatal(err)
			}
		})
	}

	t.Run("a file without a stamp when kept", func(t *testing.T) {
		// A file read through a link: the walk stamps none.
		unstamped := with(func(m map[string]definitions.Stamp) { delete(m, "tables/users.ts") })
		if err := os.Remove(file); err != nil {
			t.Fatal(err)
		}
		newRunner(t, root, Config{}).KeepApp(ix, unstamped)
		if _, err := os.Stat(file); err == nil {
			t.Error("an app was kept with a file unstamped: a link pointed elsewhere would not show")
		}
		if err := os.WriteFile(file, good, 0o600); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("racy when kept", func(t *testing.T) {
		racy := with(func(m map[string]definitions.Stamp) {
			s := m["functions/catalogue.ts"]
			s.MTime = s.Seen - int64(time.Second)
			m["functions/catalogue.ts"] = s
		})
		if err := os.Remove(file); err != nil {
			t.Fatal(err)
		}
		newRunner(t, root, Config{}).KeepApp(ix, racy)
		if _, err := os.Stat(file); err == nil {
			t.Error("an app was kept with a racy stamp: a second change within the same tick would not show")
		}
		r := newRunner(t, root, Config{})
		if _, ok, _ := r.RunStamped(context.Background(), racy, Request{Name: "listProducts"}); ok {
			t.Fatal("a snapshot was used for a racy stamp")
		}
	})
}

// flip answers a copy of b with the byte at i changed.
func flip(b []byte, i int) []byte {
	out := append([]byte(nil), b...)
	out[i] ^= 0x20
	return out
}

// TestAppCodecRoundTrip: an app read back from its snapshot is the app,
// to the byte of every string (also one that is not UTF-8), and its test
// data too once loaded; a value JSON does not decode to is not kept.
func TestAppCodecRoundTrip(t *testing.T) {
	for _, name := range []string{"shop", "screens", "run-http"} {
		t.Run(name, func(t *testing.T) {
			a := appOf(index(t, project(t, name)))
			if len(a.model.Tables) > 0 {
				c := a.model.Tables[0].Columns[0]
				c.Default = map[string]any{"odd \xff": []any{1.5, "\xfe\x00", nil, true, map[string]any{}}, "e": []any{}}
				a.model.TestData["extra"] = []map[string]any{{"k": "\xc3"}, {}}
			}
			digest := stampsDigest(map[string]definitions.Stamp{"a.ts": {Size: 1}})
			data := encodeApp("key", digest, a)
			if data == nil {
				t.Fatal("not encoded")
			}
			key, gotDigest, b, err := decodeApp(data)
			if err != nil || key != "key" || !bytes.Equal(gotDigest, digest) {
				t.Fatalf("decode: %q %x %v", key, gotDigest, err)
			}
			rows, err := b.model.LoadTestData()
			if err != nil {
				t.Fatal(err)
			}
			b.model.TestData, b.model.LoadTestData = rows, nil
			if len(rows) == 0 {
				b.model.TestData = map[string][]map[string]any{}
			}
			b.encoded, b.snapKey, b.snapDigest = nil, "", nil // what it was read from, for a worker
			if !reflect.DeepEqual(a, b) {
				t.Errorf("read back:\n%#v\nwant\n%#v", b, a)
			}
			for i, tb := range b.model.Tables {
				if b.tables[tb.Name].Schema != tb {
					t.Fatalf("table %d: its definition and the model hold two copies", i)
				}
			}
			a.model.TestData["extra"] = []map[string]any{{"k": int64(1)}}
			if encodeApp("key", digest, a) != nil {
				t.Error("an int64 in test data was kept")
			}
		})
	}
}

// TestPrefetch: a snapshot read ahead serves the run where it fits and is
// dropped where it does not; the app of the last run serves the next one
// of the same files without reading the disk; a runner closed while the
// database opens early keeps nothing open.
func TestPrefetch(t *testing.T) {
	ctx := context.Background()
	root := project(t, "shop")
	ix := index(t, root)
	kept := oldStamps(t, ix)
	newRunner(t, root, Config{}).KeepApp(ix, kept)
	other := map[string]definitions.Stamp{}
	for p, s := range kept {
		s.Size++
		other[p] = s
	}

	r := newRunner(t, root, Config{})
	r.Prefetch()
	if _, ok, err := r.RunStamped(ctx, other, Request{Name: "listProducts"}); ok || err != nil {
		t.Fatalf("stamps that do not fit: used = %v (%v)", ok, err)
	}
	r.Prefetch()
	r.Prefetch() // a second call while the first reads starts nothing more
	if _, ok, err := r.RunStamped(ctx, kept, Request{Name: "listProducts"}); !ok || err != nil {
		t.Fatalf("stamps that fit: used = %v (%v)", ok, err)
	}
	if err := os.Remove(filepath.Join(root, ".tent", CacheDir, appFile)); err != nil {
		t.Fatal(err)
	}
	r.Prefetch()
	if _, ok, err := r.RunStamped(ctx, kept, Request{Name: "listProducts", As: "u1"}); !ok || err != nil {
		t.Fatalf("the same files again: used = %v (%v); want the app of the last run", ok, err)
	}
	if _, ok, _ := r.RunStamped(ctx, other, Request{Name: "listProducts"}); ok {
		t.Fatal("other stamps, no snapshot on the disk: used")
	}

	for range 20 {
		r := newRunner(t, root, Config{})
		r.Prefetch()
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
		r.mu.Lock()
		open := r.db != nil
		r.mu.Unlock()
		if open {
			t.Fatal("a database opened early is open after Close")
		}
	}
}

// TestHeldCache: with the .tent folder held (Config.StateDir), the app
// snapshot and the bundles are written and read through it; a cache
// folder swapped for a link is not read, so no app and no bundle of
// another folder is run.
func TestHeldCache(t *testing.T) {
	ctx := context.Background()
	root := project(t, "shop")
	state := filepath.Join(root, ".tent")
	held := func() (*os.File, error) {
		if err := os.MkdirAll(state, 0o755); err != nil {
			return nil, err
		}
		return os.Open(state)
	}
	ix := index(t, root)
	kept := oldStamps(t, ix)
	r1 := newRunner(t, root, Config{StateDir: held})
	if _, err := r1.Run(ctx, ix, Request{Name: "listProducts"}); err != nil {
		t.Fatal(err)
	}
	r1.KeepApp(ix, kept)

	r2 := newRunner(t, root, Config{StateDir: held})
	if _, ok, err := r2.RunStamped(ctx, kept, Request{Name: "listProducts"}); !ok || err != nil {
		t.Fatalf("through the held folder: used = %v (%v)", ok, err)
	}
	if n := r2.cache.builds.Load(); n != 0 {
		t.Errorf("%d bundles built; want every one read from the cache written through the held folder", n)
	}

	cache, moved := filepath.Join(state, CacheDir), filepath.Join(t.TempDir(), "elsewhere")
	if err := os.Rename(cache, moved); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(moved, cache); err != nil {
		t.Fatal(err)
	}
	r3 := newRunner(t, root, Config{StateDir: held})
	if _, ok, _ := r3.RunStamped(ctx, kept, Request{Name: "listProducts"}); ok {
		t.Fatal("an app snapshot was read from a cache folder that is a link")
	}
	if _, err := r3.Run(ctx, ix, Request{Name: "listProducts"}); err != nil {
		t.Fatal(err)
	}
	if n := r3.cache.builds.Load(); n == 0 {
		t.Error("a bundle was read from a cache folder that is a link")
	}
}
