package host

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tent-tools/tent-tools/remote"
	"github.com/tent-tools/tent-tools/tools"
)

// A remote workspace is a workspace whose project is on another machine,
// HOST:PATH (docs/pages/remote.md): its folder here holds only its
// .tent/workspace.json (id, owner, where the project is); the project,
// its history and its engine are there, reached through the handle's
// Hosts. The handle admits a caller as for any workspace, and each call
// carries the caller, the agent's policy and the turn; the person is
// asked here, by the handle's (or the call's) approver.

// Attach makes a new workspace for owner whose project is the one at
// where (HOST:PATH, as `-C` reads it), and returns its Info. The project
// is reached now: a host that cannot be reached, or a folder there that is
// no project, is an error, and no workspace is made.
func (h *Handle) Attach(ctx context.Context, owner, where string) (Info, error) {
	if owner == "" {
		return Info{}, fmt.Errorf("host: attach: a workspace needs an owner")
	}
	target, ok := remote.ParseTarget(where)
	if !ok {
		return Info{}, fmt.Errorf("host: attach: %q is no HOST:PATH", where)
	}
	rw, err := remote.Open(ctx, h.hosts(), target)
	if err != nil {
		return Info{}, err
	}
	id, err := newID()
	if err != nil {
		rw.Close()
		return Info{}, err
	}
	info := Info{ID: id, Owner: owner, Created: h.now().UTC(), Remote: target.String()}
	if err := h.writeInfo(info); err != nil {
		rw.Close()
		return Info{}, err
	}
	h.mu.Lock()
	h.owners[id] = info
	h.remotes[id] = rw
	h.mu.Unlock()
	return info, nil
}

// writeInfo makes a workspace's folder with its info file.
func (h *Handle) writeInfo(info Info) error {
	dir := filepath.Join(h.dir, info.ID)
	data, err := json.Marshal(info)
	if err != nil {
		return fmt.Errorf("host: %w", err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".tent"), 0o755); err != nil {
		return fmt.Errorf("host: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(infoFile)), data, 0o644); err != nil {
		os.RemoveAll(dir)
		return fmt.Errorf("host: %w", err)
	}
	return nil
}

// hosts answers the handle's Hosts: the config's, or one that reaches
// every host by ssh, made on first use. h.mu is not held.
func (h *Handle) hosts() *remote.Hosts {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.cfg.Hosts == nil {
		h.cfg.Hosts = remote.NewHosts(remote.HostsConfig{})
	}
	return h.cfg.Hosts
}

// remoteWorkspace answers the remote workspace of info, reaching it on
// its first call since the handle opened.
func (h *Handle) remoteWorkspace(ctx context.Context, info Info) (*remote.Workspace, error) {
	h.mu.Lock()
	rw, ok := h.remotes[info.ID]
	h.mu.Unlock()
	if ok {
		return rw, nil
	}
	target, ok := remote.ParseTarget(info.Remote)
	if !ok {
		return nil, fmt.Errorf("host: workspace %s names %q, no HOST:PATH", info.ID, info.Remote)
	}
	rw, err := remote.Open(ctx, h.hosts(), target)
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if other, ok := h.remotes[info.ID]; ok { // another call reached it first
		rw.Close()
		return other, nil
	}
	h.remotes[info.ID] = rw
	return rw, nil
}

// runRemote runs one tool on a remote workspace that admit let in.
func (h *Handle) runRemote(ctx context.Context, info Info, name string, input json.RawMessage, c Call, turn int) (tools.Answer, error) {
	h.mu.Lock()
	opts, err := h.callOptions(c, turn)
	h.mu.Unlock()
	if err != nil {
		return tools.Answer{}, err
	}
	rw, err := h.remoteWorkspace(ctx, info)
	if err != nil {
		return tools.Answer{}, err
	}
	return rw.Call(ctx, name, input, opts)
}

// remoteTurn starts a turn on a remote workspace that admit let in.
func (h *Handle) remoteTurn(ctx context.Context, info Info, c Call) (int, error) {
	h.mu.Lock()
	_, err := h.callOptions(c, 0)
	h.mu.Unlock()
	if err != nil {
		return 0, err
	}
	rw, err := h.remoteWorkspace(ctx, info)
	if err != nil {
		return 0, err
	}
	return rw.NewTurn(ctx, c.Caller, c.Agent)
}
