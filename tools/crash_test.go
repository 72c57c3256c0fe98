package tools

import (
	"bufio"
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/history"
	"github.com/tent-tools/tent-tools/internal/workspace"

	"github.com/tent-tools/tent-tools/internal/sample"
	"github.com/tent-tools/tent-tools/internal/soak"
)

// slowOps renames and removes like the workspace's os.Root, each after a
// pause, so that a kill lands between two renames of one change. Where
// first is set, the first of them calls it: the change's point is then
// recorded not done, and a kill before the last rename lands mid-change.
type slowOps struct {
	fsys  workspace.FileOps
	pause time.Duration
	first *sync.Once
}

func (s slowOps) begin() {
	if s.first != nil {
		s.first.Do(func() { fmt.Println("renaming") })
	}
	time.Sleep(s.pause)
}

func (s slowOps) Rename(a, b string) error { s.begin(); return s.fsys.Rename(a, b) }
func (s slowOps) Remove(name string) error { s.begin(); return s.fsys.Remove(name) }

// slowSwaps is slowOps over the commit's own FileOps, which swaps each new
// text with its file where the platform can (workspace.Exchanger), each
// swap after a pause too.
type slowSwaps struct{ slowOps }

func (s slowSwaps) Exchange(a, b string) error {
	s.begin()
	return s.fsys.(workspace.Exchanger).Exchange(a, b)
}

// TestCrashChild is the child process of TestCrash: it renames orders to
// purchases in the project TENT_CRASH_DIR names (seven files, one moved),
// with a pause before each rename into place (where TENT_CRASH_SWAP is
// set, each swap of a new text with its file, the old one kept as a
// spare), and says when it starts and when it renames the first file
// into place. TENT_CRASH_PAUSE is the pause, 2ms by default.
func TestCrashChild(t *testing.T) {
	dir := os.Getenv("TENT_CRASH_DIR")
	if dir == "" {
		t.Skip("the child of TestCrash")
	}
	w, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	pause := 2 * time.Millisecond
	if p, err := time.ParseDuration(os.Getenv("TENT_CRASH_PAUSE")); err == nil {
		pause = p
	}
	first := new(sync.Once)
	if os.Getenv("TENT_CRASH_SWAP") != "" {
		w.state.SetFileOps(slowSwaps{slowOps{fsys: w.state.DiskOps(), pause: pause, first: first}})
	} else {
		w.state.SetFileOps(slowOps{fsys: w.state.FS(), pause: pause, first: first})
	}
	fmt.Println("ready")
	if _, err := call(w, "rename", `{"name": "orders", "to": "purchases"}`); err != nil {
		t.Fatal(err)
	}
}

// TestCrash kills a process at random instants of a multi-file rename
// (SIGKILL, 16 times, every other one aimed inside the renames; 100 in the
// long run, internal/soak), and checks after each that the next call leaves
// every file as it was before or as it is after, whole, with a history
// that says which: no point, or the one point whose hashes the files have.
// It does so with each new text renamed over its file ("rename"), and
// swapped with it where the platform can, written into spares a former
// change left in .tent/tmp/ ("swap into spares").
func TestCrash(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("kills processes")
	}
	for _, swap := range []bool{false, true} {
		t.Run(map[bool]string{false: "rename", true: "swap into spares"}[swap], func(t *testing.T) {
			t.Parallel()
			crashKills(t, swap)
		})
	}
}

// crashKills is TestCrash for one way of putting texts in place. Every
// other kill is aimed: it lands at a random instant after the child began
// renaming the change's files into place, with a pause of aimedPause
// before each, so it lands mid-change (the point recorded, not done). The
// test fails where fewer than all but one of the aimed kills did: the
// recovery it checks would not have been tested. The others land at any
// instant of the child's run.
func crashKills(t *testing.T, swap bool) {
	before := snapshot(t, copyProject(t, refactorDir))
	after, took, _ := crashRun(t, -1, false, swap)
	if maps.Equal(before, after) {
		t.Fatal("the rename changed nothing")
	}
	kills := soak.Rounds(16, 100) // the long run is CI's (.ci/run)
	if raceOn {
		kills = soak.Rounds(6, 10) // each child runs several times slower; the race run is about the parent
	}
	counts := map[string]int{}
	aimed := 0
	for i := range kills {
		aim := i%2 == 1
		delay := time.Duration(rand.Int64N(int64(took)))
		if aim {
			aimed++
			// Well inside the renames: seven more pauses follow the first.
			delay = time.Duration(rand.Int64N(int64(3 * aimedPause)))
		}
		got, _, finished := crashRun(t, delay, aim, swap)
		switch {
		case maps.Equal(got, before):
			counts["before"]++
		case maps.Equal(got, after):
			counts["after"]++
		default:
			t.Fatalf("run %d (killed after %v): the project is neither as before nor as after", i, delay)
		}
		if finished {
			counts["finished at the next call"]++
			if aim {
				counts["aimed, mid-change"]++
			}
		}
	}
	t.Logf("%d kills (%d aimed) within %v of the child's start: %v", kills, aimed, took, counts)
	if want := aimed - 1; counts["aimed, mid-change"] < want {
		t.Fatalf("%d of %d aimed kills landed mid-change, want at least %d: the recovery was not tested", counts["aimed, mid-change"], aimed, want)
	}
}

// aimedPause is the pause before each rename of an aimed run: long
// enough that a parent held up by a loaded machine still kills inside.
const aimedPause = 20 * time.Millisecond

// crashRun runs the child on a fresh copy of the project and kills it
// after delay (or lets it finish, for a negative delay; where aim is set,
// delay counts from its first rename into place), then opens the
// project again, calls a tool, and checks the history against the files.
// Where swap is set, the child swaps the texts in place, and finds spares
// in .tent/tmp/ (holding texts of their own) to write them into. It
// returns the files, how long the child took from ready to exit (for a
// run not killed), and whether the next call had a change to finish.
func crashRun(t *testing.T, delay time.Duration, aim, swap bool) (files map[string]string, took time.Duration, finished bool) {
	t.Helper()
	dir := copyProject(t, refactorDir)
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$")
	cmd.Env = append(os.Environ(), "TENT_CRASH_DIR="+dir)
	if aim {
		cmd.Env = append(cmd.Env, "TENT_CRASH_PAUSE="+aimedPause.String())
	}
	if swap {
		cmd.Env = append(cmd.Env, "TENT_CRASH_SWAP=1")
		tmp := filepath.Join(dir, ".tent", "tmp")
		if err := os.MkdirAll(tmp, 0o755); err != nil {
			t.Fatal(err)
		}
		for i := range 5 { // fewer than the change's files: it also creates some
			if err := os.WriteFile(filepath.Join(tmp, fmt.Sprintf("spare.%016x", i)), []byte(strings.Repeat("an old text\n", 100*i)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	said := bufio.NewReader(out)
	line, _ := said.ReadString('\n')
	start := time.Now()
	if line != "ready\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the child said %q", line)
	}
	if aim {
		if line, _ = said.ReadString('\n'); line != "renaming\n" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the child said %q, not that it renames", line)
		}
	}
	if delay >= 0 {
		time.Sleep(delay)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
	} else if err := cmd.Wait(); err != nil {
		t.Fatalf("the child failed: %v", err)
	}
	took = time.Since(start)
	if swap && delay < 0 && runtime.GOOS == "linux" {
		spares, _ := os.ReadDir(filepath.Join(dir, ".tent", "tmp"))
		for _, e := range spares {
			if strings.HasPrefix(e.Name(), "spare.000000000000000") {
				t.Errorf("the change did not write into the spare %s", e.Name())
			}
		}
	}

	// What the crash left, before anyone finishes it.
	ctx := context.Background()
	pendingBefore := 0
	if _, err := os.Stat(filepath.Join(dir, ".tent", history.File)); err == nil {
		hs, err := history.Open(ctx, filepath.Join(dir, ".tent", history.File))
		if err != nil {
			t.Fatal(err)
		}
		p, err := hs.Pending(ctx)
		if err != nil {
			t.Fatal(err)
		}
		pendingBefore = len(p)
		hs.Close()
	}

	w, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	h := mustCall(t, w, "history", `{}`).Data.(HistoryAnswer)
	files = snapshot(t, dir)
	sample.NoTemps(t, dir)
	hs, err := w.state.HistoryStore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := hs.Pending(ctx); len(p) != 0 {
		t.Fatalf("%d points left not done", len(p))
	}
	switch len(h.Points) {
	case 0:
	case 1:
		p, err := hs.At(ctx, h.Points[0].Point)
		if err != nil {
			t.Fatal(err)
		}
		if p.Kind != history.KindCommand || len(p.Files) != 8 {
			t.Fatalf("the point is %+v", h.Points[0])
		}
		for _, f := range p.Files {
			data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Path)))
			switch {
			case f.After == "" && !os.IsNotExist(err):
				t.Fatalf("point %d deletes %s, which is there", p.N, f.Path)
			case f.After != "" && (err != nil || history.Hash(data) != f.After):
				t.Fatalf("%s is not as point %d left it", f.Path, p.N)
			}
		}
	default:
		t.Fatalf("%d points after one rename: %+v", len(h.Points), h.Points)
	}
	return files, took, pendingBefore > 0
}
