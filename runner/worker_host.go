package runner

import (
	"bufio"
	"context"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/tent-tools/tent-tools/diag"
)

// This file is the host's side of worker.go's protocol: the pool of
// workers a Runner keeps, and one call on a worker.

// workerGrace is how long past a run's time limit the host waits for its
// worker before killing it: the worker's own watchdog answers T4004 at the
// limit where the app's code can be interrupted; a builtin that runs in Go
// (a BigInt power, a normalize) cannot be, and is killed here.
const workerGrace = 2 * time.Second

// workerStartTimeout bounds a worker's start (its config and its ready).
const workerStartTimeout = 20 * time.Second

// The pool keeps at least minIdle workers ready once one call has ended,
// and at most maxIdle: a worker that died is replaced in the background,
// so the next call waits for no start.
const (
	minIdle = 1
	maxIdle = 2
)

// workerStopWait is how long an idle worker is given to end by itself.
const workerStopWait = 500 * time.Millisecond

// stderrKeep is how much of a worker's standard error the host keeps: its
// first bytes, where Go writes what ended it.
const stderrKeep = 16 << 10

// pool is a Runner's workers: the idle ones, those starting, and those a
// call is using. It is safe for concurrent use.
type pool struct {
	exe  string
	cfg  wireConfig
	held func() (*os.File, error) // the .tent folder to hand each worker

	mu      sync.Mutex
	idle    []*worker
	pending []*pendingStart // starts no call has claimed yet
	busy    map[*worker]bool
	closed  bool
	bg      sync.WaitGroup

	// starts counts the workers started, for tests and benchmarks.
	starts atomic.Int64
}

// pendingStart is a worker being started in the background.
type pendingStart struct {
	done chan struct{}
	w    *worker
	err  error
}

// newPool makes a Runner's pool; nothing starts yet.
func newPool(exe string, cfg wireConfig, held func() (*os.File, error)) *pool {
	return &pool{exe: exe, cfg: cfg, held: held, busy: map[*worker]bool{}}
}

// warm starts a worker in the background where none is idle or starting.
func (p *pool) warm() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || len(p.idle)+len(p.pending) >= minIdle {
		return
	}
	pd := &pendingStart{done: make(chan struct{})}
	p.pending = append(p.pending, pd)
	p.bg.Add(1)
	go func() {
		defer p.bg.Done()
		pd.w, pd.err = p.start()
		close(pd.done)
		p.mu.Lock()
		defer p.mu.Unlock()
		for i, q := range p.pending {
			if q == pd {
				// No call claimed it: it waits in the pool.
				p.pending = append(p.pending[:i], p.pending[i+1:]...)
				if pd.w != nil {
					if p.closed {
						pd.w.kill()
					} else {
						p.idle = append(p.idle, pd.w)
					}
				}
				break
			}
		}
	}()
}

// get answers a worker for one call: an idle one that is still alive, or
// one starting in the background, or a new one.
func (p *pool) get(ctx context.Context) (*worker, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, errors.New("the runner is closed")
	}
	for len(p.idle) > 0 {
		w := p.idle[len(p.idle)-1]
		p.idle = p.idle[:len(p.idle)-1]
		if w.alive() {
			p.busy[w] = true
			p.mu.Unlock()
			return w, nil
		}
		w.kill()
	}
	var pd *pendingStart
	if len(p.pending) > 0 {
		pd = p.pending[0]
		p.pending = p.pending[1:]
	}
	p.mu.Unlock()
	var w *worker
	var err error
	if pd != nil {
		select {
		case <-pd.done:
			w, err = pd.w, pd.err
		case <-ctx.Done():
			// The start goes on: its worker joins the pool, counted in bg
			// so that close waits for it. Once the pool is closed nothing
			// may join bg (close may be in its Wait): put, which ends a
			// worker on a closed pool, runs here instead.
			join := func() { <-pd.done; p.put(pd.w, pd.err != nil) }
			p.mu.Lock()
			closed := p.closed
			if !closed {
				p.bg.Add(1)
			}
			p.mu.Unlock()
			if closed {
				join()
			} else {
				go func() { defer p.bg.Done(); join() }()
			}
			return nil, ctx.Err()
		}
	}
	if w == nil {
		if w, err = p.start(); err != nil {
			return nil, err
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		w.kill()
		return nil, errors.New("the runner is closed")
	}
	p.busy[w] = true
	return w, nil
}

// put gives a worker back after a call; retire (or a full pool) ends it.
// Where fewer than minIdle are left, one starts in the background.
func (p *pool) put(w *worker, retire bool) {
	if w == nil {
		p.warm()
		return
	}
	p.mu.Lock()
	delete(p.busy, w)
	if p.closed {
		// close may be waiting on bg, which nothing may join now; close
		// killed the busy workers, so this ends at once unless the worker
		// started late.
		p.mu.Unlock()
		w.stop()
		return
	}
	if retire || !w.alive() || len(p.idle) >= maxIdle {
		// Its call has ended: it may close its database on its own.
		p.bg.Go(w.stop)
	} else {
		p.idle = append(p.idle, w)
	}
	p.mu.Unlock()
	p.warm()
}

// close ends every worker, idle or busy, and waits for the starts.
func (p *pool) close() {
	p.mu.Lock()
	p.closed = true
	var all []*worker
	for w := range p.busy {
		all = append(all, w)
	}
	busy := len(all)
	all = append(all, p.idle...)
	p.idle = nil
	p.mu.Unlock()
	var wg sync.WaitGroup
	for i, w := range all {
		if i < busy {
			w.kill()
		} else {
			wg.Go(w.stop)
		}
	}
	wg.Wait()
	p.bg.Wait()
}

// worker is one worker process and the host's end of its pipe.
type worker struct {
	cmd    *exec.Cmd
	in     *os.File // the worker's standard input
	enc    *gob.Encoder
	msgs   chan message // what the worker wrote; closed when its output ends
	exited chan struct{}
	state  *os.ProcessState
	errOut *stderrTail
	appID  uint64 // the app the worker was last given
	once   sync.Once
}

// start starts a worker and gives it its config; it answers once the
// worker has set its limits.
func (p *pool) start() (*worker, error) {
	p.starts.Add(1)
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("worker: %w", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("worker: %w", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("worker: %w", err)
	}
	cmd := exec.Command(p.exe)
	// Nothing of the host's environment (its tokens, its paths) reaches
	// the worker; it needs none.
	cmd.Env = []string{workerEnv + "=" + workerProtocol}
	cmd.Dir = "/"
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	cmd.SysProcAttr = workerProcAttr()
	cfg := p.cfg
	if p.held != nil {
		d, err := p.held()
		if err != nil {
			for _, f := range []*os.File{inR, inW, outR, outW, errR, errW} {
				f.Close()
			}
			return nil, err
		}
		defer d.Close()
		cmd.ExtraFiles = []*os.File{d}
		cfg.Held = true
	}
	err = cmd.Start()
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, fmt.Errorf("worker: starting %s: %w", p.exe, err)
	}
	w := &worker{cmd: cmd, in: inW, enc: gob.NewEncoder(inW), msgs: make(chan message, 1), exited: make(chan struct{}), errOut: newStderrTail()}
	go w.errOut.read(errR)
	go w.read(outR)
	go func() {
		cmd.Wait()
		w.state = cmd.ProcessState
		close(w.exited)
	}()
	if err := w.enc.Encode(message{Config: &cfg}); err != nil {
		return nil, w.startError(err)
	}
	timer := time.NewTimer(workerStartTimeout)
	defer timer.Stop()
	select {
	case m, ok := <-w.msgs:
		if !ok || m.Ready == nil {
			return nil, w.startError(errors.New("it ended before it was ready"))
		}
	case <-timer.C:
		return nil, w.startError(errors.New("it was not ready in time"))
	}
	return w, nil
}

// startError is the error of a worker that did not start, which is ended.
func (w *worker) startError(err error) error {
	w.kill()
	if line := w.errOut.line(); line != "" {
		return fmt.Errorf("the worker did not start: %v (%s)", err, line)
	}
	return fmt.Errorf("the worker did not start: %w", err)
}

// read reads the worker's messages until its output ends.
func (w *worker) read(out *os.File) {
	defer out.Close()
	defer close(w.msgs)
	dec := gob.NewDecoder(bufio.NewReader(out))
	for {
		var m message
		if err := dec.Decode(&m); err != nil {
			return
		}
		w.msgs <- m
	}
}

// alive reports whether the worker has not ended.
func (w *worker) alive() bool {
	select {
	case <-w.exited:
		return false
	default:
		return true
	}
}

// kill ends the worker at once and waits for it.
func (w *worker) kill() {
	w.once.Do(func() {
		w.in.Close()
		w.cmd.Process.Kill()
	})
	<-w.exited
}

// stop ends an idle worker: its input closed, it closes the test database
// and exits; one that does not within workerStopWait is killed.
func (w *worker) stop() {
	w.once.Do(func() { w.in.Close() })
	select {
	case <-w.exited:
	case <-time.After(workerStopWait):
		w.cmd.Process.Kill()
		<-w.exited
	}
}

// callHost is what the host serves a call with.
type callHost struct {
	src      Source
	approver Approver
	fetch    func(ctx context.Context, u *url.URL, init map[string]any) (*fetchAnswer, Sent, error)
	appData  []byte        // the app's encoding, for a worker that asks
	limit    time.Duration // the run's time limit
	memory   uint64        // the run's memory limit, for messages
}

// call runs one call on w: it serves the worker's round trips, and ends
// the worker where the run passes its time limit and workerGrace, or ctx
// ends. A worker that dies is the call's coded error; retire says the
// worker must not serve again.
func (w *worker) call(ctx context.Context, c *wireCall, h callHost) (done *wireDone, retire bool, err error) {
	if err := w.enc.Encode(message{Call: c}); err != nil {
		return nil, true, w.death(h)
	}
	left := h.limit + workerGrace
	started := time.Now()
	timer := time.NewTimer(left)
	defer timer.Stop()
	for {
		select {
		case m, ok := <-w.msgs:
			if !ok {
				return nil, true, w.death(h)
			}
			var reply message
			switch {
			case m.Done != nil:
				return m.Done, m.Done.Retire, nil
			case m.NeedApp != nil:
				reply.AppData = &wireAppData{Data: h.appData}
			case m.Read != nil:
				f := wireFile{}
				if text, ok := h.src.ReadFile(m.Read.Path); ok {
					f.Text, f.OK = text, true
					if ss, is := h.src.(snapshotSource); is {
						f.Held = ss.holds(m.Read.Path)
					}
				}
				reply.File = &f
			case m.Ask != nil:
				// The clock stops while the person is asked.
				timer.Stop()
				left -= time.Since(started)
				ans := &wireAnswer{}
				if h.approver != nil {
					var err error
					if ans.OK, err = h.approver.Approve(ctx, m.Ask.Question); err != nil {
						ans.Err = toWire(err)
					}
				}
				reply.Answer = ans
				started = time.Now()
				timer.Reset(max(left, 0))
			case m.Fetch != nil:
				// The request ends with the run's own time (the worker's
				// watchdog then answers T4004), never past the deadline.
				within := min(max(m.Fetch.Within, 0)+50*time.Millisecond, max(left-time.Since(started), 0))
				reply.Fetched = w.serveFetch(ctx, m.Fetch, h, within)
			default:
				w.kill()
				return nil, true, errors.New("the worker sent a message out of turn")
			}
			if err := w.enc.Encode(reply); err != nil {
				return nil, true, w.death(h)
			}
		case <-timer.C:
			w.kill()
			return nil, true, diag.Errorf(diag.T4004, "the run passed its time limit of %s: its code did not stop, so its worker was ended", h.limit)
		case <-ctx.Done():
			w.kill()
			return nil, true, diag.Errorf(diag.T4004, "the run was stopped: %v", ctx.Err())
		}
	}
}

// serveFetch makes a worker's HTTP request within the time the run has left.
func (w *worker) serveFetch(ctx context.Context, f *wireFetch, h callHost, left time.Duration) *wireFetched {
	u, err := url.Parse(f.URL)
	if err != nil {
		return &wireFetched{Sent: Sent{Kind: "http", To: f.URL}, Err: fmt.Sprintf("ctx.http.fetch: %v", err)}
	}
	var init map[string]any
	if v, err := decodeJSON(f.Init); err == nil {
		init, _ = v.(map[string]any)
	}
	ctx, cancel := context.WithTimeout(ctx, left)
	defer cancel()
	ans, sent, err := h.fetch(ctx, u, init)
	out := &wireFetched{Answer: ans, Sent: sent}
	if err != nil {
		out.Err = err.Error()
	}
	return out
}

// death is the coded error of a worker that ended during a call (docs
// codes T4004, T4005, T4013): by what it wrote last and the signal.
func (w *worker) death(h callHost) error {
	w.once.Do(func() { w.in.Close() })
	select {
	case <-w.exited:
	case <-time.After(2 * time.Second):
		w.cmd.Process.Kill()
		<-w.exited
	}
	w.errOut.wait()
	line := w.errOut.line()
	all := w.errOut.text()
	sig := ""
	if ws, ok := w.state.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		sig = ws.Signal().String()
	}
	switch {
	case strings.Contains(all, cpuLimitLine) || sig == syscall.SIGXCPU.String():
		return diag.Errorf(diag.T4004, "the run passed its time limit of %s in CPU time: its worker was ended", h.limit)
	case strings.Contains(all, "out of memory") || strings.Contains(all, "cannot allocate memory"):
		return diag.Errorf(diag.T4005, "the run passed its memory limit of %s: its worker ran out of memory (%s)", megabytes(h.memory), line)
	}
	what := line
	if what == "" && sig != "" {
		what = "signal " + sig
	}
	if what == "" {
		what = w.state.String()
	}
	e := diag.Errorf(diag.T4013, "the app's code ended the worker process that ran it (%s); nothing the run wrote was kept, and the next run gets a fresh worker", what)
	if sig != "" {
		e.With("signal", sig)
	}
	if line != "" {
		e.With("line", line)
	}
	return e
}

// stderrTail keeps the first stderrKeep bytes of a worker's standard error.
type stderrTail struct {
	mu   sync.Mutex
	buf  []byte
	done chan struct{}
}

func newStderrTail() *stderrTail { return &stderrTail{done: make(chan struct{})} }

// read reads f to its end, keeping its first bytes.
func (t *stderrTail) read(f *os.File) {
	defer close(t.done)
	defer f.Close()
	b := make([]byte, 4096)
	for {
		n, err := f.Read(b)
		t.mu.Lock()
		if keep := stderrKeep - len(t.buf); keep > 0 {
			t.buf = append(t.buf, b[:min(n, keep)]...)
		}
		t.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// wait waits for the end of the standard error, a second at most.
func (t *stderrTail) wait() {
	select {
	case <-t.done:
	case <-time.After(time.Second):
	}
}

func (t *stderrTail) text() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// line is the line that says what ended the worker: Go's "fatal error:"
// or "panic:" line where there is one, else the last line written.
func (t *stderrTail) line() string {
	var last string
	for l := range strings.SplitSeq(t.text(), "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "fatal error:") || strings.HasPrefix(l, "panic:") || strings.HasPrefix(l, "runtime: out of memory") {
			return l
		}
		if l != "" {
			last = l
		}
	}
	return last
}

// workers answers the Runner's pool, made on first use; nil where runs
// are in process.
func (r *Runner) workers() *pool {
	if r.cfg.InProcess {
		return nil
	}
	r.poolOnce.Do(func() {
		exe := workerExecutable()
		if exe == "" {
			return
		}
		r.turn = make(chan struct{}, 1)
		r.pool = newPool(exe, wireConfig{Root: r.root, TimeLimit: r.cfg.TimeLimit, MemoryLimit: r.cfg.MemoryLimit, CPUBudget: workerCPUBudget}, r.cfg.StateDir)
	})
	return r.pool
}

// workerExecutable is the program a worker runs: this one ("" where it
// cannot be found, and runs are then in process).
func workerExecutable() string {
	if runtime.GOOS == "linux" {
		// The running program itself, even where its file was replaced.
		if _, err := os.Stat("/proc/self/exe"); err == nil {
			return "/proc/self/exe"
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	return exe
}

// appWire answers the id and the encoding of a, the last app sent kept.
func (r *Runner) appWire(a *app) (uint64, []byte) {
	r.wireMu.Lock()
	defer r.wireMu.Unlock()
	if r.wireApp != a {
		data := a.encoded
		if data == nil {
			data = encodeApp("", nil, a)
		}
		r.wireApp, r.wireAppID, r.wireAppData = a, r.wireAppID+1, data
	}
	return r.wireAppID, r.wireAppData
}

// snapshotGen answers the host's number for the snapshot src reads, 0 for none.
func (r *Runner) snapshotGen(src Source) uint64 {
	ss, ok := src.(snapshotSource)
	if !ok {
		return 0
	}
	snap := ss.snapshot()
	if snap == nil {
		return 0
	}
	r.wireMu.Lock()
	defer r.wireMu.Unlock()
	if r.genSnap != snap {
		r.genSnap, r.gen = snap, r.gen+1
	}
	return r.gen
}

// callWorker runs c on a worker of p, giving it the app where it does not
// hold it, and answers how it ended.
func (r *Runner) callWorker(ctx context.Context, p *pool, a *app, src Source, c *wireCall, approver Approver) (*wireDone, error) {
	// Runs on one test database take turns, as their transactions would:
	// a run's time starts once it has its turn.
	select {
	case r.turn <- struct{}{}:
		defer func() { <-r.turn }()
	case <-ctx.Done():
		return nil, diag.Errorf(diag.T4004, "the run was stopped before it started: %v", context.Cause(ctx))
	}
	defer r.buildingProgress()()
	w, err := p.get(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil, diag.Errorf(diag.T4004, "the run was stopped before it started: %v", context.Cause(ctx))
		}
		return nil, fmt.Errorf("run: %w", err)
	}
	id, data := r.appWire(a)
	c.AppID, c.Gen = id, r.snapshotGen(src)
	if w.appID != id {
		if a.encoded != nil {
			c.SnapKey, c.SnapDigest = a.snapKey, a.snapDigest
		} else {
			c.App = data
		}
	}
	h := callHost{
		src: src, approver: approver, appData: data, limit: r.cfg.TimeLimit, memory: r.cfg.MemoryLimit,
		fetch: func(ctx context.Context, u *url.URL, init map[string]any) (*fetchAnswer, Sent, error) {
			return fetchURL(ctx, r.cfg.HTTP, a.httpAllow, u, init)
		},
	}
	done, retire, err := w.call(ctx, c, h)
	if err == nil {
		w.appID = id
	}
	p.put(w, retire)
	if err != nil {
		return nil, err
	}
	r.cache.builds.Add(done.Builds)
	return done, nil
}

// buildingProgress tells Config.Progress of the first build of the test
// database, which a worker is about to make; it answers the progress's end.
func (r *Runner) buildingProgress() (end func()) {
	if r.cfg.Progress != nil {
		if _, err := os.Stat(TestDBPath(r.root)); errors.Is(err, os.ErrNotExist) {
			_, end := r.cfg.Progress("building the test database", 0)
			return end
		}
	}
	return func() {}
}

// runInWorker is execute in a worker; the private values the run was
// handed join secrets.
func (r *Runner) runInWorker(ctx context.Context, p *pool, a *app, src Source, req Request, secrets *secretSet) (*Result, error) {
	c := &wireCall{Run: &wireRun{Name: req.Name, Input: req.Input, As: req.As, AllowSystem: req.AllowSystem, Trusted: req.Trusted, Asks: req.Approver != nil, Now: req.Now}}
	done, err := r.callWorker(ctx, p, a, src, c, req.Approver)
	if err != nil {
		return nil, err
	}
	for _, v := range done.Secrets {
		secrets.values[v] = true
	}
	if done.Err != nil {
		return nil, fromWire(done.Err)
	}
	var res Result
	if err := json.Unmarshal(done.Result, &res); err != nil {
		return nil, fmt.Errorf("run %s: the worker's answer: %w", req.Name, err)
	}
	return &res, nil
}

// screenInWorker is showScreen in a worker.
func (r *Runner) screenInWorker(ctx context.Context, p *pool, a *app, src Source, sc screenDef, params map[string]string, req ScreenRequest) (*Screen, error) {
	c := &wireCall{Screen: &wireScreen{Name: sc.name, File: sc.file, Pattern: sc.pattern, Title: sc.title, Segments: sc.segments, Params: params,
		As: req.As, AllowSystem: req.AllowSystem, Trusted: req.Trusted, Now: req.Now}}
	done, err := r.callWorker(ctx, p, a, src, c, nil)
	if err != nil {
		return nil, err
	}
	if done.Err != nil {
		return nil, fromWire(done.Err)
	}
	var out Screen
	if err := json.Unmarshal(done.Screen, &out); err != nil {
		return nil, fmt.Errorf("screen %s: the worker's answer: %w", sc.name, err)
	}
	return &out, nil
}
