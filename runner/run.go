package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"strings"
	"time"

	"github.com/dop251/goja"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/runner/runlog"
	"github.com/tent-tools/tent-tools/runner/testdb"
)

// Approver answers the person's yes or no. tools.Approver has the same
// method, so a tools approver serves a run as it is.
type Approver interface {
	Approve(ctx context.Context, question string) (bool, error)
}

// Request is one run.
type Request struct {
	// Name is the function or flow to run.
	Name string
	// Input is its input as JSON (empty: {}).
	Input json.RawMessage
	// As is who runs it: "" for nobody, "system", or an id, email or name
	// of a row of the project's users table.
	As string
	// AllowSystem is set where the policy's also names runAsSystem.
	AllowSystem bool
	// Trusted is set where the policy's trust names run: sending is not asked.
	Trusted bool
	// Approver is asked before a run sends data out (nil: the answer is no).
	Approver Approver
	// Now is what ctx.now() answers (zero: the time the run starts).
	Now time.Time
}

// Result is the answer of a run that ended well (docs/pages/run.md).
type Result struct {
	Result json.RawMessage `json:"result"`
	Logged []string        `json:"logged"`
	Sent   []Sent          `json:"sent"`
	MS     float64         `json:"ms"`
	// Notes says what went wrong around a run that happened: the run log
	// could not keep it (it is in effect all the same).
	Notes []string `json:"notes,omitempty"`
	// ResultCut is the size in bytes of a result too large for an answer,
	// which then holds null as its result (the tools set it; the run log
	// keeps what the runner keeps).
	ResultCut int `json:"resultCut,omitempty"`
}

// run runs req over a and src, and keeps it in the run log.
func (r *Runner) run(ctx context.Context, a *app, src Source, req Request) (*Result, error) {
	start := time.Now()
	// The private values the run was handed, to keep out of the log
	// wherever the run carried them.
	secrets := newSecretSet(a.private)
	var res *Result
	var err error
	if pool := r.workers(); pool != nil {
		res, err = r.runInWorker(ctx, pool, a, src, req, secrets)
	} else {
		res, err = r.execute(ctx, a, src, req, start, secrets)
	}
	ms := math.Round(float64(time.Since(start).Microseconds())/10) / 100
	entry := runlog.Entry{Time: start, Name: req.Name, As: asLabel(req.As), Input: redactJSON(a, secrets, req.Input), MS: ms}
	if res != nil {
		res.MS = ms
		entry.Result = redactJSON(a, secrets, res.Result)
	}
	var te *diag.ToolError
	if err != nil && !errors.As(err, &te) {
		te = diag.Errorf(diag.T4003, "%v", err)
	}
	if te != nil {
		entry.Error = redactError(a, secrets, te)
	}
	// The log serves the agent's later questions; failing to keep it must
	// not turn a run that happened into one that did not, but it is said.
	l, lerr := r.runLog(ctx)
	if lerr == nil {
		lerr = l.Add(context.WithoutCancel(ctx), entry)
	}
	if lerr != nil {
		note := fmt.Sprintf("the run log could not keep this run, so logs will not show it: %v", lerr)
		if res != nil {
			res.Notes = append(res.Notes, note)
		} else if errors.As(err, &te) {
			te.With("notes", []string{note})
		}
	}
	return res, err
}

// asLabel is how the log names who ran.
func asLabel(as string) string {
	if as == "" {
		return "nobody"
	}
	return as
}

// execute does the run: the checks that need no code, then the code.
func (r *Runner) execute(ctx context.Context, a *app, src Source, req Request, start time.Time, secrets *secretSet) (*Result, error) {
	c := a.callables[req.Name]
	if c == nil {
		return nil, unknownCallable(a, req.Name)
	}
	raw, err := decodeJSON(req.Input)
	if err != nil {
		return nil, diag.Errorf(diag.T4002, "input of %s is not JSON: %v", req.Name, err)
	}
	system := req.As == asSystem
	if system && !req.AllowSystem {
		return nil, diag.Errorf(diag.T3102, "running as the system needs the policy's also to name runAsSystem")
	}
	db, err := r.database(ctx, a)
	if err != nil {
		return nil, err
	}
	sending := req.Trusted
	if len(c.Sends) > 0 && !sending {
		// Who runs it and what it is given are checked first, so the
		// person is asked only about a run that can happen; the question
		// is asked with no transaction open, so a slow answer holds no lock.
		if err := precheck(ctx, db, a, c, raw, req.As, system); err != nil {
			return nil, err
		}
		ok, err := approve(ctx, req.Approver, c, req.As, c.Sends)
		if err != nil {
			return nil, notLet(c.Name, c.Sends, err)
		}
		if !ok {
			return nil, notLet(c.Name, c.Sends, nil)
		}
		sending = true
	}
	tx, err := db.Begin(ctx, a.model)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	s := &session{ctx: ctx, app: a, src: src, cache: r.cache, tx: tx, http: r.cfg.HTTP, remote: r.remote, system: system, sending: sending}
	s.ask = func(kind string) (bool, error) {
		return approve(ctx, req.Approver, c, req.As, []string{kind})
	}
	s.onRows = func(table string, rows []testdb.Row) { secrets.addRows(a, table, rows) }
	var input map[string]any
	if s.user, input, err = s.who(c, raw, req.As); err != nil {
		return nil, err
	}
	if s.user != nil {
		secrets.addRows(a, a.users, []testdb.Row{s.user})
	}
	now := req.Now
	if now.IsZero() {
		now = start
	}
	text, err := r.call(s, c.Name, input, now)
	if err != nil {
		var te *diag.ToolError
		if errors.As(err, &te) {
			if len(s.logged) > 0 {
				te.With("logged", s.logged)
			}
			if len(s.sent) > 0 {
				te.With("sent", s.sent)
			}
		}
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("run %s: %w", c.Name, err)
	}
	logged := s.logged
	if s.cut > 0 {
		logged = append(logged, fmt.Sprintf("(%d more lines cut)", s.cut))
	}
	res := &Result{Result: json.RawMessage(text), Logged: logged, Sent: s.sent}
	if res.Logged == nil {
		res.Logged = []string{}
	}
	if res.Sent == nil {
		res.Sent = []Sent{}
	}
	return res, nil
}

// precheck checks, in a transaction of its own that writes nothing, who
// a run is as and what it is given.
func precheck(ctx context.Context, db *testdb.DB, a *app, c *callable, raw any, as string, system bool) error {
	tx, err := db.Begin(ctx, a.model)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	s := &session{ctx: ctx, app: a, tx: tx, system: system}
	_, _, err = s.who(c, raw, as)
	return err
}

// who answers the users row a run is as (nil for nobody and the system)
// and its input, checked and defaulted.
func (s *session) who(c *callable, raw any, as string) (testdb.Row, map[string]any, error) {
	var user testdb.Row
	if as != "" && !s.system {
		var err error
		if user, err = findUser(s.tx, s.app, as); err != nil {
			return nil, nil, err
		}
	}
	input, err := s.checkInput(c, raw, false)
	if err != nil {
		return nil, nil, err
	}
	return user, input, nil
}

// call runs the callable in a fresh runtime under the limits and answers
// its result as JSON text. Everything that runs app code — the call, and
// reading what it answered or threw (getters, toJSON, Proxies) — runs
// under the limits. A fault of the runner itself (a panic in a host
// primitive) is an error, never a crash of the host.
func (r *Runner) call(s *session, name string, input map[string]any, now time.Time) (text string, err error) {
	inText, err := json.Marshal(input)
	if err != nil {
		return "", fmt.Errorf("run %s: %w", name, err)
	}
	run, err := s.start(r.guard, r.prelude, now, runSeed(name, inText, now))
	if err != nil {
		return "", err
	}
	s.watch = watch(s.ctx, s.vm, r.cfg.TimeLimit, r.cfg.MemoryLimit)
	defer s.watch.stop()
	defer func() {
		if x := recover(); x != nil {
			text = ""
			if lp, ok := x.(limitPanic); ok {
				err = diag.Errorf(lp.hit.code, "%s", lp.hit.message)
				return
			}
			err = fmt.Errorf("run %s: the runner failed: %v", name, x)
		}
	}()
	v, err := run(goja.Undefined(), s.vm.ToValue(name), s.vm.ToValue(string(inText)))
	if err != nil {
		return "", s.thrown(err, nil)
	}
	p, ok := v.Export().(*goja.Promise)
	if !ok {
		return "", fmt.Errorf("run %s: the prelude answered no promise", name)
	}
	switch p.State() {
	case goja.PromiseStateFulfilled:
		return s.resultJSON(p.Result())
	case goja.PromiseStateRejected:
		return "", s.thrown(nil, p.Result())
	}
	return "", diag.Errorf(diag.T4003, "%s answered a promise that never settles (the run has no timers nor events to wait for)", name)
}

// resultJSON makes a run's result JSON on the host's side, under the
// run's limits: undefined is null, what JSON.stringify would refuse (a
// cycle, a BigInt, a getter that throws) is T4003.
func (s *session) resultJSON(v goja.Value) (string, error) {
	var text string
	var ok bool
	if err := s.safely(func() { text, ok = s.stringify(v, goja.Undefined(), goja.Undefined()) }); err != nil {
		return "", s.thrown(err, nil)
	}
	if !ok {
		return "null", nil
	}
	return text, nil
}

// runSeed is the seed of a run's Math.random: the same name, input and
// clock give the same numbers (ctx.now() is the clock, Request.Now).
func runSeed(name string, input []byte, now time.Time) uint64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	h.Write([]byte{0})
	h.Write(input)
	h.Write([]byte{0})
	h.Write([]byte(now.UTC().Format(time.RFC3339Nano)))
	return h.Sum64()
}

// approve asks the person whether a run may send data out.
func approve(ctx context.Context, ap Approver, c *callable, as string, kinds []string) (bool, error) {
	if ap == nil {
		return false, &diag.Unasked{Why: "the run was given no approver (Request.Approver)", Instead: "a host that gives one lets the person be asked"}
	}
	q := fmt.Sprintf("Run %s %s as %s on the test database? It sends data out of the app (%s): mail is captured, never delivered; HTTP requests reach the hosts that engine.ts allows.",
		c.Kind, c.Name, asLabel(as), strings.Join(kinds, ", "))
	ok, err := ap.Approve(ctx, q)
	var unasked *diag.Unasked
	if err != nil && !errors.As(err, &unasked) {
		return false, fmt.Errorf("asking the person: %w", err)
	}
	return ok, err
}

// notLet is T3103 for a run of name that was not let send data out
// (kinds): the person said no (err nil), or nobody could be asked (err an
// Unasked: why, and what would let them be asked, on this face). Another
// error of the asking is answered as it is.
func notLet(name string, kinds []string, err error) error {
	sends := strings.Join(kinds, ", ")
	var unasked *diag.Unasked
	switch {
	case err == nil:
		return diag.Errorf(diag.T3103, "the person did not let %s send data out (%s)", name, sends)
	case errors.As(err, &unasked):
		return diag.Errorf(diag.T3103, "nobody was asked to let %s send data out (%s): %s; %s; trust: [\"run\"] in the agent's policy lets it send without asking",
			name, sends, unasked.Why, unasked.Instead).With("unasked", unasked.Why)
	}
	return err
}

// driftError is T2011 for a run refused because the test database has
// what no definition names.
func driftError(dr []testdb.Drift) *diag.ToolError {
	var names []string
	for _, d := range dr {
		names = append(names, d.String())
	}
	return diag.Errorf(diag.T2011, "the test database has %s, which no definition names; state it before running: "+
		"add a dropped column to removed on its table (or a dropped table to removed on project), "+
		"or add the old name to was where it was renamed, or reset the test database",
		strings.Join(names, ", ")).With("drift", names)
}
