package runner

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
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

	t.Run("racy when kept", func(t *testing.T) {
		racy := with(func(m map[string]definitions.Stamp) {
			s := m["functions/catalogue.ts"]
			s.MTime = s.Seen - int64(time.Second)
			m["functions/catalogue.ts"] = s
		})
		newRunner(t, root, Config{}).KeepApp(ix, racy)
		r := newRunner(t, root, Config{})
		if _, ok, _ := r.RunStamped(context.Background(), racy, Request{Name: "listProducts"}); ok {
			t.Fatal("a snapshot kept with a racy stamp was used: a second change within the same tick would not show")
		}
	})
}
