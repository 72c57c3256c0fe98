package main

import (
	"encoding/json"
	"io"

	"github.com/tent-tools/tent-tools/mcp"
	"github.com/tent-tools/tent-tools/remote"
	"github.com/tent-tools/tent-tools/tools"
)

// remoteTarget answers the project of -C where it is HOST:PATH, as scp
// reads it (remote.ParseTarget).
func (e *env) remoteTarget() (remote.Target, bool) {
	return remote.ParseTarget(e.dir)
}

// remoteWorkspace reaches the project of -C HOST:PATH: its far side
// started through the host's transport (remoteHosts), once for the run.
func (e *env) remoteWorkspace(t remote.Target) (*remote.Workspace, error) {
	if e.rws != nil {
		return e.rws, nil
	}
	hosts, err := e.remoteHosts()
	if err != nil {
		return nil, err
	}
	rws, err := remote.Open(e.ctx, hosts, t)
	if err != nil {
		return nil, err
	}
	e.rws = rws
	return rws, nil
}

// remoteHosts are the hosts of --hosts, or of the default hosts file,
// whose copies of the binary are told on stderr.
func (e *env) remoteHosts() (*remote.Hosts, error) {
	file, must := e.hostsFile, e.hostsFile != ""
	if file == "" {
		file = remote.HostsFile()
	}
	transports, err := remote.ReadHostsFile(file, must)
	if err != nil {
		return nil, err
	}
	return remote.NewHosts(remote.HostsConfig{Transports: transports, Log: e.stderr}), nil
}

// callRemote runs a tool on the project of -C HOST:PATH, with the policy,
// caller and approver a local call would have.
func (e *env) callRemote(t remote.Target, tool string, input json.RawMessage) (tools.Answer, error) {
	opts, err := e.options()
	if err != nil {
		return tools.Answer{}, err
	}
	rws, err := e.remoteWorkspace(t)
	if err != nil {
		return tools.Answer{}, err
	}
	return rws.Call(e.ctx, tool, input, opts)
}

// serveRemoteMCP serves the project of -C HOST:PATH over MCP on stdio
// (tent-tools mcp -C HOST:PATH): each call forwarded with --policy and
// --caller, the person asked here through the MCP client.
func (e *env) serveRemoteMCP(t remote.Target) error {
	opts, err := e.options()
	if err != nil {
		return err
	}
	opts.Approver, opts.Progress, opts.TextZone = nil, nil, nil
	rws, err := e.remoteWorkspace(t)
	if err != nil {
		return err
	}
	return mcp.ServeStdioCaller(e.ctx, rws, opts, mcp.Options{Yes: e.yes}, io.NopCloser(e.stdin), nopWriteCloser{e.stdout})
}

// sources reads the project's files for the check's fingerprints: here
// from the folder, for -C HOST:PATH through the read tool there (the raw
// text, line ends and all), each file once.
func (e *env) sources() func(string) []byte {
	if _, ok := e.remoteTarget(); !ok {
		return projectFiles(e.dir)
	}
	return func(path string) []byte {
		ans, err := e.call("read", tools.ReadInput{Path: path})
		if err != nil {
			return nil
		}
		read, err := answerData[tools.ReadAnswer](ans)
		if err != nil {
			return nil
		}
		return []byte(read.Text)
	}
}
