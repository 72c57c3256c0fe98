package check

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/sample"
)

// everyField is a finding with every field of diag.Finding (and of its
// Fix) set to a value of its own, by reflection: a field added to either
// later that the kept format forgets fails the round trip.
func everyField(t *testing.T, seed int) diag.Finding {
	t.Helper()
	var f diag.Finding
	fill := func(v reflect.Value, n *int) {
		for i := range v.NumField() {
			fv := v.Field(i)
			*n++
			switch fv.Kind() {
			case reflect.String:
				fv.SetString(fmt.Sprintf("%s-%d-ü", v.Type().Field(i).Name, seed**n))
			case reflect.Int:
				fv.SetInt(int64(seed*1000 + *n))
			case reflect.Pointer:
			default:
				t.Fatalf("diag.Finding.%s is a %s: teach the kept format (and this test) to keep it", v.Type().Field(i).Name, fv.Kind())
			}
		}
	}
	n := 0
	fill(reflect.ValueOf(&f).Elem(), &n)
	fx := &diag.Fix{}
	fill(reflect.ValueOf(fx).Elem(), &n)
	f.Fix = fx
	return f
}

func TestKeptRoundTrip(t *testing.T) {
	fs := []diag.Finding{everyField(t, 1), everyField(t, 2), {Code: "T2001", Severity: diag.Error, Path: "a.ts", Line: -1}}
	fs[1].Fix = nil
	files := []KeptFile{
		{Path: ".gitignore", Stamp: definitions.Stamp{Size: 3, MTime: -5, CTime: 1 << 62, Inode: 1<<64 - 1, Seen: 9}, Text: 1<<64 - 3, HasText: true},
		{Path: "tables/a.ts", Stamp: definitions.Stamp{Size: 10, MTime: 20, CTime: 30, Inode: 40, Seen: 50}},
	}
	for _, k := range []Kept{
		{Key: "k", Files: files, Findings: fs},
		{Key: "", Findings: []diag.Finding{}},
		{Key: "k2", Files: files[1:], Findings: fs[:1]},
	} {
		got, err := DecodeKept(k.Encode())
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, k) {
			t.Errorf("round trip:\n got %+v\nwant %+v", got, k)
		}
	}
}

// TestKeptDamaged holds that no kept findings file that is cut, damaged or
// foreign decodes: at every cut and at every flipped byte the answer is an
// error, never findings.
func TestKeptDamaged(t *testing.T) {
	data := Kept{Key: "key", Files: []KeptFile{{Path: "a.ts", Text: 9, HasText: true}, {Path: "b.ts"}}, Findings: []diag.Finding{everyField(t, 3)}}.Encode()
	for n := range len(data) {
		if _, err := DecodeKept(data[:n]); err == nil {
			t.Fatalf("cut at %d of %d bytes: decoded", n, len(data))
		}
	}
	for i := range data {
		bad := append([]byte(nil), data...)
		bad[i] ^= 0x40
		if _, err := DecodeKept(bad); err == nil {
			t.Fatalf("byte %d flipped: decoded", i)
		}
	}
	for _, bad := range [][]byte{nil, []byte("tentfnd\n"), []byte("not kept findings at all, but long enough to hold a sum")} {
		if _, err := DecodeKept(bad); err == nil {
			t.Errorf("%q decoded", bad)
		}
	}
}

// TestKeptFits holds Fits to what it may trust: the same key and stamps,
// and each file kept racy read again to the same text.
func TestKeptFits(t *testing.T) {
	ctx := context.Background()
	files := sample.Load(t, filepath.Join("..", "testdata", "projects", "shop"))
	ix := definitions.FromFiles(ctx, files)
	found := Run(ctx, ix, Options{})
	now := time.Now().UnixNano()
	old := now - int64(time.Hour)
	stamps := map[string]definitions.Stamp{}
	for p := range files {
		stamps[p] = definitions.Stamp{Size: int64(len(files[p])), MTime: old, CTime: old, Inode: 7, Seen: now}
	}
	const p = "tables/orders.ts"
	read := func(q string) ([]byte, error) {
		if src, ok := files[q]; ok {
			return src, nil
		}
		return nil, fs.ErrNotExist
	}

	changed := func(q string) ([]byte, error) {
		if q == p {
			return append([]byte("// changed\n"), files[p]...), nil
		}
		return read(q)
	}
	unreadable := func(q string) ([]byte, error) {
		if q == p {
			return nil, errors.New("gone")
		}
		return read(q)
	}

	k, ok := KeepFindings("key", ix, stamps, found)
	if !ok || len(k.Files) != len(stamps) {
		t.Fatalf("ok %v, %d files kept of %d", ok, len(k.Files), len(stamps))
	}
	k, _ = DecodeKept(k.Encode())
	if !k.Fits("key", stamps, unreadable) {
		t.Error("the same stamps: no fit (or a file read again)")
	}
	if !reflect.DeepEqual(k.Findings, found) {
		t.Error("the kept findings differ from those kept")
	}
	if k.Fits("other key", stamps, read) {
		t.Error("another key fits")
	}
	// A stamp changed: the file is read again, and fits by its text alone.
	for name, change := range map[string]func(map[string]definitions.Stamp){
		"size":  func(m map[string]definitions.Stamp) { s := m[p]; s.Size++; m[p] = s },
		"mtime": func(m map[string]definitions.Stamp) { s := m[p]; s.MTime++; m[p] = s },
		"ctime": func(m map[string]definitions.Stamp) { s := m[p]; s.CTime++; m[p] = s },
		"inode": func(m map[string]definitions.Stamp) { s := m[p]; s.Inode++; m[p] = s },
	} {
		now := clone(stamps)
		change(now)
		if !k.Fits("key", now, read) {
			t.Errorf("a file's %s changed, its text the same: no fit", name)
		}
		if k.Fits("key", now, changed) {
			t.Errorf("a file's %s and text changed: fits", name)
		}
		if k.Fits("key", now, unreadable) {
			t.Errorf("a file's %s changed, unreadable: fits", name)
		}
	}
	for name, change := range map[string]func(map[string]definitions.Stamp){
		"gone": func(m map[string]definitions.Stamp) { delete(m, p) },
		"new":  func(m map[string]definitions.Stamp) { m["tables/new.ts"] = m[p] },
		"renamed": func(m map[string]definitions.Stamp) {
			m["tables/new.ts"] = m[p]
			delete(m, p)
		},
	} {
		now := clone(stamps)
		change(now)
		if k.Fits("key", now, read) {
			t.Errorf("a file %s: fits", name)
		}
	}
	seenLater := clone(stamps)
	for q, s := range seenLater {
		s.Seen += int64(time.Minute)
		seenLater[q] = s
	}
	if !k.Fits("key", seenLater, unreadable) {
		t.Error("the same stamps taken later: no fit")
	}

	// A file changed just before its stamp was taken is read again
	// whatever its stamp: the same stamp with another text does not fit.
	racy := clone(stamps)
	s := racy[p]
	s.MTime, s.CTime = now-int64(time.Millisecond), now-int64(time.Millisecond)
	racy[p] = s
	k, ok = KeepFindings("key", ix, racy, found)
	if !ok {
		t.Fatal("one racy file: not kept")
	}
	k, _ = DecodeKept(k.Encode())
	if !k.Fits("key", racy, read) {
		t.Error("a racy file with its text: no fit")
	}
	if k.Fits("key", racy, changed) {
		t.Error("a racy file changed in the same tick: fits")
	}
	if k.Fits("key", racy, unreadable) {
		t.Error("a racy file that cannot be read: fits")
	}

	// A file of the index without a stamp (read through a link, which
	// the walk does not stamp) keeps nothing.
	unstamped := clone(stamps)
	delete(unstamped, p)
	if _, ok := KeepFindings("key", ix, unstamped, found); ok {
		t.Error("a file of the index without a stamp: kept")
	}

	// A state file (the test database) changed just now is no proof: the
	// findings are not kept.
	withDB := clone(stamps)
	withDB[".tent/test.db"] = definitions.Stamp{Size: 1, MTime: now, CTime: now, Seen: now}
	if _, ok := KeepFindings("key", ix, withDB, found); ok {
		t.Error("a racy test database: kept")
	}
	withDB[".tent/test.db"] = definitions.Stamp{Size: 1, MTime: old, CTime: old, Seen: now}
	k, ok = KeepFindings("key", ix, withDB, found)
	if !ok {
		t.Fatal("a test database left alone: not kept")
	}
	if !k.Fits("key", withDB, read) {
		t.Error("a test database left alone: no fit")
	}
	db := withDB[".tent/test.db"]
	db.MTime++
	withDB[".tent/test.db"] = db
	if k.Fits("key", withDB, read) {
		t.Error("a test database written since (trusted by its stamp alone): fits")
	}
}

func clone(m map[string]definitions.Stamp) map[string]definitions.Stamp {
	out := make(map[string]definitions.Stamp, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
