// Package host is a host's handle of many workspaces: one Handle per host
// process (Open), over a folder that holds many workspaces, each a project
// folder with an unguessable id and an owner (docs/pages/mcp.md). The host gives it its rule of who
// may act on a workspace besides its owner, its approver (who answers for
// the person), and the policy of each agent; it then calls Tool, Turn and
// Undo. A caller who is not let in gets T3101 before anything of the
// workspace is read. No tool input can name another workspace: the
// workspace is the one the call names, and every path a tool takes is held
// to its folder (package workspace's resolver).
package host

import (
	"container/list"
	"context"
	"crypto/rand"
	"encoding/base32"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/projectfiles"
	"github.com/tent-tools/tent-tools/remote"
	"github.com/tent-tools/tent-tools/tools"
)

// Info is what the handle knows of a workspace.
type Info struct {
	ID      string    `json:"id"`
	Owner   string    `json:"owner"`
	Created time.Time `json:"created"`
	// Remote is HOST:PATH where the workspace's project is on another
	// machine (Attach, remote.go); "" where it is the workspace's folder.
	Remote string `json:"remote,omitempty"`
}

// Call says who calls and through which agent. The agent's policy (the
// one the host registered for its name) binds the tools of the call; an
// agent the handle has no policy for is refused (T9125), never run
// unbound. A call that names no agent is the caller's own, under the
// default policy.
type Call struct {
	Caller string
	Agent  string
	// Approver answers for the person in this call (the face that asks
	// them: an MCP client's elicitation); nil: the handle's.
	Approver tools.Approver
	// Bounded keeps the answer's lists within their budgets
	// (tools.Options.Bounded), for an agent's face.
	Bounded bool
}

// Config is what the host gives the handle.
type Config struct {
	// May lets a caller who is not the workspace's owner act on it; nil
	// lets nobody but the owner.
	May func(caller string, ws Info) bool
	// Approver answers for the person where a policy's ask names a change,
	// or run would send data out; nil answers no.
	Approver tools.Approver
	// Policies maps agents' names to their policies; a call through an
	// agent without one is refused (T9125). SetPolicy adds more.
	Policies map[string]*tools.Policy
	// Now is the clock of points and of new workspaces; nil means time.Now.
	Now func() time.Time
	// MaxOpen bounds the workspaces kept open between calls (each holds
	// its folder, its lock files and its databases); past it, the one idle
	// the longest is closed, and opened again when a call names it. 0
	// means DefaultMaxOpen.
	MaxOpen int
	// Log hears what the handle cannot answer to a call: a workspace it
	// evicted that failed to close. Nil means stderr.
	Log io.Writer
	// UnconfinedShell lets shell run unconfined where no sandbox can be
	// had (mcp --unconfined-shell; tools.Options.UnconfinedShell). In the
	// sandbox a tenant's command sees its own workspace alone.
	UnconfinedShell bool
	// Hosts reaches the remote workspaces' machines (remote.go); nil
	// reaches every host by ssh.
	Hosts *remote.Hosts
}

// DefaultMaxOpen is how many workspaces a handle keeps open by default.
const DefaultMaxOpen = 64

// Handle is a host's handle of its workspaces. It is safe for concurrent
// use.
type Handle struct {
	dir string
	cfg Config

	mu       sync.Mutex
	policies map[string]*tools.Policy
	open     map[string]*openWorkspace
	idle     *list.List // of ids; the front was used last
	owners   map[string]Info
	// browser is the one browser of every workspace's shot pictures,
	// started by the first and closed by Close.
	browser *tools.Browser
	// closeWorkspace closes an evicted workspace; nil is its Close (a
	// test alone sets another).
	closeWorkspace func(*tools.Workspace) error
	// remotes are the remote workspaces reached so far (remote.go).
	remotes map[string]*remote.Workspace
}

// openWorkspace is a workspace the handle holds open: busy counts the
// calls on it now (it is never closed under one), at is its place in idle.
type openWorkspace struct {
	w    *tools.Workspace
	busy int
	at   *list.Element
}

// infoFile is where a workspace's owner is kept: in its .tent/, which no
// tool reads or writes.
const infoFile = ".tent/workspace.json"

// Open opens the handle over the folder dir, making it where needed. Each
// layer opens under its own name: workspace.New makes one folder's state,
// tools.Open opens one project for a face, host.Open a folder of them.
func Open(dir string, cfg Config) (*Handle, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("host: %w", err)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return nil, fmt.Errorf("host: %w", err)
	}
	h := &Handle{dir: abs, cfg: cfg, policies: map[string]*tools.Policy{}, open: map[string]*openWorkspace{}, idle: list.New(), owners: map[string]Info{}, browser: tools.NewBrowser(),
		remotes: map[string]*remote.Workspace{}}
	for agent, p := range cfg.Policies {
		h.policies[agent] = p
	}
	return h, nil
}

// Close closes every workspace the handle opened.
func (h *Handle) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	var errs []error
	for id, o := range h.open {
		errs = append(errs, o.w.Close())
		delete(h.open, id)
	}
	h.idle.Init()
	for id, rw := range h.remotes {
		errs = append(errs, rw.Close())
		delete(h.remotes, id)
	}
	errs = append(errs, h.browser.Close())
	return errors.Join(errs...)
}

// SetPolicy registers (or, with nil, forgets) an agent's policy.
func (h *Handle) SetPolicy(agent string, p *tools.Policy) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if p == nil {
		delete(h.policies, agent)
		return
	}
	h.policies[agent] = p
}

func (h *Handle) now() time.Time {
	if h.cfg.Now != nil {
		return h.cfg.Now()
	}
	return time.Now()
}

// idEncoding writes ids in lowercase base32, without padding.
var idEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// idLen is the length of an id: 128 random bits in base32.
const idLen = 26

// newID returns a new unguessable id.
func newID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("host: new id: %w", err)
	}
	return idEncoding.EncodeToString(b[:]), nil
}

// validID reports whether s has the form of an id (so that it is a plain
// folder name, never a path).
func validID(s string) bool {
	if len(s) != idLen {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '2' && c <= '7') {
			return false
		}
	}
	return true
}

// Create makes a new workspace for owner, empty or, where template names a
// project folder, with a copy of its files (but its .tent/, .git/,
// node_modules/ and links), and returns its Info.
func (h *Handle) Create(ctx context.Context, owner, template string) (Info, error) {
	if owner == "" {
		return Info{}, fmt.Errorf("host: create: a workspace needs an owner")
	}
	id, err := newID()
	if err != nil {
		return Info{}, err
	}
	dir := filepath.Join(h.dir, id)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return Info{}, fmt.Errorf("host: create: %w", err)
	}
	if template != "" {
		if err := copyProject(ctx, template, dir); err != nil {
			os.RemoveAll(dir)
			return Info{}, fmt.Errorf("host: create from %s: %w", template, err)
		}
	}
	info := Info{ID: id, Owner: owner, Created: h.now().UTC()}
	if err := h.writeInfo(info); err != nil {
		os.RemoveAll(dir)
		return Info{}, err
	}
	h.mu.Lock()
	h.owners[id] = info
	h.mu.Unlock()
	return info, nil
}

// copyProject copies the regular files of a project folder into dst.
func copyProject(ctx context.Context, src, dst string) error {
	fsys := os.DirFS(src)
	return fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if d.IsDir() {
			if p != "." && projectfiles.SkippedFolder(d.Name()) {
				return fs.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, filepath.FromSlash(p)), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil // links and devices are not copied: a workspace holds only its own files
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, filepath.FromSlash(p)), data, 0o644)
	})
}

// denied is the T3101 of a caller not let into a workspace. It says the
// same for a workspace that does not exist, so an id cannot be probed.
func denied(caller, id string) error {
	return diag.Errorf(diag.T3101, "%q may not act on workspace %s", caller, id).With("workspace", id)
}

// admit holds the caller to the workspace: its owner, or whoever the
// host's May lets in. Nothing of the project is read before it says yes.
func (h *Handle) admit(id, caller string) (Info, error) {
	if !validID(id) {
		return Info{}, denied(caller, id)
	}
	h.mu.Lock()
	info, ok := h.owners[id]
	h.mu.Unlock()
	if !ok {
		data, err := os.ReadFile(filepath.Join(h.dir, id, filepath.FromSlash(infoFile)))
		if err != nil {
			return Info{}, denied(caller, id)
		}
		if err := json.Unmarshal(data, &info); err != nil || info.ID != id || info.Owner == "" {
			return Info{}, denied(caller, id)
		}
		h.mu.Lock()
		h.owners[id] = info
		h.mu.Unlock()
	}
	if caller != "" && caller == info.Owner {
		return info, nil
	}
	if h.cfg.May != nil && h.cfg.May(caller, info) {
		return info, nil
	}
	return Info{}, denied(caller, id)
}

// workspace returns the open workspace of an id that admit let in, as the
// call's caller and agent see it, and the release the call makes when it
// is done with it (until then it is not closed).
func (h *Handle) workspace(id string, c Call, turn int) (*tools.Workspace, func(), error) {
	h.mu.Lock()
	w, release, gone, err := h.workspaceLocked(id, c, turn)
	h.mu.Unlock()
	// Closed outside the handle's lock (Close saves .tent/index): an
	// eviction never stalls the other tenants' calls.
	h.closeAll(gone)
	return w, release, err
}

// workspaceLocked is workspace under h.mu; it answers the workspaces it
// evicted too, which its caller closes once h.mu is released.
func (h *Handle) workspaceLocked(id string, c Call, turn int) (*tools.Workspace, func(), []evicted, error) {
	opts, err := h.callOptions(c, turn)
	if err != nil {
		return nil, nil, nil, err
	}
	o, ok := h.open[id]
	if !ok {
		w, err := tools.Open(filepath.Join(h.dir, id), tools.Options{})
		if err != nil {
			return nil, nil, nil, fmt.Errorf("host: %w", err)
		}
		if err := w.ShareBrowser(h.browser); err != nil {
			w.Close()
			return nil, nil, nil, fmt.Errorf("host: %w", err)
		}
		o = &openWorkspace{w: w, at: h.idle.PushFront(id)}
		h.open[id] = o
	}
	o.busy++
	h.idle.MoveToFront(o.at)
	gone := h.evict()
	release := func() {
		h.mu.Lock()
		o.busy--
		gone := h.evict()
		h.mu.Unlock()
		h.closeAll(gone)
	}
	return o.w.With(opts), release, gone, nil
}

// callOptions are the options of a call: its agent's policy (T9125 for an
// agent the handle has no policy for), caller, turn and approver. h.mu is
// held.
func (h *Handle) callOptions(c Call, turn int) (tools.Options, error) {
	policy, known := h.policies[c.Agent]
	if c.Agent != "" && !known {
		return tools.Options{}, diag.Errorf(diag.T9125, "unknown agent %q: the host has no policy for it, and an agent never runs unbound", c.Agent).
			With("agent", c.Agent)
	}
	approver := h.cfg.Approver
	if c.Approver != nil {
		approver = c.Approver
	}
	return tools.Options{
		Policy:   policy,
		Caller:   c.Caller,
		Agent:    c.Agent,
		Turn:     turn,
		Approver: approver,
		Now:      h.cfg.Now,

		UnconfinedShell: h.cfg.UnconfinedShell,
		Bounded:         c.Bounded,
	}, nil
}

// evict takes out of the handle the workspaces used least lately, past
// the bound, that no call is using, and answers them for closeAll; it is
// called under h.mu. A workspace's next call opens it again.
func (h *Handle) evict() []evicted {
	limit := h.cfg.MaxOpen
	if limit <= 0 {
		limit = DefaultMaxOpen
	}
	var out []evicted
	for e := h.idle.Back(); e != nil && len(h.open) > limit; {
		prev := e.Prev()
		id := e.Value.(string)
		if o := h.open[id]; o.busy == 0 {
			out = append(out, evicted{id: id, w: o.w})
			delete(h.open, id)
			h.idle.Remove(e)
		}
		e = prev
	}
	return out
}

// evicted is a workspace evict took out, to close.
type evicted struct {
	id string
	w  *tools.Workspace
}

// closeAll closes the workspaces evict took out, outside h.mu, and logs
// a Close that fails (the index cache not saved, a database not closed):
// the workspace is dropped all the same, and its next call opens it again.
func (h *Handle) closeAll(ws []evicted) {
	for _, e := range ws {
		closeWorkspace := h.closeWorkspace
		if closeWorkspace == nil {
			closeWorkspace = (*tools.Workspace).Close
		}
		if err := closeWorkspace(e.w); err != nil {
			fmt.Fprintf(h.logOut(), "tent-tools: host: closing the idle workspace %s: %v\n", e.id, err)
		}
	}
}

// logOut is where the handle logs what it cannot answer to a call.
func (h *Handle) logOut() io.Writer {
	if h.cfg.Log != nil {
		return h.cfg.Log
	}
	return os.Stderr
}

// Tool runs one tool on the workspace id, under the policy of the call's
// agent, with its input as an agent sends it (each tool's page in docs/pages/). T3101 where
// the caller is not let in.
func (h *Handle) Tool(ctx context.Context, id, name string, input json.RawMessage, c Call) (tools.Answer, error) {
	return h.run(ctx, id, name, input, c, 0)
}

func (h *Handle) run(ctx context.Context, id, name string, input json.RawMessage, c Call, turn int) (tools.Answer, error) {
	info, err := h.admit(id, c.Caller)
	if err != nil {
		return tools.Answer{}, err
	}
	if info.Remote != "" {
		return h.runRemote(ctx, info, name, input, c, turn)
	}
	w, release, err := h.workspace(id, c, turn)
	if err != nil {
		return tools.Answer{}, err
	}
	defer release()
	return tools.Call(ctx, w, name, input)
}

// Turn groups the tools of one step of an agent: fn gets a Turn whose
// tools record their points with the turn's number. T3101 (and fn is not
// called) where the caller is not let in.
func (h *Handle) Turn(ctx context.Context, id string, c Call, fn func(t *Turn) error) error {
	info, err := h.admit(id, c.Caller)
	if err != nil {
		return err
	}
	var n int
	if info.Remote != "" {
		n, err = h.remoteTurn(ctx, info, c)
	} else {
		var w *tools.Workspace
		var release func()
		w, release, err = h.workspace(id, c, 0)
		if err != nil {
			return err
		}
		n, err = w.NewTurn(ctx, c.Caller, c.Agent)
		release()
	}
	if err != nil {
		return err
	}
	return fn(&Turn{h: h, id: id, call: c, n: n})
}

// Turn is one step of an agent on a workspace.
type Turn struct {
	h    *Handle
	id   string
	call Call
	n    int
}

// Number is the turn's number, as the points of its tools record it.
func (t *Turn) Number() int { return t.n }

// Tool runs a tool in the turn.
func (t *Turn) Tool(ctx context.Context, name string, input json.RawMessage) (tools.Answer, error) {
	return t.h.run(ctx, t.id, name, input, t.call, t.n)
}

// Undo puts the workspace back as it was before its newest change in
// effect, or before point (where point > 0), and records a point of the
// kind undo; see the undo tool. T3101 where the caller is not let in.
func (h *Handle) Undo(ctx context.Context, id string, c Call, point int) (tools.Answer, error) {
	input, err := json.Marshal(tools.UndoInput{Point: point})
	if err != nil {
		return tools.Answer{}, err
	}
	return h.run(ctx, id, "undo", input, c, 0)
}
