package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/sample"
)

// swapsIn reports whether the filesystem of the folder dir swaps two
// names (renameat2 with RENAME_EXCHANGE; overlayfs and NFS may refuse),
// trying it on two files of its own there.
func swapsIn(t testing.TB, dir string) bool {
	t.Helper()
	a, b := filepath.Join(dir, "swap-a"), filepath.Join(dir, "swap-b")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		defer os.Remove(p)
	}
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	if err != nil {
		t.Logf("this filesystem swaps no names (%v): commits rename and keep no spare", err)
	}
	return err == nil
}

// spareFiles answers the spares in dir's .tent/tmp/, by name, with each
// one's inode; it fails t where .tent/tmp/ holds anything else.
func spareFiles(t *testing.T, dir string) map[string]uint64 {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dir, ".tent", "tmp"))
	if err != nil {
		t.Fatal(err)
	}
	spares := map[string]uint64{}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		if !isSpareName(e.Name()) || !info.Mode().IsRegular() {
			t.Errorf(".tent/tmp/%s (%v) is no spare", e.Name(), info.Mode())
			continue
		}
		spares[e.Name()] = info.Sys().(*syscall.Stat_t).Ino
	}
	return spares
}

// inodeOf answers the inode of the file p.
func inodeOf(t *testing.T, p string) uint64 {
	t.Helper()
	info, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	return info.Sys().(*syscall.Stat_t).Ino
}

// commitTexts commits the files of texts (path -> new text; "" deletes)
// through the journal, in one change, and fails t where it fails.
func commitTexts(t *testing.T, w *Workspace, dir string, texts map[string]string) {
	t.Helper()
	if err := tryCommit(t, w, dir, texts); err != nil {
		t.Fatal(err)
	}
}

// tryCommit commits the files of texts as commitTexts does and answers
// the error.
func tryCommit(t *testing.T, w *Workspace, dir string, texts map[string]string) error {
	t.Helper()
	view, release, err := w.Enter(t.Context(), "test", true)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	_, err = view.commitFiles(t.Context(), stageOf(t, dir, texts), nil)
	return err
}

// stageOf stages the files of texts (path -> new text; "" deletes) over
// what dir holds.
func stageOf(t *testing.T, dir string, texts map[string]string) *Stage {
	t.Helper()
	st := &Stage{Summary: "test"}
	paths := make([]string, 0, len(texts))
	for p := range texts {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		old, err := os.ReadFile(filepath.Join(dir, p))
		existed := err == nil
		if texts[p] == "" {
			st.delete(p, old, 0o644)
			continue
		}
		st.put(p, old, existed, 0o644, []byte(texts[p]))
	}
	return st
}

// wantTexts fails t where a file of dir does not hold its text of texts
// ("": the file is gone).
func wantTexts(t *testing.T, dir string, texts map[string]string) {
	t.Helper()
	for p, text := range texts {
		got, err := os.ReadFile(filepath.Join(dir, p))
		switch {
		case text == "" && !errors.Is(err, fs.ErrNotExist):
			t.Errorf("%s is there (%v); want it gone", p, err)
		case text != "" && (err != nil || string(got) != text):
			t.Errorf("%s holds %q (%v); want %q", p, got, err, text)
		}
	}
}

// textsOf answers n files in two folders, each text named by round.
func textsOf(n int, round string) map[string]string {
	texts := map[string]string{}
	for i := range n {
		texts[fmt.Sprintf("d%d/f%d.ts", i%2, i)] = strings.Repeat(fmt.Sprintf("export const v%d = %q\n", i, round), 1+i%5)
	}
	return texts
}

// TestSpares commits changes of a few files one after another: where the
// platform swaps names, each replaced file's old one is kept as a spare in
// .tent/tmp/ and the next commit writes its texts into the spares (the
// files then have the spares' inodes), creating none; where the
// filesystem refuses to swap, every commit renames, keeps no spare, and
// asks the filesystem only once.
func TestSpares(t *testing.T) {
	for _, mode := range []string{"swap", "refused"} {
		t.Run(mode, func(t *testing.T) {
			const n = 12
			w, dir := openFiles(t, textsOf(n, "0"))
			var asked atomic.Int32
			if mode == "refused" {
				platform := exchange
				t.Cleanup(func() { exchange = platform; w.noExchange.Store(false) })
				exchange = func(*dirHandle, string, *dirHandle, string) error {
					asked.Add(1)
					return unix.EINVAL
				}
			}
			swaps := mode == "swap" && swapsIn(t, filepath.Dir(dir))

			one := textsOf(n, "one")
			one["d0/new.ts"] = "export const added = 1\n" // a new file: nothing to swap with
			commitTexts(t, w, dir, one)
			wantTexts(t, dir, one)
			spares := spareFiles(t, dir)
			if want := map[bool]int{true: n, false: 0}[swaps]; len(spares) != want {
				t.Fatalf("%d spares after the first commit; want %d", len(spares), want)
			}
			two := textsOf(n, "two")
			two["d0/new.ts"] = "" // deleted
			commitTexts(t, w, dir, two)
			wantTexts(t, dir, two)
			if swaps {
				inodes := map[uint64]bool{}
				for _, ino := range spares {
					inodes[ino] = true
				}
				for p := range textsOf(n, "") {
					if !inodes[inodeOf(t, filepath.Join(dir, p))] {
						t.Errorf("%s was not written into a spare", p)
					}
				}
				if got := spareFiles(t, dir); len(got) != n {
					t.Errorf("%d spares after the second commit; want %d", len(got), n)
				}
			} else if got := spareFiles(t, dir); len(got) != 0 {
				t.Errorf("%d spares where no name was swapped", len(got))
			}
			if mode == "refused" && asked.Load() != 1 {
				t.Errorf("the filesystem was asked to swap %d times; want once", asked.Load())
			}
			sample.NoTemps(t, dir)
		})
	}
}

// TestSparesNotFit plants, between the settling and the commit, files
// named as spares in .tent/tmp/ that a commit must not write into: a link
// (to a file out of the project), a second link of a file, a fifo, a
// folder, a file with an extended attribute. The commit writes its texts
// whole, never follows, truncates, writes into or waits on them: the
// linked files keep their texts, and every planted name is gone (its
// name removed, as a link) but the folder's, which stays for a person.
func TestSparesNotFit(t *testing.T) {
	outside := t.TempDir()
	tests := []struct {
		name  string
		plant func(t *testing.T, spare string) (victim string)
	}{
		{"link", func(t *testing.T, spare string) string {
			victim := filepath.Join(outside, "link-target")
			write(t, victim, "keep me\n")
			if err := os.Symlink(victim, spare); err != nil {
				t.Fatal(err)
			}
			return victim
		}},
		{"second link", func(t *testing.T, spare string) string {
			victim := filepath.Join(filepath.Dir(spare), "..", "..", "linked.txt")
			write(t, victim, "keep me\n")
			if err := os.Link(victim, spare); err != nil {
				t.Fatal(err)
			}
			return victim
		}},
		{"fifo", func(t *testing.T, spare string) string {
			if err := unix.Mkfifo(spare, 0o644); err != nil {
				t.Fatal(err)
			}
			return ""
		}},
		{"folder", func(t *testing.T, spare string) string {
			if err := os.Mkdir(spare, 0o755); err != nil {
				t.Fatal(err)
			}
			return ""
		}},
		{"extended attribute", func(t *testing.T, spare string) string {
			write(t, spare, "old\n")
			if err := unix.Setxattr(spare, "user.tent-test", []byte("x"), 0); err != nil {
				t.Logf("no user attributes on this filesystem (%v): a plain spare", err)
			}
			return ""
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, dir := openFiles(t, textsOf(4, "0"))
			view, release, err := w.Enter(t.Context(), "test", true)
			if err != nil {
				t.Fatal(err)
			}
			spare := filepath.Join(dir, ".tent", "tmp", "spare.0123456789abcdef")
			victim := tt.plant(t, spare)
			texts := textsOf(4, "new")
			_, err = view.commitFiles(t.Context(), stageOf(t, dir, texts), nil)
			release()
			if err != nil {
				t.Fatal(err)
			}
			wantTexts(t, dir, texts)
			if victim != "" {
				if got, err := os.ReadFile(victim); err != nil || string(got) != "keep me\n" {
					t.Errorf("the planted spare's target holds %q (%v); want it untouched", got, err)
				}
			}
			if tt.name == "folder" {
				if _, err := os.Lstat(spare); err != nil {
					t.Errorf("the planted folder is gone: %v", err)
				}
			} else {
				_, release, err := w.Enter(t.Context(), "test", true) // the next start clears what no commit took
				if err != nil {
					t.Fatal(err)
				}
				release()
				if _, err := os.Lstat(spare); err == nil && tt.name != "extended attribute" {
					t.Errorf("the planted %s is still named as a spare", tt.name)
				}
				if hasUserAttr(spare) {
					t.Errorf("the spare with an attribute is still there")
				}
			}
			for p := range texts {
				if got := inodeOf(t, filepath.Join(dir, p)); tt.name == "extended attribute" && hasUserAttr(filepath.Join(dir, p)) {
					t.Errorf("%s (inode %d) took the spare's attribute", p, got)
				}
			}
		})
	}
}

// hasUserAttr reports whether the file p has the attribute the test set.
func hasUserAttr(p string) bool {
	_, err := unix.Lgetxattr(p, "user.tent-test", make([]byte, 8))
	return err == nil
}

// write writes text into the file p, failing t where it cannot.
func write(t *testing.T, p, text string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSparesReplacedLinked: a replaced file with a second link elsewhere
// keeps its old text under that link and is never kept as a spare (a
// later commit would write into it); a large replaced file is not kept
// either (the pool's bound in bytes).
func TestSparesReplacedLinked(t *testing.T) {
	texts := textsOf(2, "0")
	texts["d0/large.ts"] = strings.Repeat("x", maxSpareSize+1)
	w, dir := openFiles(t, texts)
	other := filepath.Join(dir, "..", filepath.Base(dir)+"-link")
	if err := os.Link(filepath.Join(dir, "d0/f0.ts"), other); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(other) })
	next := textsOf(2, "new")
	next["d0/large.ts"] = "small\n"
	commitTexts(t, w, dir, next)
	wantTexts(t, dir, next)
	if got, err := os.ReadFile(other); err != nil || string(got) != texts["d0/f0.ts"] {
		t.Errorf("the second link holds %q (%v); want the old text", got, err)
	}
	spares := spareFiles(t, dir)
	for name, ino := range spares {
		if ino == inodeOf(t, other) {
			t.Errorf("%s is the linked file", name)
		}
	}
	if want := map[bool]int{true: 1}[swapsIn(t, filepath.Dir(dir))]; len(spares) != want {
		t.Errorf("%d spares; want %d (d0/f1.ts's old file)", len(spares), want)
	}
}

// TestSparesFolderAtTarget: a folder made where a staged file goes (after
// the stage was judged) is not swapped out of its place: the commit fails
// with T9102, the folder and its file are where they were, and the other
// files of the change are put back.
func TestSparesFolderAtTarget(t *testing.T) {
	texts := textsOf(3, "0")
	w, dir := openFiles(t, texts)
	view, release, err := w.Enter(t.Context(), "test", true)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	next := textsOf(3, "new")
	next["d1/g.ts"] = "export const g = 1\n"
	write(t, filepath.Join(dir, "d1/g.ts"), "old g\n")
	st := stageOf(t, dir, next)
	if err := os.Remove(filepath.Join(dir, "d1/g.ts")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "d1/g.ts"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "d1/g.ts/inside.txt"), "mine\n")
	_, err = view.commitFiles(t.Context(), st, nil)
	if !isCode(err, diag.T9102) && !errors.Is(err, unix.EISDIR) {
		t.Errorf("the commit: %v; want T9102 or a rename's EISDIR", err)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "d1/g.ts/inside.txt")); err != nil || string(got) != "mine\n" {
		t.Errorf("the folder's file: %q, %v", got, err)
	}
	wantTexts(t, dir, texts)
	spareFiles(t, dir)
}

// stopOps is the default FileOps, which stops its goroutine (as a crash
// stops a process: what is on the disk stays, nothing is put back) at its
// stop-th call of Exchange or Rename.
type stopOps struct {
	FileOps
	stop  int
	calls *int
}

func (s stopOps) step() {
	if *s.calls == s.stop {
		runtime.Goexit()
	}
	*s.calls++
}

func (s stopOps) Exchange(from, to string) error {
	s.step()
	return s.FileOps.(Exchanger).Exchange(from, to)
}

func (s stopOps) Rename(from, to string) error {
	s.step()
	return s.FileOps.Rename(from, to)
}

// TestSparesCut cuts a commit short after each number of its swaps and
// renames (the first commit leaves spares, which the cut one writes
// into), as a crash would: the next call finishes the change from the
// texts waiting in .tent/tmp/ and the files put in place, every file
// holds its new text, the point is done, and .tent/tmp/ holds spares
// only.
func TestSparesCut(t *testing.T) {
	const n = 6
	for _, stop := range []int{0, 1, n / 2, n, n + 1} {
		t.Run(fmt.Sprintf("after %d", stop), func(t *testing.T) {
			w, dir := openFiles(t, textsOf(n, "0"))
			commitTexts(t, w, dir, textsOf(n, "one"))
			next := textsOf(n, "two")
			next["d0/new.ts"] = "export const added = 2\n" // renamed: the (n+1)th step
			view, release, err := w.Enter(t.Context(), "test", true)
			if err != nil {
				t.Fatal(err)
			}
			calls := 0
			w.SetFileOps(stopOps{FileOps: w.DiskOps(), stop: stop, calls: &calls})
			done := make(chan struct{})
			go func() {
				defer close(done)
				view.commitFiles(t.Context(), stageOf(t, dir, next), nil)
			}()
			<-done
			release()
			w.SetFileOps(nil)
			if calls != stop {
				t.Fatalf("the commit made %d steps; want it cut after %d", calls, stop)
			}

			again, err := New(dir, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer again.Close()
			view, release, err = again.Enter(t.Context(), "test", true) // settles: finishes the change
			if err != nil {
				t.Fatal(err)
			}
			defer release()
			wantTexts(t, dir, next)
			hs, err := view.HistoryStore(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if p, err := hs.Pending(t.Context()); err != nil || len(p) != 0 {
				t.Errorf("pending points: %v, %v", p, err)
			}
			spareFiles(t, dir)
			sample.NoTemps(t, dir)
		})
	}
}

// failOps is the default FileOps, failing (as a full disk would) from its
// fail-th call of Exchange or Rename on.
type failOps struct {
	FileOps
	fail  int
	calls *int
}

func (s failOps) step() error {
	if *s.calls >= s.fail {
		return unix.ENOSPC
	}
	*s.calls++
	return nil
}

func (s failOps) Exchange(from, to string) error {
	if err := s.step(); err != nil {
		return err
	}
	return s.FileOps.(Exchanger).Exchange(from, to)
}

func (s failOps) Rename(from, to string) error {
	if err := s.step(); err != nil {
		return err
	}
	return s.FileOps.Rename(from, to)
}

// TestSparesPutBack fails a commit after each number of its swaps (into
// spares the first commit left): every file swapped already is put back,
// the change fails saying nothing was changed, no point is left, and
// .tent/tmp/ holds spares only.
func TestSparesPutBack(t *testing.T) {
	const n = 6
	for _, fail := range []int{0, 1, n / 2, n} {
		t.Run(fmt.Sprintf("after %d", fail), func(t *testing.T) {
			w, dir := openFiles(t, textsOf(n, "0"))
			one := textsOf(n, "one")
			commitTexts(t, w, dir, one)
			next := textsOf(n, "two")
			next["d1/new.ts"] = "export const added = 2\n" // renamed last: the (n+1)th step
			calls := 0
			w.SetFileOps(failOps{FileOps: w.DiskOps(), fail: fail, calls: &calls})
			err := tryCommit(t, w, dir, next)
			w.SetFileOps(nil)
			if err == nil || !strings.Contains(err.Error(), "nothing was changed") {
				t.Fatalf("the commit: %v; want it failed, nothing changed", err)
			}
			one["d1/new.ts"] = ""
			wantTexts(t, dir, one)
			hs, err := w.HistoryStore(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if p, err := hs.Pending(t.Context()); err != nil || len(p) != 0 {
				t.Errorf("pending points: %v, %v", p, err)
			}
			spareFiles(t, dir)
			commitTexts(t, w, dir, next) // and the next commit succeeds
			wantTexts(t, dir, next)
		})
	}
}

// dirEntry is a listed entry of a folder, for clearSpares.
type dirEntry struct {
	name string
	mode fs.FileMode
}

func (e dirEntry) Name() string               { return e.name }
func (e dirEntry) IsDir() bool                { return e.mode.IsDir() }
func (e dirEntry) Type() fs.FileMode          { return e.mode.Type() }
func (e dirEntry) Info() (fs.FileInfo, error) { return nil, errors.New("no info") }

// TestClearSpares: what clearTmp removes from .tent/tmp/ at the start of a
// write: every file but the spares, a link named as a spare, the spares
// beyond maxSpares.
func TestClearSpares(t *testing.T) {
	many := make([]os.DirEntry, maxSpares+2)
	for i := range many {
		many[i] = dirEntry{fmt.Sprintf("spare.%016x", i), 0}
	}
	tests := []struct {
		name    string
		entries []os.DirEntry
		removed []string
	}{
		{"spares kept", []os.DirEntry{dirEntry{"spare.0123456789abcdef", 0}, dirEntry{"spare.fedcba9876543210", 0}}, nil},
		{"journal texts", []os.DirEntry{
			dirEntry{"0123456789abcdef.0011223344556677", 0}, // a text of a change not recorded, or left after its point
			dirEntry{"spare.0123456789abcdef", 0},
		}, []string{"0123456789abcdef.0011223344556677"}},
		{"not a spare's name", []os.DirEntry{
			dirEntry{"spare.0123456789ABCDEF", 0},
			dirEntry{"spare.0123", 0},
			dirEntry{"spare.0123456789abcdefg", 0},
			dirEntry{"x.tmp", 0},
		}, []string{"spare.0123456789ABCDEF", "spare.0123", "spare.0123456789abcdefg", "x.tmp"}},
		{"a link", []os.DirEntry{dirEntry{"spare.0123456789abcdef", fs.ModeSymlink}}, []string{"spare.0123456789abcdef"}},
		{"a fifo", []os.DirEntry{dirEntry{"spare.0123456789abcdef", fs.ModeNamedPipe}}, []string{"spare.0123456789abcdef"}},
		{"beyond the bound", many, []string{many[maxSpares].Name(), many[maxSpares+1].Name()}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := clearSpares(tt.entries)
			if strings.Join(got, " ") != strings.Join(tt.removed, " ") {
				t.Errorf("removed %v; want %v", got, tt.removed)
			}
		})
	}
}

// TestClearTmpKeepsSpares: the next write's start keeps the spares in
// .tent/tmp/ and removes a journal text left there and a link named as a
// spare (as a link: its target stays).
func TestClearTmpKeepsSpares(t *testing.T) {
	w, dir := openFiles(t, textsOf(2, "0"))
	commitTexts(t, w, dir, textsOf(2, "one"))
	tmp := filepath.Join(dir, ".tent", "tmp")
	write(t, filepath.Join(tmp, "spare.00000000000000aa"), "a spare\n")
	write(t, filepath.Join(tmp, "0123456789abcdef.0011223344556677"), "left\n")
	target := filepath.Join(dir, "d0", "f0.ts")
	if err := os.Symlink(target, filepath.Join(tmp, "spare.00000000000000bb")); err != nil {
		t.Fatal(err)
	}
	before := spareFilesOnly(t, tmp)
	_, release, err := w.Enter(t.Context(), "test", true)
	if err != nil {
		t.Fatal(err)
	}
	release()
	after := spareFiles(t, dir)
	for name := range before {
		if _, ok := after[name]; !ok {
			t.Errorf("spare %s was removed", name)
		}
	}
	if len(after) != len(before) {
		t.Errorf("%d spares; want %d", len(after), len(before))
	}
	wantTexts(t, dir, textsOf(2, "one"))
}

// spareFilesOnly answers the regular files of tmp named as spares.
func spareFilesOnly(t *testing.T, tmp string) map[string]bool {
	t.Helper()
	entries, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	spares := map[string]bool{}
	for _, e := range entries {
		if isSpareName(e.Name()) && e.Type().IsRegular() {
			spares[e.Name()] = true
		}
	}
	return spares
}

// TestSparePoolBound: a spare a commit takes leaves the pool's count, and
// a replaced file is kept only while the pool holds fewer than maxSpares
// files (here a pool of maxSpares, one of them taken: one more is kept,
// the next removed).
func TestSparePoolBound(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "spare.00000000000000aa"), "a spare\n")
	f, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pool := listSpares(&dirHandle{f: f, rel: tmpFolder})
	if pool.count != 1 || len(pool.free) != 1 {
		t.Fatalf("the pool lists %d spares (%v); want 1", pool.count, pool.free)
	}
	pool.count = maxSpares // as if the folder held maxSpares spares
	out := pool.open("0123456789abcdef.0000000000000001")
	if out == nil {
		t.Fatal("the spare was not taken")
	}
	out.Close()
	for _, name := range []string{"0123456789abcdef.0000000000000002", "0123456789abcdef.0000000000000003"} {
		write(t, filepath.Join(dir, name), "an old text\n")
		pool.keep(name)
	}
	spares := spareFilesOnly(t, dir)
	if len(spares) != 1 {
		t.Errorf("spares %v; want one: the first replaced file", spares)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 { // the journal text taken from the spare, the spare kept
		t.Errorf("the folder holds %d entries; want 2", len(entries))
	}
}
