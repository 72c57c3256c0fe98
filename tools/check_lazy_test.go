package tools

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/internal/projectgen"
	"github.com/tent-tools/tent-tools/internal/sample"
)

// TestCheckLazyThenTools holds a one-shot cold check (ChecksOnly: its
// build leaves out the IdentRefs and code words, and so does the cache it
// saves) to a fresh full build: the check answers the same findings, and
// a later process on the cache it left answers map, rename of a table,
// of a column and of a function, and the check after them, exactly as
// the same calls do on a copy that no lazy check touched, file for file.
func TestCheckLazyThenTools(t *testing.T) {
	ctx := context.Background()
	gen := map[string]string{}
	for p, src := range projectgen.Generate(projectgen.Options{Tables: 12, Seed: 5}) {
		gen[p] = string(src)
	}
	for _, name := range []string{"shop", "refactor-basic", "refactor-style", "screens", "generated"} {
		t.Run(name, func(t *testing.T) {
			copyOf := func() string {
				if name == "generated" {
					dir := t.TempDir()
					sample.Write(t, dir, gen)
					return dir
				}
				return copyProject(t, filepath.Join("..", "testdata", "projects", name))
			}
			lazyDir, fullDir := copyOf(), copyOf()
			open := func(dir string, opts Options) *Workspace {
				w, err := Open(dir, opts)
				if err != nil {
					t.Fatal(err)
				}
				return w
			}
			checkOf := func(w *Workspace) *CheckAnswer {
				a, err := w.Check(ctx, CheckInput{})
				if err != nil {
					t.Fatal(err)
				}
				return a
			}
			// The cold checks: one lazy, one full (a check's first
			// process, but not ChecksOnly).
			lw, fw := open(lazyDir, Options{ChecksOnly: true}), open(fullDir, Options{})
			if got, want := checkOf(lw), checkOf(fw); !reflect.DeepEqual(got, want) {
				t.Fatalf("the lazy cold check found %+v, the full one %+v", got, want)
			}
			lw.Close()
			fw.Close()
			// The lazy check's cache holds no IdentRefs nor words.
			if l, f := fileSize(t, lazyDir, ".tent/index"), fileSize(t, fullDir, ".tent/index"); l >= f {
				t.Fatalf("the lazy check's cache is %d bytes, the full one's %d", l, f)
			}
			ix, err := definitions.Build(ctx, fullDir)
			if err != nil {
				t.Fatal(err)
			}
			var renames []RenameInput
			for _, d := range ix.Definitions() {
				switch {
				case d.Table != nil && len(renames) < 4:
					renames = append(renames, RenameInput{Name: d.Name, To: d.Name + "Renamed"})
					if len(d.Table.Columns) > 0 {
						c := d.Table.Columns[0].Schema.Name
						renames = append(renames, RenameInput{Name: d.Name + "." + c, To: c + "Renamed"})
					}
				case d.Fn != nil && len(renames) < 6:
					renames = append(renames, RenameInput{Name: d.Name, To: d.Name + "Renamed"})
				}
			}
			// A later process on each.
			lw, fw = open(lazyDir, Options{}), open(fullDir, Options{})
			defer lw.Close()
			defer fw.Close()
			lm, err := lw.Map(ctx, MapInput{})
			if err != nil {
				t.Fatal(err)
			}
			fm, err := fw.Map(ctx, MapInput{})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(lm, fm) {
				t.Errorf("map after the lazy check differs from the full build's")
			}
			for _, in := range renames {
				la, lerr := lw.Rename(ctx, in)
				fa, ferr := fw.Rename(ctx, in)
				if (lerr == nil) != (ferr == nil) || !reflect.DeepEqual(la, fa) {
					t.Fatalf("rename %s: after the lazy check %+v (%v), after the full build %+v (%v)", in.Name, la, lerr, fa, ferr)
				}
			}
			// The project's files (.tent/ holds each copy's own stamps).
			got, want := snapshot(t, lazyDir), snapshot(t, fullDir)
			for p := range want {
				if strings.HasPrefix(p, ".tent") {
					continue
				}
				if got[p] != want[p] {
					t.Errorf("the renames left %s other after the lazy check", p)
				}
			}
			for p := range got {
				if _, ok := want[p]; !ok {
					t.Errorf("the renames left %s after the lazy check alone", p)
				}
			}
			if got, want := checkOf(lw), checkOf(fw); !reflect.DeepEqual(got, want) {
				t.Errorf("the check after the renames: %+v, want %+v", got, want)
			}
		})
	}
}

// fileSize is the size of the file rel in dir.
func fileSize(t *testing.T, dir, rel string) int64 {
	t.Helper()
	info, err := os.Stat(filepath.Join(dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	return info.Size()
}
