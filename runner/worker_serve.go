package runner

import (
	"bufio"
	"bytes"
	"context"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"runtime/metrics"
	"time"

	"github.com/tent-tools/tent-tools/diag"
)

// This file is the worker's side of worker.go's protocol.

func init() {
	// A process started as a worker serves and ends here, before the
	// program it is part of (tent-tools, a test binary) does anything else.
	if os.Getenv(workerEnv) == workerProtocol {
		os.Exit(serveWorker(os.Stdin, os.Stdout))
	}
}

// serveWorker serves calls read from in, answering on out, until in ends.
// It answers the process's exit code.
func serveWorker(in *os.File, out *os.File) int {
	dec := gob.NewDecoder(bufio.NewReader(in))
	enc := gob.NewEncoder(out)
	var first message
	if err := dec.Decode(&first); err != nil || first.Config == nil {
		fmt.Fprintln(os.Stderr, "tent-tools worker: no config from the host")
		return 2
	}
	cfg := *first.Config
	// The limits come first: nothing of the app has been read yet.
	limits, err := setWorkerLimits(cfg)
	if err != nil {
		fmt.Fprintf(os.Stderr, "tent-tools worker: %v\n", err)
		return 2
	}
	keep := []int{0, 1, 2}
	if cfg.Held {
		keep = append(keep, heldFD)
	}
	closeOtherFDs(keep)
	c := &workerClient{enc: enc, dec: dec}
	r, err := newWorkerRunner(cfg, c)
	if err != nil {
		fmt.Fprintf(os.Stderr, "tent-tools worker: %v\n", err)
		return 2
	}
	go r.openEarly()
	if err := enc.Encode(message{Ready: &wireReady{PID: os.Getpid(), Limits: limits}}); err != nil {
		return 0
	}
	ws := &workerState{r: r, c: c, cfg: cfg, snapRead: make(chan struct{})}
	go func() {
		// A one-shot host runs from the app snapshot: read it meanwhile.
		defer close(ws.snapRead)
		ws.snap = r.readApp()
	}()
	for {
		var m message
		if err := dec.Decode(&m); err != nil {
			// The host closed the pipe: done.
			r.Close()
			return 0
		}
		if m.Call == nil {
			fmt.Fprintln(os.Stderr, "tent-tools worker: a message out of turn")
			return 2
		}
		done := ws.serve(m.Call)
		if err := enc.Encode(message{Done: done}); err != nil {
			return 0
		}
	}
}

// newWorkerRunner is the Runner a worker runs its calls on: the host's
// limits, the test database and the cache reached through the handed
// .tent folder, the host reached through c.
func newWorkerRunner(cfg wireConfig, c *workerClient) (*Runner, error) {
	rc := Config{TimeLimit: cfg.TimeLimit, MemoryLimit: cfg.MemoryLimit, InProcess: true}
	if cfg.Held {
		held := os.NewFile(heldFD, ".tent")
		rc.StateDir = func() (*os.File, error) {
			// Each use closes what it is given: hand it a copy.
			fd, err := dupCloexec(int(held.Fd()))
			if err != nil {
				return nil, err
			}
			return os.NewFile(uintptr(fd), held.Name()), nil
		}
	}
	r, err := New(cfg.Root, rc)
	if err != nil {
		return nil, err
	}
	r.remote = c
	return r, nil
}

// workerState is what a worker keeps between calls: its Runner (bundles
// compiled, the test database open and migrated) and the last app.
type workerState struct {
	r     *Runner
	c     *workerClient
	cfg   wireConfig
	appID uint64
	app   *app
	// snap is the app snapshot the worker read as it started (done when
	// snapRead is closed).
	snapRead chan struct{}
	snap     *snapshot
}

// appOf answers the app a call runs on: the one of the last call, or the
// one it carries, or the snapshot the worker read where it is the host's,
// or the one the host sends when asked.
func (ws *workerState) appOf(call *wireCall) (*app, error) {
	if call.AppID == ws.appID && ws.app != nil {
		return ws.app, nil
	}
	data := call.App
	if data == nil {
		<-ws.snapRead
		if s := ws.snap; s != nil && call.SnapDigest != nil && s.key == call.SnapKey && bytes.Equal(s.digest, call.SnapDigest) {
			ws.app, ws.appID = s.app, call.AppID
			return s.app, nil
		}
		reply := ws.c.roundTrip(message{NeedApp: &wireNeedApp{}})
		if reply.AppData == nil {
			return nil, errors.New("the host sent no app")
		}
		data = reply.AppData.Data
	}
	_, _, a, err := decodeApp(data)
	if err != nil {
		return nil, err
	}
	ws.app, ws.appID = a, call.AppID
	return a, nil
}

// serve runs one call and answers how it ended.
func (ws *workerState) serve(call *wireCall) *wireDone {
	a, err := ws.appOf(call)
	if err != nil {
		return &wireDone{Err: &wireError{Plain: fmt.Sprintf("the worker could not read the app: %v", err)}}
	}
	ctx := context.Background()
	src := &remoteSource{c: ws.c, gen: call.Gen, files: map[string]wireFile{}}
	builds := ws.r.cache.builds.Load()
	setCPULimit(ws.cfg.TimeLimit)
	start := time.Now()
	secrets := newSecretSet(a.private)
	done := &wireDone{}
	switch {
	case call.Run != nil:
		w := call.Run
		req := Request{Name: w.Name, Input: w.Input, As: w.As, AllowSystem: w.AllowSystem, Trusted: w.Trusted, Now: w.Now}
		if w.Asks {
			req.Approver = ws.c
		}
		var res *Result
		if res, err = ws.r.execute(ctx, a, src, req, start, secrets); err == nil {
			done.Result, err = json.Marshal(res)
		}
	case call.Screen != nil:
		w := call.Screen
		sc := screenDef{name: w.Name, file: w.File, pattern: w.Pattern, title: w.Title, segments: w.Segments}
		req := ScreenRequest{As: w.As, AllowSystem: w.AllowSystem, Trusted: w.Trusted, Now: w.Now}
		var out *Screen
		if out, err = ws.r.showScreen(ctx, a, src, sc, w.Params, req, start); err == nil {
			done.Screen, err = json.Marshal(out)
		}
	default:
		err = errors.New("a call with nothing to do")
	}
	if err != nil {
		done.Err = toWire(err)
	}
	for v := range secrets.values {
		done.Secrets = append(done.Secrets, v)
	}
	done.Builds = ws.r.cache.builds.Load() - builds
	done.Retire = workerSpent(ws.cfg)
	return done
}

// workerSpent says whether a worker should serve no more calls: its heap
// holds more than half of a run's memory limit after the call, or it used
// half of its CPU budget.
func workerSpent(cfg wireConfig) bool {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/cpu/classes/total:cpu-seconds"}}
	metrics.Read(s)
	heap := s[0].Value.Uint64()
	cpu := time.Duration(s[1].Value.Float64() * float64(time.Second))
	return heap > cfg.MemoryLimit/2 || (cfg.CPUBudget > 0 && cpu > cfg.CPUBudget/2)
}

// toWire makes an error cross the pipe, its code and data kept.
func toWire(err error) *wireError {
	var te *diag.ToolError
	var unasked *diag.Unasked
	switch {
	case errors.As(err, &unasked):
		return &wireError{Plain: err.Error(), Unasked: unasked}
	case !errors.As(err, &te):
		return &wireError{Plain: err.Error()}
	}
	we := &wireError{Code: te.Code, Message: te.Message}
	if len(te.Data) > 0 {
		we.Data = map[string]any{}
		for k, v := range te.Data {
			we.Data[k] = wireValue(v)
		}
	}
	return we
}

// wireValue is a data value gob can carry: the kinds registered in
// worker.go as they are, anything else as its JSON value.
func wireValue(v any) any {
	switch v.(type) {
	case nil, string, bool, int, int64, float64, []string, []Sent, []any, map[string]any:
		return v
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	var out any
	if json.Unmarshal(b, &out) != nil {
		return string(b)
	}
	return out
}

// fromWire is the error a wireError stands for.
func fromWire(we *wireError) error {
	if we.Unasked != nil {
		return we.Unasked
	}
	if we.Code == "" {
		return errors.New(we.Plain)
	}
	return &diag.ToolError{Code: we.Code, Message: we.Message, Data: we.Data}
}

// workerClient is a worker's end of the pipe, for the round trips a call
// makes to the host. A broken pipe means the host is gone: the worker ends.
type workerClient struct {
	enc *gob.Encoder
	dec *gob.Decoder
}

// roundTrip sends m and answers the host's reply.
func (c *workerClient) roundTrip(m message) message {
	var reply message
	if err := c.enc.Encode(m); err != nil {
		os.Exit(0)
	}
	if err := c.dec.Decode(&reply); err != nil {
		os.Exit(0)
	}
	return reply
}

// Approve asks the host's approver (Approver).
func (c *workerClient) Approve(ctx context.Context, question string) (bool, error) {
	reply := c.roundTrip(message{Ask: &wireAsk{Question: question}})
	if reply.Answer == nil {
		return false, errors.New("the host answered no yes or no")
	}
	if reply.Answer.Err != nil {
		return false, fromWire(reply.Answer.Err)
	}
	return reply.Answer.OK, nil
}

// fetch has the host make an HTTP request (fetchURL).
// The host ends the request when the run's time is up (within).
func (c *workerClient) fetch(u *url.URL, init map[string]any, within time.Duration) (*fetchAnswer, Sent, error) {
	b, err := json.Marshal(init)
	if err != nil {
		return nil, Sent{Kind: "http", To: u.String()}, fmt.Errorf("ctx.http.fetch: %v", err)
	}
	reply := c.roundTrip(message{Fetch: &wireFetch{URL: u.String(), Init: b, Within: within}})
	f := reply.Fetched
	if f == nil {
		return nil, Sent{Kind: "http", To: u.String()}, errors.New("ctx.http.fetch: the host answered nothing")
	}
	if f.Err != "" {
		return nil, f.Sent, errors.New(f.Err)
	}
	return f.Answer, f.Sent, nil
}

// remoteSource reads project files from the host, each once per call.
type remoteSource struct {
	c     *workerClient
	gen   uint64
	files map[string]wireFile
}

// ReadFile answers a project file's text, asking the host.
func (s *remoteSource) ReadFile(p string) ([]byte, bool) {
	f, ok := s.files[p]
	if !ok {
		reply := s.c.roundTrip(message{Read: &wireRead{Path: p}})
		if reply.File != nil {
			f = *reply.File
		}
		s.files[p] = f
	}
	return f.Text, f.OK
}

// snapshot is the host's number for its snapshot, nil for none.
func (s *remoteSource) snapshot() any {
	if s.gen == 0 {
		return nil
	}
	return s.gen
}

// holds reports whether the host's snapshot holds p, as its read said.
func (s *remoteSource) holds(p string) bool { return s.files[p].Held }
