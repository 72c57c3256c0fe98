package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/tent-tools/tent-tools/host"
	"github.com/tent-tools/tent-tools/mcp"
	"github.com/tent-tools/tent-tools/tools"
)

func init() {
	register(command{
		name:    "mcp",
		summary: "Serve the tools to an AI agent over the Model Context Protocol: one project on stdio, or a host's workspaces over HTTP (docs: mcp)",
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			var host hostFlags
			fs.StringVar(&host.workspaces, "workspaces", "", "serve the workspaces in `DIR` over streamable HTTP (with --listen and --tokens)")
			fs.StringVar(&host.listen, "listen", "", "the `ADDR`ess to listen on, 127.0.0.1:PORT (a loopback address unless --public)")
			fs.StringVar(&host.tokens, "tokens", "", "the bearer tokens, a JSON `FILE`: {\"TOKEN\": {\"caller\", \"workspace\", \"agent\"}}")
			fs.StringVar(&host.policies, "policies", "", "the agents' policies, a JSON `FILE`: {\"AGENT\": {policy}}")
			fs.BoolVar(&host.public, "public", false, "let --listen take an address other machines reach (needs --tls-cert and --tls-key)")
			fs.StringVar(&host.cert, "tls-cert", "", "the TLS certificate `FILE` (PEM) to serve HTTPS with")
			fs.StringVar(&host.key, "tls-key", "", "the TLS key `FILE` (PEM) of --tls-cert")
			fs.IntVar(&host.maxSessions, "max-sessions", mcp.DefaultMaxSessions, "the most sessions one token holds at once (`N`)")
			fs.DurationVar(&host.idle, "session-idle", mcp.DefaultSessionIdle, "close a session no request reached for this `DURATION` (30m, 1h)")
			fs.Func("origin", "a page `ORIGIN` (https://app.example) whose requests are let in; repeat for more (others with an Origin are refused 403)", func(o string) error {
				host.origins = append(host.origins, o)
				return nil
			})
			fs.StringVar(&host.newOwner, "new", "", "make a new workspace in --workspaces for the owner `NAME`, print its id, and stop")
			fs.StringVar(&host.from, "from", "", "with --new: copy the project in `DIR` into the new workspace")
			fs.StringVar(&host.remote, "remote", "", "with --new: the new workspace is the project at `HOST:PATH` on another machine (docs: remote)")
			return func(e *env, args []string) (tools.Answer, error) {
				if len(args) > 0 {
					return tools.Answer{}, usagef("mcp", "mcp takes no arguments")
				}
				if host.newOwner != "" || host.from != "" || host.remote != "" {
					return host.create(e)
				}
				if host.workspaces != "" || host.listen != "" || host.tokens != "" {
					return tools.Answer{}, host.serve(e)
				}
				if t, ok := e.remoteTarget(); ok {
					return tools.Answer{}, e.serveRemoteMCP(t)
				}
				ws, err := e.workspace()
				if err != nil {
					return tools.Answer{}, err
				}
				err = mcp.ServeStdio(e.ctx, ws, mcp.Options{Yes: e.yes}, io.NopCloser(e.stdin), nopWriteCloser{e.stdout})
				return tools.Answer{}, err
			}
		},
	})
}

// nopWriteCloser is a writer whose Close does nothing: the server does not
// close the process's stdout.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// hostFlags are the flags of the HTTP host mode.
type hostFlags struct {
	workspaces, listen, tokens, policies string
	public                               bool
	cert, key                            string
	newOwner, from, remote               string
	maxSessions                          int
	idle                                 time.Duration
	origins                              []string
}

// create makes a new workspace (--new OWNER [--from DIR]) and answers its
// id, for a tokens file to name.
func (f *hostFlags) create(e *env) (tools.Answer, error) {
	if f.workspaces == "" || f.newOwner == "" || f.listen != "" || f.tokens != "" {
		return tools.Answer{}, usagef("mcp", "--new OWNER [--from DIR | --remote HOST:PATH] needs --workspaces DIR, and nothing of serving")
	}
	if f.remote != "" && f.from != "" {
		return tools.Answer{}, usagef("mcp", "--new takes --from DIR or --remote HOST:PATH, not both")
	}
	hosts, err := e.remoteHosts()
	if err != nil {
		return tools.Answer{}, err
	}
	h, err := host.Open(f.workspaces, host.Config{Hosts: hosts})
	if err != nil {
		return tools.Answer{}, usagef("mcp", "--workspaces: %v", err)
	}
	defer h.Close()
	var info host.Info
	if f.remote != "" {
		info, err = h.Attach(e.ctx, f.newOwner, f.remote)
	} else {
		info, err = h.Create(e.ctx, f.newOwner, f.from)
	}
	if err != nil {
		return tools.Answer{}, err
	}
	return tools.Answer{Text: info.ID, Data: info}, nil
}

// serve runs the HTTP host mode until SIGINT or SIGTERM.
func (f *hostFlags) serve(e *env) error {
	switch {
	case f.workspaces == "" || f.listen == "" || f.tokens == "":
		return usagef("mcp", "the HTTP host mode needs --workspaces, --listen and --tokens")
	case e.policyFile != "" || e.caller != "":
		return usagef("mcp", "--policy and --caller are for one project on stdio; over HTTP each token names its caller, and --policies the agents' policies")
	case (f.cert == "") != (f.key == ""):
		return usagef("mcp", "--tls-cert and --tls-key go together")
	case f.maxSessions < 1:
		return usagef("mcp", "--max-sessions is %d; it is 1 or more", f.maxSessions)
	case f.idle <= 0:
		return usagef("mcp", "--session-idle is %v; it is a duration above 0 (30m)", f.idle)
	}
	if err := mcp.CheckListen(f.listen, f.public, f.cert != ""); err != nil {
		return usagef("mcp", "%v", err)
	}
	data, err := os.ReadFile(f.tokens)
	if err != nil {
		return usagef("mcp", "--tokens: %v", err)
	}
	grants, err := mcp.ParseTokens(data)
	if err != nil {
		return usagef("mcp", "--tokens %s: %v", f.tokens, err)
	}
	policies := map[string]*tools.Policy{}
	if f.policies != "" {
		if policies, err = readPolicies(f.policies); err != nil {
			return err
		}
	}
	for _, g := range grants {
		if _, ok := policies[g.Agent]; !ok {
			return usagef("mcp", "--tokens %s: a token of %s names the agent %q, which --policies does not hold; an agent never runs without its policy", f.tokens, g.Caller, g.Agent)
		}
	}
	hosts, err := e.remoteHosts()
	if err != nil {
		return err
	}
	h, err := host.Open(f.workspaces, host.Config{Policies: policies, UnconfinedShell: e.unconfinedShell, Hosts: hosts})
	if err != nil {
		return usagef("mcp", "--workspaces: %v", err)
	}
	defer h.Close()
	ln, err := net.Listen("tcp", f.listen)
	if err != nil {
		return usagef("mcp", "--listen: %v", err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewHostHandler(h, grants, mcp.Options{Yes: e.yes, MaxSessions: f.maxSessions, SessionIdle: f.idle, Origins: f.origins}))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	scheme := "http"
	if f.cert != "" {
		scheme = "https"
	}
	fmt.Fprintf(e.stderr, "tent-tools mcp: serving the workspaces of %s at %s://%s/mcp\n", f.workspaces, scheme, ln.Addr())
	ctx, stop := signal.NotifyContext(e.ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	done := make(chan error, 1)
	go func() {
		if f.cert != "" {
			done <- srv.ServeTLS(ln, f.cert, f.key)
		} else {
			done <- srv.Serve(ln)
		}
	}()
	select {
	case err := <-done:
		return fmt.Errorf("mcp: %w", err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("mcp: shut down: %w", err)
	}
	return nil
}

// readPolicies reads a policies file: a JSON object from each agent's name
// to its policy, each read as strictly as --policy.
func readPolicies(file string) (map[string]*tools.Policy, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, usagef("mcp", "--policies: %v", err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, usagef("mcp", "--policies %s: not a JSON object of agents' policies: %v", file, err)
	}
	policies := make(map[string]*tools.Policy, len(raw))
	for agent, p := range raw {
		if policies[agent], err = tools.ParsePolicy(p); err != nil {
			return nil, usagef("mcp", "--policies %s: agent %s: %v", file, agent, err)
		}
	}
	return policies, nil
}
