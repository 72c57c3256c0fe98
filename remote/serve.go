package remote

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/gitdiff"
	"github.com/tent-tools/tent-tools/tools"
)

// ServeConfig is what the far side serves with.
type ServeConfig struct {
	// Dir is the project folder (a leading ~/ is the far user's home).
	Dir string
	// Build names the binary's build, as the near side checks it.
	Build string
	// Sessions is the folder of the session locks (sessionDir: the far
	// user's ~/.cache/tent-tools/sessions where empty).
	Sessions string
	// Grace is how long calls under way may take to end once the link
	// dropped (0: 5 seconds); the process then ends, and a write cut
	// short is finished by the next call's settle (the journal).
	Grace time.Duration
}

// Serve is the far side (`tent-tools serve-remote -C PATH`): it opens the
// project, says hello, and runs every call that comes on in through
// tools.Call with the options the call carries, writing each answer to
// out, until in ends (the link dropped, or the near side is done). A call
// whose policy asks the person sends the question back and waits for the
// near side's answer. Serve returns once in has ended and the calls under
// way have ended or had their grace.
func Serve(ctx context.Context, cfg ServeConfig, in io.Reader, out io.Writer) error {
	w := &frameWriter{w: out}
	session, err := newID()
	if err != nil {
		return err
	}
	held, err := holdSession(cfg.Sessions, session)
	if err != nil {
		w.write(hello{Protocol: protocolVersion, Build: cfg.Build, Error: toWire(err)})
		return err
	}
	defer held.release()
	dir, err := expandHome(cfg.Dir)
	if err == nil {
		var ws *tools.Workspace
		ws, err = tools.Open(dir, tools.Options{})
		if err == nil {
			defer ws.Close()
			s := &server{ws: ws, dir: dir, out: w, sessions: cfg.Sessions, asks: map[string]chan bool{}}
			if err := w.write(hello{Protocol: protocolVersion, Build: cfg.Build, Session: session}); err != nil {
				return err
			}
			return s.serve(ctx, in, cfg.Grace)
		}
	}
	err = diag.Errorf(diag.T9162, "the project folder there: %v", err)
	w.write(hello{Protocol: protocolVersion, Build: cfg.Build, Error: toWire(err)})
	return err
}

// server is one far side's state: the workspace and the questions that
// wait for the person's answer.
type server struct {
	ws       *tools.Workspace
	dir      string // the project folder, where git runs
	out      *frameWriter
	sessions string

	mu   sync.Mutex
	asks map[string]chan bool // by call id + "/" + question id
}

// serve reads requests until in ends, running each on its own goroutine.
func (s *server) serve(ctx context.Context, in io.Reader, grace time.Duration) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var calls sync.WaitGroup
	r := newFrameReader(in)
	var readErr error
	for {
		var req request
		if err := r.read(&req); err != nil {
			if !errors.Is(err, io.EOF) {
				readErr = err
			}
			break
		}
		switch req.Op {
		case "call":
			calls.Add(1)
			go func() {
				defer calls.Done()
				s.out.write(s.call(ctx, req))
			}()
		case "outcome":
			calls.Add(1)
			go func() {
				defer calls.Done()
				s.out.write(s.outcome(ctx, req))
			}()
		case "turn":
			calls.Add(1)
			go func() {
				defer calls.Done()
				s.out.write(s.turn(ctx, req))
			}()
		case "changed":
			calls.Add(1)
			go func() {
				defer calls.Done()
				s.out.write(s.changed(ctx, req))
			}()
		case "answer":
			s.answer(req)
		default:
			s.out.write(reply{ID: req.ID, Error: toWire(fmt.Errorf("remote: unknown request %q", req.Op))})
		}
	}
	// The link is gone: the calls under way are told, and given their grace.
	cancel()
	if grace <= 0 {
		grace = 5 * time.Second
	}
	done := make(chan struct{})
	go func() { calls.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(grace):
	}
	return readErr
}

// call runs one tool call with the options it carries.
func (s *server) call(ctx context.Context, req request) reply {
	opts := tools.Options{Call: req.ID}
	if o := req.Options; o != nil {
		opts.Caller, opts.Agent, opts.Turn, opts.Bounded = o.Caller, o.Agent, o.Turn, o.Bounded
		if len(o.Policy) > 0 && string(o.Policy) != "null" {
			p, err := tools.ParsePolicy(o.Policy)
			if err != nil {
				return reply{ID: req.ID, Error: toWire(err)}
			}
			opts.Policy = p
		}
		if o.Asks {
			opts.Approver = &farApprover{s: s, call: req.ID}
		}
	}
	ans, err := tools.Call(ctx, s.ws.With(opts), req.Tool, req.Input)
	if err != nil {
		return reply{ID: req.ID, Error: toWire(err)}
	}
	text := ans.Text
	rep := reply{ID: req.ID, Text: &text}
	if ans.Data != nil {
		data, err := marshalData(ans.Data)
		if err != nil {
			return reply{ID: req.ID, Error: toWire(fmt.Errorf("%s: encode the answer: %w", req.Tool, err))}
		}
		rep.Data = data
	}
	return rep
}

// outcome answers what the call req.Of did, from the history: once the
// process that had it (req.Session) has ended, and the workspace is
// settled (a write it cut short finished), the point the call made, or
// none.
func (s *server) outcome(ctx context.Context, req request) reply {
	if req.Session != "" {
		wait, cancel := context.WithTimeout(ctx, 30*time.Second)
		err := waitSession(wait, s.sessions, req.Session)
		cancel()
		if err != nil {
			return reply{ID: req.ID, Error: toWire(diag.Errorf(diag.T9164,
				"cannot tell yet whether the call was done: the process that had it still runs there after 30 s (%v); ask again later, by its history", err))}
		}
	}
	n, err := s.ws.CallPoint(ctx, req.Of)
	if err != nil {
		return reply{ID: req.ID, Error: toWire(err)}
	}
	return reply{ID: req.ID, Outcome: &outcome{Point: n, Done: n > 0}}
}

// turn starts a turn of the request's caller and agent.
func (s *server) turn(ctx context.Context, req request) reply {
	var caller, agent string
	if req.Options != nil {
		caller, agent = req.Options.Caller, req.Options.Agent
	}
	n, err := s.ws.NewTurn(ctx, caller, agent)
	if err != nil {
		return reply{ID: req.ID, Error: toWire(err)}
	}
	return reply{ID: req.ID, Turn: n}
}

// changed answers what git here says changed in the project since the
// request's ref (check --changed-since on the near side): git runs where
// the repository is, and its errors (T9135) name this host as the near
// side calls it.
func (s *server) changed(ctx context.Context, req request) reply {
	c, err := gitdiff.Since(ctx, s.dir, req.Ref, req.Host)
	if err != nil {
		return reply{ID: req.ID, Error: toWire(err)}
	}
	return reply{ID: req.ID, Changes: &c}
}

// answer hands the person's answer to the question that waits for it.
func (s *server) answer(req request) {
	s.mu.Lock()
	ch, ok := s.asks[req.ID+"/"+req.Ask]
	delete(s.asks, req.ID+"/"+req.Ask)
	s.mu.Unlock()
	if ok {
		ch <- req.Yes
	}
}

// farApprover asks the person on the near side: the question goes back
// over the link, and the call waits for its answer.
type farApprover struct {
	s    *server
	call string
}

// Approve implements tools.Approver.
func (a *farApprover) Approve(ctx context.Context, question string) (bool, error) {
	id, err := newID()
	if err != nil {
		return false, err
	}
	ch := make(chan bool, 1)
	key := a.call + "/" + id
	a.s.mu.Lock()
	a.s.asks[key] = ch
	a.s.mu.Unlock()
	defer func() {
		a.s.mu.Lock()
		delete(a.s.asks, key)
		a.s.mu.Unlock()
	}()
	if err := a.s.out.write(reply{ID: a.call, Ask: id, Question: question}); err != nil {
		return false, err
	}
	select {
	case yes := <-ch:
		return yes, nil
	case <-ctx.Done():
		return false, ctx.Err()
	}
}

// newID makes an unguessable id: of a call, a question, a session.
func newID() (string, error) {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("remote: make an id: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}
