package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/diag"
)

// deepSource is a project file of n nested brackets (2n bytes and some):
// esbuild's parser recurses once per bracket.
func deepSource(n int) string {
	return "import { fn } from 'tent'\n\nexport const deep = fn({ run: () => " + strings.Repeat("[", n) + strings.Repeat("]", n) + " })\n"
}

// TestWorkerDeaths: each way app code ended the host's process (issue 20)
// ends only its worker, within the time limit and five seconds, with a
// code and no Go crash text; the host's next run is answered, and each
// killed worker costs one worker start.
func TestWorkerDeaths(t *testing.T) {
	root := project(t, "run-hostile")
	if err := os.WriteFile(filepath.Join(root, "functions", "deep.ts"), []byte(deepSource(3e5)), 0o644); err != nil {
		t.Fatal(err)
	}
	ix := index(t, root)
	const limit = 2 * time.Second
	r := newRunner(t, root, Config{TimeLimit: limit})
	ctx := context.Background()
	if _, err := r.Run(ctx, ix, Request{Name: "sum", Input: []byte(`{"a":1,"b":2}`)}); err != nil {
		t.Fatal(err)
	}
	ended := []string{diag.T4004, diag.T4005, diag.T4013}
	// A parser's stack overflow ends the worker within a second on a quiet
	// machine; on a loaded one the time limit may come first.
	overflow := []string{diag.T4013, diag.T4004}
	for _, tt := range []struct {
		name  string
		codes []string
	}{
		{"evalBrackets", overflow},
		{"functionBrackets", overflow},
		{"evalMinus", overflow},
		{"deep", overflow},
		{"shiftHuge", []string{diag.T4005}},
		{"powerHuge", ended},
		{"multiplyLoop", ended},
		{"lookaheads", ended},
		{"normalizeHuge", ended},
		{"writeThenDie", overflow},
	} {
		t.Run(tt.name, func(t *testing.T) {
			starts := r.workers().starts.Load()
			start := time.Now()
			_, err := r.Run(ctx, ix, Request{Name: tt.name})
			took := time.Since(start)
			te, _ := err.(*diag.ToolError)
			if te == nil || !slices.Contains(tt.codes, te.Code) {
				t.Errorf("err = %v; want one of %v", err, tt.codes)
			} else if strings.Contains(te.Message, "goroutine ") {
				t.Errorf("the message holds Go's crash text: %s", te.Message)
			}
			if took > limit+5*time.Second {
				t.Errorf("took %v, more than the limit of %v and 5 s", took, limit)
			}
			t.Logf("%v in %v", err, took.Round(time.Millisecond))
			if _, err := r.Run(ctx, ix, Request{Name: "sum", Input: []byte(`{"a":1,"b":2}`)}); err != nil {
				t.Errorf("the next run: %v", err)
			}
			if n := r.workers().starts.Load() - starts; n > 1 {
				t.Errorf("%d workers started for one attack and one run; want 1 at most", n)
			}
		})
	}
	rows, err := r.Rows(ctx, ix, "notes", 0)
	if err != nil || rows.Total != 0 {
		t.Errorf("notes after writeThenDie: %v, %v; want none kept", rows, err)
	}
}

// TestWorkerPoolConcurrent: runs from many goroutines, some of them ending
// their workers, share one pool (run it with -race); Close ends every
// worker.
func TestWorkerPoolConcurrent(t *testing.T) {
	root := project(t, "run-hostile")
	ix := index(t, root)
	r, err := New(root, Config{TimeLimit: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 6 {
		wg.Go(func() {
			for i := range 4 {
				name, input := "sum", `{"a":1,"b":2}`
				if g == 0 && i%2 == 1 {
					name, input = "shiftHuge", ""
				}
				_, err := r.Run(ctx, ix, Request{Name: name, Input: []byte(input)})
				if (name == "sum") != (err == nil) {
					errs <- fmt.Errorf("%s: %v", name, err)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	p := r.workers()
	p.mu.Lock()
	var pids []int
	for _, w := range p.idle {
		pids = append(pids, w.cmd.Process.Pid)
	}
	p.mu.Unlock()
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	for _, pid := range pids {
		if syscall.Kill(pid, 0) == nil {
			t.Errorf("worker %d still runs after Close", pid)
		}
	}
	if _, err := r.Run(ctx, ix, Request{Name: "sum", Input: []byte(`{"a":1,"b":2}`)}); err == nil {
		t.Error("a run after Close was answered")
	}
}

// TestWorkerLimits: a worker runs under its limits, with no descriptor but
// its pipe, its standard error, the .tent folder and the runtime's own.
func TestWorkerLimits(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	root := project(t, "run-hostile")
	r := newRunner(t, root, Config{StateDir: func() (*os.File, error) {
		if err := os.MkdirAll(filepath.Join(root, ".tent"), 0o755); err != nil {
			return nil, err
		}
		return os.Open(filepath.Join(root, ".tent"))
	}})
	p := r.workers()
	w, err := p.get(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer p.put(w, true)
	pid := strconv.Itoa(w.cmd.Process.Pid)
	limits, err := os.ReadFile("/proc/" + pid + "/limits")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`Max cpu time\s+\d+\s+\d+\s+seconds`),
		regexp.MustCompile(`Max core file size\s+0\s+0\s+bytes`),
		regexp.MustCompile(`Max address space\s+\d+\s+\d+\s+bytes`),
	} {
		if !want.Match(limits) {
			t.Errorf("limits lack %s:\n%s", want, limits)
		}
	}
	ents, err := os.ReadDir("/proc/" + pid + "/fd")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		target, _ := os.Readlink("/proc/" + pid + "/fd/" + e.Name())
		switch {
		case e.Name() == "0" || e.Name() == "1" || e.Name() == "2":
			if !strings.HasPrefix(target, "pipe:") {
				t.Errorf("descriptor %s is %s, want a pipe", e.Name(), target)
			}
		case e.Name() == "3":
			if target != filepath.Join(root, ".tent") {
				t.Errorf("descriptor 3 is %s, want the .tent folder", target)
			}
		case strings.HasPrefix(target, "anon_inode:"):
		case strings.HasPrefix(target, filepath.Join(root, ".tent")+"/"):
			// The test database the worker opened through the folder.
		default:
			t.Errorf("the worker holds descriptor %s: %s", e.Name(), target)
		}
	}
	env, err := os.ReadFile("/proc/" + pid + "/environ")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Trim(string(env), "\x00"); got != workerEnv+"="+workerProtocol {
		t.Errorf("the worker's environment is %q; want only %s", got, workerEnv)
	}
}

// TestWorkerPoolCancelledStart: a call whose context ends while the
// worker it waits for is still starting leaves that start to join the pool;
// a Close right after must wait for it and end it, and nothing may join the
// pool's background work while Close waits (the race detector caught a late
// put doing so).
func TestWorkerPoolCancelledStart(t *testing.T) {
	root := project(t, "run-hostile")
	for range 3 {
		r, err := New(root, Config{TimeLimit: 2 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		p := r.workers()
		p.warm() // a start is pending
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if w, err := p.get(ctx); err == nil {
			t.Fatalf("a get with an ended context was answered a worker %v", w)
		}
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
		p.mu.Lock()
		left := len(p.idle) + len(p.busy)
		p.mu.Unlock()
		if left != 0 {
			t.Errorf("%d workers kept after Close", left)
		}
	}
}
