package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/tent-tools/tent-tools/internal/durable"
	"github.com/tent-tools/tent-tools/internal/sample"
)

// TestCommitManyFiles commits a change of more than syncFSFrom files in
// four folders through the journal, synced by one syncfs (where the
// platform has it) and by an fsync each: every file holds its new text,
// the point names them all, and .tent/tmp/ is left empty.
func TestCommitManyFiles(t *testing.T) {
	platform := syncWholeFS
	t.Cleanup(func() { syncWholeFS = platform })
	for _, mode := range []string{"syncfs", "fsync each"} {
		t.Run(mode, func(t *testing.T) {
			syncWholeFS = platform
			if mode == "fsync each" {
				syncWholeFS = func() bool { return false }
			}
			if mode == "syncfs" && !durable.WholeFS() {
				t.Logf("no syncfs here: each file is synced")
			}
			const n = 2*syncFSFrom + 3
			texts := map[string]string{}
			for i := range n {
				texts[fmt.Sprintf("d%d/f%d.txt", i%4, i)] = fmt.Sprintf("old %d\n", i)
			}
			w, dir := openFiles(t, texts)
			view, release, err := w.Enter(t.Context(), "test", true)
			if err != nil {
				t.Fatal(err)
			}
			defer release()
			st := &Stage{Summary: "many"}
			for p, text := range texts {
				st.put(p, []byte(text), true, 0o644, []byte("new "+text))
			}
			point, err := view.commitFiles(t.Context(), st, nil)
			if err != nil {
				t.Fatal(err)
			}
			for p, text := range texts {
				got, err := os.ReadFile(filepath.Join(dir, p))
				if err != nil || string(got) != "new "+text {
					t.Errorf("%s holds %q (%v); want the new text", p, got, err)
				}
			}
			hs, err := view.HistoryStore(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			p, err := hs.At(t.Context(), point)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Files) != n {
				t.Errorf("point %d names %d files; want %d", point, len(p.Files), n)
			}
			sample.NoTemps(t, dir)
		})
	}
}
