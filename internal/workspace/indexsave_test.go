package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tent-tools/tent-tools/definitions"
)

// TestIndexSavesTakeTurns hammers the index cache's save from several
// workspaces over one folder (each its own open file, so their locks
// contend as separate processes' do) while readers read the cache: every
// read finds a whole cache (one of the indexes saved, never a mix nor a
// cut one), no save leaves .tent/index.new behind, and the cache the
// last save leaves is one of them. Run under -race.
func TestIndexSavesTakeTurns(t *testing.T) {
	ctx := context.Background()
	dir := copyProject(t, shopDir)
	const p = "lib/money.ts"
	const writers, saves, readers = 4, 25, 2
	type saver struct {
		w      *Workspace
		ix     *definitions.Index
		stamps map[string]definitions.Stamp
	}
	valid := map[string]bool{}
	var savers []saver
	for i := range writers {
		w, err := New(dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { w.Close() })
		ix, err := w.Index(ctx)
		if err != nil {
			t.Fatal(err)
		}
		w.index.saving.Wait()
		text := fmt.Sprintf("%s// saved by writer %d\n", ix.File(p).Src, i)
		valid[text] = true
		w.index.mu.Lock()
		ix = ix.Update(p, []byte(text))
		stamps := w.index.stamps()
		w.index.mu.Unlock()
		savers = append(savers, saver{w, ix, stamps})
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	errs := make(chan error, readers)
	for range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				data, err := os.ReadFile(filepath.Join(dir, ".tent", "index"))
				if err != nil {
					errs <- fmt.Errorf("read: %w", err)
					return
				}
				ix, _, err := definitions.LoadCache(ctx, data)
				if err != nil {
					errs <- fmt.Errorf("a reader found the cache torn: %w", err)
					return
				}
				if f := ix.File(p); f == nil || !valid[string(f.Src)] && !validFirst(f.Src) {
					errs <- fmt.Errorf("a reader found %s as no writer saved it", p)
					return
				}
			}
		}()
	}
	var writing sync.WaitGroup
	wrote := make([]int, writers)
	for i, s := range savers {
		writing.Add(1)
		go func() {
			defer writing.Done()
			for range saves {
				if s.w.index.write(s.w, s.ix, s.stamps) {
					wrote[i]++
				}
			}
		}()
	}
	writing.Wait()
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	total := 0
	for _, n := range wrote {
		total += n
	}
	if total == 0 {
		t.Fatal("no save wrote the cache")
	}
	if _, err := os.Lstat(filepath.Join(dir, ".tent", "index.new")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf(".tent/index.new left behind (%v)", err)
	}
	data, err := os.ReadFile(filepath.Join(dir, ".tent", "index"))
	if err != nil {
		t.Fatal(err)
	}
	ix, _, err := definitions.LoadCache(ctx, data)
	if err != nil {
		t.Fatalf("the last cache: %v", err)
	}
	if f := ix.File(p); f == nil || !valid[string(f.Src)] {
		t.Errorf("the last cache holds %s as no writer saved it", p)
	}
}

// validFirst reports whether src is the sample's own text of
// lib/money.ts, as the first look of each workspace saved it.
func validFirst(src []byte) bool {
	want, err := os.ReadFile(filepath.Join(shopDir, "lib", "money.ts"))
	return err == nil && string(want) == string(src)
}

// TestKeepFindingsWhole has several workspaces over one folder keep
// findings at once while a reader reads them: every read is one of the
// texts kept, whole, and no temporary file is left in .tent/. Run under
// -race.
func TestKeepFindingsWhole(t *testing.T) {
	dir := copyProject(t, shopDir)
	const writers, rounds = 4, 50
	texts := map[string]bool{}
	var ws []*Workspace
	for i := range writers {
		w, err := New(dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { w.Close() })
		ws = append(ws, w)
		texts[strings.Repeat(fmt.Sprintf("kept by %d;", i), 5000)] = true
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	bad := make(chan string, 1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if data := ws[0].KeptFindings(); data != nil && !texts[string(data)] {
				select {
				case bad <- fmt.Sprintf("a read found %d bytes no writer kept", len(data)):
				default:
				}
				return
			}
		}
	}()
	var writing sync.WaitGroup
	i := 0
	for text := range texts {
		w := ws[i]
		i++
		writing.Add(1)
		go func() {
			defer writing.Done()
			for range rounds {
				w.KeepFindings([]byte(text))
			}
		}()
	}
	writing.Wait()
	close(stop)
	wg.Wait()
	close(bad)
	for msg := range bad {
		t.Error(msg)
	}
	if data := ws[1].KeptFindings(); !texts[string(data)] {
		t.Errorf("the last kept findings are %d bytes no writer kept", len(data))
	}
	entries, err := os.ReadDir(filepath.Join(dir, ".tent"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".new") {
			t.Errorf("left in .tent: %s", e.Name())
		}
	}
}
