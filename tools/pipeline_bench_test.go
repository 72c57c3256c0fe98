package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkPipeline measures the change pipeline for a one-line edit
// through Call, in process, on the sample project: the lock, the look for
// changes made outside (a walk that stats every file), the edit, reading
// the file again as definitions, the definition diff, the policy, the
// journal (the new text synced in .tent/tmp/, the point recorded with a
// synced SQLite commit, the rename, the folder synced) and the point.
// The index is warm, as in a host. "unchanged" is the same call with
// nothing to write (no commit), and
// "fsync" one small file written and synced, for scale: a commit costs
// two syncs of a file and one of a folder.
func BenchmarkPipeline(b *testing.B) {
	w, dir := openCopy(b, Options{Caller: "bench", Policy: &Policy{Allow: []string{"**"}, Deny: []string{"lib/vendor/**"}, Ask: []string{"remove:table"}}})
	if _, err := call(w, "edit", editInput("lib/format.ts", "slice(0, 10)", "slice(0, 10)")); err != nil {
		b.Fatal(err) // settles: the starting state
	}
	// A host keeps the index warm (map, check, rename read it); an edit then
	// reads its file again incrementally and updates the cached snapshot.
	if _, err := w.Index(b.Context()); err != nil {
		b.Fatal(err)
	}
	flip := false // b.N runs follow each other on the same files
	b.Run("edit", func(b *testing.B) {
		for range b.N {
			from, to := "slice(0, 10)", "slice(0, 7)"
			if flip {
				from, to = to, from
			}
			flip = !flip
			if _, err := call(w, "edit", editInput("lib/format.ts", from, to)); err != nil {
				b.Fatal(err)
			}
		}
	})
	flipColumn := false
	b.Run("edit a table's column", func(b *testing.B) {
		for range b.N {
			from, to := "total: money()", "total: int()"
			if flipColumn {
				from, to = to, from
			}
			flipColumn = !flipColumn
			if _, err := call(w, "edit", editInput("tables/orders.ts", from, to)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("unchanged", func(b *testing.B) {
		for range b.N {
			if _, err := call(w, "edit", editInput("lib/format.ts", "function shortDate", "function shortDate")); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("fsync", func(b *testing.B) {
		p := filepath.Join(dir, ".tent", "bench")
		for i := range b.N {
			f, err := os.Create(p)
			if err != nil {
				b.Fatal(err)
			}
			fmt.Fprintf(f, "%d\n", i)
			f.Sync()
			f.Close()
		}
	})
}
