package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/tent-tools/tent-tools/check"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/tools"
)

// Workspace is a project on another machine as the near side holds it:
// its target, and the link to its far side (started on first use, and
// again after it dropped). Its methods are safe for concurrent use.
type Workspace struct {
	hosts  *Hosts
	target Target

	mu   sync.Mutex
	link *link

	// sent, where a test sets it, hears each request once it is on its
	// link (to cut the link there); dialed hears each link started.
	sent   func(l *link, req request)
	dialed func(l *link)
}

// Open reaches the project at target through hosts: it starts the far
// side there (copying this binary where that machine lacks it), so that a
// host that cannot be reached, or a folder that is no project there, is
// an error now.
func Open(ctx context.Context, hosts *Hosts, target Target) (*Workspace, error) {
	w := &Workspace{hosts: hosts, target: target}
	if _, err := w.current(ctx); err != nil {
		return nil, err
	}
	return w, nil
}

// Target is the project the workspace reaches.
func (w *Workspace) Target() Target { return w.target }

// Close ends the link, and so the far side's process.
func (w *Workspace) Close() error {
	w.mu.Lock()
	l := w.link
	w.link = nil
	w.mu.Unlock()
	if l != nil {
		l.close()
	}
	return nil
}

// current answers the live link, starting a far side where there is none.
func (w *Workspace) current(ctx context.Context) (*link, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.link != nil && w.link.alive() {
		return w.link, nil
	}
	w.link = nil
	b, err := w.hosts.self()
	if err != nil {
		return nil, err
	}
	transport := w.hosts.Transport(w.target.Host)
	l, err := dial(ctx, w.target.Host, transport, b, w.target.Path)
	var need *errNeedsBinary
	if errors.As(err, &need) {
		if err := install(ctx, w.hosts, w.target.Host, b, need); err != nil {
			return nil, err
		}
		l, err = dial(ctx, w.target.Host, transport, b, w.target.Path)
		if errors.As(err, &need) {
			err = diag.Errorf(diag.T9162, "tent-tools was copied to %s but its hash does not match there; install it there by hand at ~/.cache/tent-tools/%s/tent-tools", w.target.Host, b.Build).
				With("host", w.target.Host)
		}
	}
	if err != nil {
		return nil, err
	}
	if w.dialed != nil {
		w.dialed(l)
	}
	w.link = l
	return l, nil
}

// Call runs the tool name with its input (the JSON of each tool's page in docs/pages/) on the
// far side, with opts' policy, caller, agent and turn; where the policy
// asks, opts' approver is asked here. The answer's data is the far side's
// JSON (json.RawMessage), which every face prints as the local answer.
//
// The failure rules (docs/pages/remote.md): at most two calls at once per host; a
// call that only reads whose transport failed is sent once more on a new
// link; a call that writes is never sent twice: where its link dropped
// before its answer, the far side's history is asked, by the call's id,
// whether it made its point (answered as the point, or as T9161, not
// done).
func (w *Workspace) Call(ctx context.Context, name string, input json.RawMessage, opts tools.Options) (tools.Answer, error) {
	release, err := w.hosts.acquire(ctx, w.target.Host)
	if err != nil {
		return tools.Answer{}, err
	}
	defer release()
	t, known := tools.Lookup(name)
	writes := known && t.Writes
	wo := &wireOptions{Caller: opts.Caller, Agent: opts.Agent, Turn: opts.Turn, Asks: opts.Approver != nil, Bounded: opts.Bounded}
	if opts.Policy != nil {
		if wo.Policy, err = json.Marshal(opts.Policy); err != nil {
			return tools.Answer{}, fmt.Errorf("remote: the policy: %w", err)
		}
	}
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	for try := 0; ; try++ {
		id, err := newID()
		if err != nil {
			return tools.Answer{}, err
		}
		l, err := w.current(ctx)
		if err != nil {
			return tools.Answer{}, err
		}
		ans, err := w.once(ctx, l, request{ID: id, Op: "call", Tool: name, Input: input, Options: wo}, opts)
		var drop *linkDropped
		if !errors.As(err, &drop) {
			return ans, err
		}
		if writes {
			return w.outcome(ctx, name, id, l.session, drop)
		}
		if try == 1 {
			return tools.Answer{}, drop.err
		}
	}
}

// NewTurn starts a turn of the caller's agent there (the points of the
// calls that carry its number belong to it) and answers its number. Like a
// write it is sent once: where its link drops it is T9160.
func (w *Workspace) NewTurn(ctx context.Context, caller, agent string) (int, error) {
	release, err := w.hosts.acquire(ctx, w.target.Host)
	if err != nil {
		return 0, err
	}
	defer release()
	id, err := newID()
	if err != nil {
		return 0, err
	}
	l, err := w.current(ctx)
	if err != nil {
		return 0, err
	}
	rep, err := w.roundTrip(ctx, l, request{ID: id, Op: "turn", Options: &wireOptions{Caller: caller, Agent: agent}})
	var drop *linkDropped
	if errors.As(err, &drop) {
		return 0, drop.err
	}
	if err != nil {
		return 0, err
	}
	if rep.Error != nil {
		return 0, fromWire(rep.Error)
	}
	return rep.Turn, nil
}

// ChangedSince asks git on the far side which lines of the project
// changed since ref, as `check --changed-since REF` reads them
// (gitdiff.Since): git runs there, where the project and its repository
// are, never here. Its errors are T9135 naming the host (no git there, no
// repository, an unknown ref). Like a read it is sent once more where the
// transport failed.
func (w *Workspace) ChangedSince(ctx context.Context, ref string) (*check.ChangedLines, error) {
	release, err := w.hosts.acquire(ctx, w.target.Host)
	if err != nil {
		return nil, err
	}
	defer release()
	for try := 0; ; try++ {
		id, err := newID()
		if err != nil {
			return nil, err
		}
		l, err := w.current(ctx)
		if err != nil {
			return nil, err
		}
		rep, err := w.roundTrip(ctx, l, request{ID: id, Op: "changed", Ref: ref, Host: w.target.Host})
		var drop *linkDropped
		if errors.As(err, &drop) {
			if try == 1 {
				return nil, drop.err
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		if rep.Error != nil {
			return nil, fromWire(rep.Error)
		}
		if rep.Changes == nil {
			return nil, fmt.Errorf("remote: %s answered no changes since %s", w.target.Host, ref)
		}
		return rep.Changes.Lines()
	}
}

// roundTrip sends one request that asks no person on l and waits for its
// reply; a link that ends first is linkDropped.
func (w *Workspace) roundTrip(ctx context.Context, l *link, req request) (reply, error) {
	replies, err := l.send(req)
	if err != nil {
		return reply{}, &linkDropped{err: err}
	}
	defer l.forget(req.ID)
	if w.sent != nil {
		w.sent(l, req)
	}
	select {
	case rep := <-replies:
		return rep, nil
	case <-l.done:
		// A reply read just before the end is still the answer.
		select {
		case rep := <-replies:
			return rep, nil
		default:
		}
		return reply{}, &linkDropped{err: l.dropped()}
	case <-ctx.Done():
		return reply{}, ctx.Err()
	}
}

// linkDropped is a call whose link ended before its answer.
type linkDropped struct{ err error }

func (e *linkDropped) Error() string { return e.err.Error() }

// once sends one request on l and waits for its answer, answering the
// far side's questions for the person by opts' approver.
func (w *Workspace) once(ctx context.Context, l *link, req request, opts tools.Options) (tools.Answer, error) {
	replies, err := l.send(req)
	if err != nil {
		return tools.Answer{}, &linkDropped{err: err}
	}
	defer l.forget(req.ID)
	if w.sent != nil {
		w.sent(l, req)
	}
	for {
		select {
		case rep := <-replies:
			if rep.Ask != "" {
				yes := false
				if opts.Approver != nil {
					if yes, err = opts.Approver.Approve(ctx, rep.Question); err != nil {
						yes = false
					}
				}
				if err := l.out.write(request{ID: req.ID, Op: "answer", Ask: rep.Ask, Yes: yes}); err != nil {
					return tools.Answer{}, &linkDropped{err: l.dropped()}
				}
				continue
			}
			return answerOf(rep)
		case <-l.done:
			// A reply read just before the end is still the answer.
			select {
			case rep := <-replies:
				if rep.Ask == "" {
					return answerOf(rep)
				}
			default:
			}
			return tools.Answer{}, &linkDropped{err: l.dropped()}
		case <-ctx.Done():
			return tools.Answer{}, ctx.Err()
		}
	}
}

// answerOf makes a reply the answer a local call would have made.
func answerOf(rep reply) (tools.Answer, error) {
	if rep.Error != nil {
		return tools.Answer{}, fromWire(rep.Error)
	}
	if rep.Outcome != nil {
		return tools.Answer{}, fmt.Errorf("remote: an outcome where an answer was due")
	}
	ans := tools.Answer{}
	if rep.Text != nil {
		ans.Text = *rep.Text
	}
	if len(rep.Data) > 0 && string(rep.Data) != "null" {
		ans.Data = rep.Data
	}
	return ans, nil
}

// Outcome is the answer of a writing call whose link dropped before its
// answer and which the far side's history records as done: the point it
// made. (Not done is the error T9161.)
type Outcome struct {
	Tool  string `json:"tool"`
	Done  bool   `json:"done"`
	Point int    `json:"point"`
	Host  string `json:"host"`
	Note  string `json:"note"`
}

// outcome asks a new far side what the writing call id, sent on the
// session that dropped, did, and answers it.
func (w *Workspace) outcome(ctx context.Context, tool, id, session string, drop *linkDropped) (tools.Answer, error) {
	qid, err := newID()
	if err != nil {
		return tools.Answer{}, err
	}
	var rep reply
ask:
	for try := 0; try < 2; try++ {
		l, err := w.current(ctx)
		if err != nil {
			return tools.Answer{}, diag.Errorf(diag.T9164, "the link to %s dropped before %s's answer, and the far side cannot be asked whether it was done: %v; its history (tent-tools history -C %s) tells", w.target.Host, tool, err, w.target).
				With("host", w.target.Host).With("call", id)
		}
		replies, err := l.send(request{ID: qid, Op: "outcome", Of: id, Session: session})
		if err != nil {
			continue
		}
		select {
		case rep = <-replies:
			l.forget(qid)
			break ask
		case <-l.done:
			l.forget(qid)
		case <-ctx.Done():
			return tools.Answer{}, ctx.Err()
		}
	}
	if rep.Error != nil {
		return tools.Answer{}, fromWire(rep.Error)
	}
	if rep.Outcome == nil {
		return tools.Answer{}, diag.Errorf(diag.T9164, "the link to %s dropped before %s's answer, and asking the far side whether it was done failed too; its history (tent-tools history -C %s) tells", w.target.Host, tool, w.target).
			With("host", w.target.Host).With("call", id)
	}
	if rep.Outcome.Point == 0 {
		return tools.Answer{}, diag.Errorf(diag.T9161, "the link to %s dropped before %s's answer (%v); the far side's history records no point of this call: it was not done, and it was not sent again", w.target.Host, tool, drop.err).
			With("host", w.target.Host).With("done", false).With("point", nil)
	}
	o := Outcome{Tool: tool, Done: true, Point: rep.Outcome.Point, Host: w.target.Host,
		Note: "the link dropped before the answer; the far side's history records the call as this point"}
	text := fmt.Sprintf("%s on %s was done: the link dropped before its answer, and the far side's history records it as point %d (undo puts it back)\n", tool, w.target.Host, o.Point)
	return tools.Answer{Text: text, Data: o}, nil
}
