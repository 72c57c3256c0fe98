package mcp

import (
	"context"
	"encoding/json"
	"io"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tent-tools/tent-tools/tools"
)

// project is the backend of one project folder: every call runs on the
// workspace as its options (caller, agent, policy) say, with the call's
// approver. Where the options name no agent, the points name the MCP
// client as it calls itself: a label only, which chooses no policy.
type project struct{ ws *tools.Workspace }

func (p project) call(ctx context.Context, from caller, name string, input json.RawMessage, ap tools.Approver) (tools.Answer, error) {
	o := p.ws.Options()
	o.Approver, o.Bounded = ap, true // an agent's face: every answer within its budgets
	if o.Agent == "" {
		o.Agent = from.client
	}
	return tools.Call(ctx, p.ws.With(o), name, input)
}

// NewProjectServer returns the MCP server of one project: its tools run
// on ws (as ws's caller and agent, under its policy), and the person is
// asked as opts says.
func NewProjectServer(ws *tools.Workspace, opts Options) *sdk.Server {
	return newServer(project{ws: ws}, opts, newInflight())
}

// ServeStdio serves the project ws to one client over in and out (the
// MCP stdio transport: newline-delimited JSON-RPC), until the client
// closes in or ctx ends.
//
// The folder is watched while it serves (tools.Workspace.Watch): a call
// looks only at the files the watcher heard of since the last one, not
// at every file of the project. Where the folder cannot be watched, each
// call walks it, as a one-shot command does.
func ServeStdio(ctx context.Context, ws *tools.Workspace, opts Options, in io.ReadCloser, out io.WriteCloser) error {
	if wt, err := ws.Watch(nil); err == nil {
		defer wt.Close()
	}
	calls := newInflight()
	server := newServer(project{ws: ws}, opts, calls)
	// A client that closes stdin is gone: its calls under way stop.
	return server.Run(ctx, &sdk.IOTransport{Reader: &eofReader{ReadCloser: in, f: calls}, Writer: out})
}

// Caller runs the calls of a project that is no folder of this machine:
// package remote's Workspace, whose engine runs where the files are.
type Caller interface {
	Call(ctx context.Context, name string, input json.RawMessage, opts tools.Options) (tools.Answer, error)
}

// callerProject is the backend of a project reached through a Caller: each
// call with base's caller, agent and policy and the call's approver, the
// MCP client's name for an agent where base names none.
type callerProject struct {
	c    Caller
	base tools.Options
}

func (p callerProject) call(ctx context.Context, from caller, name string, input json.RawMessage, ap tools.Approver) (tools.Answer, error) {
	o := p.base
	o.Approver, o.Bounded = ap, true
	if o.Agent == "" {
		o.Agent = from.client
	}
	return p.c.Call(ctx, name, input, o)
}

// ServeStdioCaller is ServeStdio of a project reached through c (a
// remote project, `tent-tools mcp -C HOST:PATH`), whose calls carry base's
// caller, agent and policy; the person is asked here, as opts says.
func ServeStdioCaller(ctx context.Context, c Caller, base tools.Options, opts Options, in io.ReadCloser, out io.WriteCloser) error {
	calls := newInflight()
	server := newServer(callerProject{c: c, base: base}, opts, calls)
	return server.Run(ctx, &sdk.IOTransport{Reader: &eofReader{ReadCloser: in, f: calls}, Writer: out})
}
