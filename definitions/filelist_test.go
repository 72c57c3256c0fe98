package definitions

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestFileList: a list made by random replacements, insertions and
// deletions (past the fold of its replacements, and from lists whose
// whole copy was made) answers each place, path and its whole list as a
// plain list made the same way does; an older list is never changed.
func TestFileList(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var plain []*File
	for i := range 40 {
		plain = append(plain, &File{Path: fmt.Sprintf("f%03d.ts", i*2)})
	}
	l := newFileList(slices.Clone(plain))
	type kept struct {
		l     *fileList
		plain []*File
	}
	var old []kept
	for step := range 3000 {
		switch op := rng.IntN(100); {
		case op < 5 && len(plain) > 1:
			i := rng.IntN(len(plain))
			l, plain = l.deleted(i), slices.Delete(slices.Clone(plain), i, i+1)
		case op < 10:
			p := fmt.Sprintf("f%03d.ts", rng.IntN(100))
			i, found := l.search(p)
			if found {
				continue
			}
			f := &File{Path: p}
			l, plain = l.inserted(i, f), slices.Insert(slices.Clone(plain), i, f)
		default:
			i := rng.IntN(len(plain))
			f := &File{Path: plain[i].Path}
			l = l.replaced(i, f)
			plain = slices.Clone(plain)
			plain[i] = f
		}
		if rng.IntN(8) == 0 {
			l.all() // a reader of every file, before the next change
		}
		if rng.IntN(50) == 0 {
			old = append(old, kept{l, plain})
		}
		if l.len() != len(plain) {
			t.Fatalf("step %d: len %d, want %d", step, l.len(), len(plain))
		}
		for i, f := range plain {
			if l.at(i) != f {
				t.Fatalf("step %d: at(%d) is not the file", step, i)
			}
			if at, found := l.search(f.Path); !found || at != i {
				t.Fatalf("step %d: search(%s) = %d, %v; want %d", step, f.Path, at, found, i)
			}
		}
		if !slices.Equal(l.all(), plain) {
			t.Fatalf("step %d: all() differs", step)
		}
	}
	for _, k := range old {
		if !slices.Equal(k.l.all(), k.plain) {
			t.Fatal("an older list changed")
		}
	}
}
