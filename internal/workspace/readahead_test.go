package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/rename"
)

// TestRereadReadAhead checks that the pipeline reads the new texts a
// rename's capture check read already only once, and that the snapshot
// after the change is the same as reading every new text anew: with a
// few such files (read one by one) and with more (in parallel), and that a
// read-ahead of another index, or one that the stage does not write whole,
// is not used.
func TestRereadReadAhead(t *testing.T) {
	ctx := context.Background()
	for _, users := range []int{2, 7} {
		t.Run(fmt.Sprintf("%d files", users), func(t *testing.T) {
			dir := copyProject(t, "../../testdata/projects/refactor-basic")
			// Files that use orders and hold the new name already, as
			// text: the capture check reads their new texts.
			for i := range users {
				text := fmt.Sprintf("import { orders } from '../tables/orders'\n\n// purchases %d\nexport const count%d = () => orders\n", i, i)
				if err := os.WriteFile(filepath.Join(dir, "lib", fmt.Sprintf("use%d.ts", i)), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			w, err := New(dir, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			ix, err := w.Index(ctx)
			if err != nil {
				t.Fatal(err)
			}
			s, err := rename.Plan(context.Background(), ix, "orders", "purchases")
			if err != nil {
				t.Fatal(err)
			}
			ra := s.ReadAhead
			if ra == nil || ra.From != ix || len(ra.Paths) < users {
				t.Fatalf("read-ahead %+v; want the %d files that hold purchases", ra, users)
			}
			st, err := w.stageSet(s)
			if err != nil {
				t.Fatal(err)
			}
			st.readAhead = ra
			st.dropUnchanged()
			// What reading every new text anew makes.
			var changes []definitions.FileChange
			for _, f := range st.files {
				changes = append(changes, definitions.FileChange{Path: f.rel, Src: f.data, Gone: f.gone})
			}
			want := answersOf(t, ix.UpdateFiles(ctx, changes))

			next, _, after := reread(ctx, ix, st, w.walkRules())
			if got := answersOf(t, next); got != want {
				t.Fatalf("the snapshot after differs from reading the new texts anew at %s", firstDiff(got, want))
			}
			for _, p := range ra.Paths {
				if next.File(p) != ra.Index.File(p) {
					t.Errorf("%s was read again", p)
				}
				if !slices.Contains(after, ra.Index.File(p)) {
					t.Errorf("%s: the files after are not the ones read ahead", p)
				}
			}

			// A read-ahead of another index is not used.
			other := *ra
			other.From = ix.Update("lib/other.ts", []byte("export const other = 1\n"))
			st.readAhead = &other
			if next, _, _ := reread(ctx, ix, st, w.walkRules()); next.File(ra.Paths[0]) == ra.Index.File(ra.Paths[0]) {
				t.Errorf("a read-ahead of another index was used")
			}
			// Nor one that holds a file the stage does not write.
			extra := *ra
			extra.Paths = append(slices.Clone(ra.Paths), "tables/people.ts")
			st.readAhead = &extra
			next, _, _ = reread(ctx, ix, st, w.walkRules())
			if next.File(ra.Paths[0]) == ra.Index.File(ra.Paths[0]) {
				t.Errorf("a read-ahead of a file the stage does not write was used")
			}
			if got := answersOf(t, next); got != want {
				t.Fatalf("without the read-ahead, the snapshot after differs at %s", firstDiff(got, want))
			}

			// Through the pipeline, the workspace's index is then what a
			// fresh build reads.
			if _, err := w.Apply(ctx, ix, s); err != nil {
				t.Fatal(err)
			}
			fresh, err := definitions.Build(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			ix, err = w.Index(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := answersOf(t, ix), answersOf(t, fresh); got != want {
				t.Fatalf("after the rename, the index differs from a fresh build at %s", firstDiff(got, want))
			}
		})
	}
}
