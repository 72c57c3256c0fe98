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
	for _, k := range []Kept{
		{Key: "k", Stamps: []byte{1, 2, 3}, Findings: fs},
		{Key: "", Stamps: nil, Findings: []diag.Finding{}},
		{Key: "k2", Stamps: []byte("digest"), Texts: map[string][32]byte{"a.ts": {1}, "b/.gitignore": {2, 3}}, Findings: fs[:1]},
	} {
		got, err := DecodeKept(k.Encode())
		if err != nil {
			t.Fatal(err)
		}
		if len(k.Stamps) == 0 {
			k.Stamps = []byte{}
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
	data := Kept{Key: "key", Stamps: []byte("digest"), Texts: map[string][32]byte{"a.ts": {9}}, Findings: []diag.Finding{everyField(t, 3)}}.Encode()
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

	k, ok := KeepFindings("key", ix, stamps, found)
	if !ok || len(k.Texts) != 0 {
		t.Fatalf("nothing racy: ok %v, %d texts kept", ok, len(k.Texts))
	}
	k, _ = DecodeKept(k.Encode())
	if !k.Fits("key", stamps, read) {
		t.Error("the same stamps: no fit")
	}
	if !reflect.DeepEqual(k.Findings, found) {
		t.Error("the kept findings differ from those kept")
	}
	if k.Fits("other key", stamps, read) {
		t.Error("another key fits")
	}
	for name, change := range map[string]func(map[string]definitions.Stamp){
		"size":  func(m map[string]definitions.Stamp) { s := m[p]; s.Size++; m[p] = s },
		"mtime": func(m map[string]definitions.Stamp) { s := m[p]; s.MTime++; m[p] = s },
		"ctime": func(m map[string]definitions.Stamp) { s := m[p]; s.CTime++; m[p] = s },
		"inode": func(m map[string]definitions.Stamp) { s := m[p]; s.Inode++; m[p] = s },
		"gone":  func(m map[string]definitions.Stamp) { delete(m, p) },
		"new":   func(m map[string]definitions.Stamp) { m["tables/new.ts"] = m[p] },
	} {
		now := clone(stamps)
		change(now)
		if k.Fits("key", now, read) {
			t.Errorf("a file's %s changed: fits", name)
		}
	}
	seenLater := clone(stamps)
	for q, s := range seenLater {
		s.Seen += int64(time.Minute)
		seenLater[q] = s
	}
	if !k.Fits("key", seenLater, read) {
		t.Error("the same stamps taken later: no fit")
	}

	// A file changed just before its stamp was taken is kept by its text,
	// and read again: the same stamp with another text does not fit.
	racy := clone(stamps)
	s := racy[p]
	s.MTime, s.CTime = now-int64(time.Millisecond), now-int64(time.Millisecond)
	racy[p] = s
	k, ok = KeepFindings("key", ix, racy, found)
	if !ok || len(k.Texts) != 1 {
		t.Fatalf("one racy file: ok %v, texts %v", ok, k.Texts)
	}
	k, _ = DecodeKept(k.Encode())
	if !k.Fits("key", racy, read) {
		t.Error("a racy file with its text: no fit")
	}
	changed := func(q string) ([]byte, error) {
		if q == p {
			return append([]byte("// same tick\n"), files[p]...), nil
		}
		return read(q)
	}
	if k.Fits("key", racy, changed) {
		t.Error("a racy file changed in the same tick: fits")
	}
	unreadable := func(q string) ([]byte, error) {
		if q == p {
			return nil, errors.New("gone")
		}
		return read(q)
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
	if _, ok := KeepFindings("key", ix, withDB, found); !ok {
		t.Error("a test database left alone: not kept")
	}
}

func clone(m map[string]definitions.Stamp) map[string]definitions.Stamp {
	out := make(map[string]definitions.Stamp, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
