package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/tent-tools/tent-tools/internal/listentoken"
	"github.com/tent-tools/tent-tools/internal/servergc"
	"github.com/tent-tools/tent-tools/lsp"
	"github.com/tent-tools/tent-tools/tools"
)

func init() {
	register(command{
		name:    "lsp",
		summary: "Serve the language server on stdin and stdout (or WebSocket) to an editor; the project is its root folder (docs: lsp)",
		server:  true,
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			lspFlags(fs)
			// run starts the server itself, before any flag every command
			// takes: these only come here after such a flag.
			return func(*env, []string) (tools.Answer, error) {
				return tools.Answer{}, usagef("lsp", "lsp takes its project from the editor's root folder, not -C, and answers no --json: run it as `tent-tools lsp`")
			}
		},
	})
}

// lspFlagValues are the values of lsp's flags.
type lspFlagValues struct {
	lo                   lsp.ListenOptions
	tokenFile, root      string
	caller, policyFile   string
	yes, unconfinedShell bool
	maxDocs              int
}

// lspFlags defines lsp's flags on fs, for the server and for its usage.
func lspFlags(fs *flag.FlagSet) *lspFlagValues {
	v := &lspFlagValues{}
	lo := &v.lo
	fs.StringVar(&lo.Addr, "listen", "", "serve WebSocket on `HOST:PORT` (loopback) instead of stdio")
	fs.Func("origin", "a page `ORIGIN` (http://127.0.0.1:8080) allowed to connect over WebSocket; repeat for more", func(o string) error {
		lo.Origins = append(lo.Origins, o)
		return nil
	})
	fs.StringVar(&v.tokenFile, "token-file", "", "with --listen: the token a connection must carry, read from `FILE` (mode 600); default: a new one, printed in the URL")
	fs.IntVar(&lo.MaxConns, "max-connections", listentoken.DefaultMaxConns, "with --listen: the most connections served at once (`N`)")
	fs.IntVar(&v.maxDocs, "max-documents", lsp.DefaultMaxDocuments, "with --listen: the most documents one connection keeps open (`N`)")
	fs.StringVar(&v.root, "root", "", "with --listen: the folder `DIR` a client's project must be or lie in (default: the current folder)")
	fs.StringVar(&v.caller, "caller", "", "who acts, by `NAME` (default: the project's owner); a client names no other")
	fs.StringVar(&v.policyFile, "policy", "", "the policy, a JSON `FILE`, every session is judged by; a client may only narrow it")
	fs.BoolVar(&v.yes, "yes", false, "answer yes where the policy asks the person")
	fs.BoolVar(&v.unconfinedShell, "unconfined-shell", false, unconfinedShellHelp)
	fs.BoolVar(&lo.Public, "public", false, "allow --listen on an address that is not the loopback (needs --tls-cert and --tls-key)")
	fs.StringVar(&lo.CertFile, "tls-cert", "", "the TLS certificate `FILE` (PEM) for --public")
	fs.StringVar(&lo.KeyFile, "tls-key", "", "the TLS key `FILE` (PEM) for --public")
	return v
}

// runLSP runs `tent-tools lsp`: the language server on stdin and stdout,
// or on WebSocket (--listen). The project is the client's root folder
// (initialize), not -C. Exit status: 0 after shutdown and exit, 1 where
// exit came without shutdown (LSP's rule) or the stream failed, 2 bad
// usage.
func runLSP(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("lsp")
	v := lspFlags(fs)
	lo := &v.lo
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		if errors.Is(err, flag.ErrHelp) {
			io.WriteString(stdout, usage("lsp"))
			return 0
		}
		msg := "lsp takes no arguments"
		if err != nil {
			msg = flagError("lsp", fs, err).Error()
		}
		fmt.Fprintf(stderr, "tent-tools: %s\n\n%s", msg, usage("lsp"))
		return 2
	}
	bad := func(format string, args ...any) int {
		fmt.Fprintf(stderr, "tent-tools lsp: "+format+"\n", args...)
		return 2
	}
	listenOnly := false
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "token-file", "max-connections", "max-documents", "root", "origin", "public", "tls-cert", "tls-key":
			listenOnly = true
		}
	})
	if lo.Addr == "" && listenOnly {
		return bad("--token-file, --root, --origin, --max-connections, --max-documents and --public are for --listen; on stdio the editor that starts the server is its only client")
	}
	var gc *servergc.Collector
	if tuneGC {
		// A long-lived server holds its heap near what it keeps live once
		// its index is built, and gives its free memory back once idle
		// (docs/pages/performance.md, "A long-lived server's memory").
		gc = servergc.Watch(ctx)
	}
	opts := lsp.Options{Log: stderr, DefaultCaller: defaultCaller, UnconfinedShell: v.unconfinedShell}
	if lo.Addr == "" {
		// One session, one index. A listening server opens a project for
		// each client, whose build would run under the limit the first
		// one's set: it keeps Go's default (and the idle collection).
		opts.Indexed = gc.Hold
	}
	if lo.Addr != "" || v.caller != "" || v.policyFile != "" || v.yes {
		// The operator's command line binds the sessions: a client
		// narrows the policy, never widens it (docs/pages/lsp.md).
		op := &lsp.Operator{Caller: v.caller, Yes: v.yes}
		if v.policyFile != "" {
			data, err := os.ReadFile(v.policyFile)
			if err != nil {
				return bad("--policy: %v", err)
			}
			if op.Policy, err = tools.ParsePolicy(data); err != nil {
				return bad("--policy %s: %v", v.policyFile, err)
			}
		}
		opts.Operator = op
	}
	if lo.Addr == "" {
		return serveStdio(ctx, stdin, stdout, stderr, opts)
	}
	token, err := listentoken.Load(v.tokenFile)
	if err != nil {
		return bad("%v", err)
	}
	if lo.MaxConns < 1 || v.maxDocs < 1 {
		return bad("--max-connections and --max-documents are 1 or more")
	}
	if v.root == "" {
		v.root = "."
	}
	if opts.Operator.Root, err = filepath.Abs(v.root); err != nil {
		return bad("--root: %v", err)
	}
	if info, err := os.Stat(opts.Operator.Root); err != nil || !info.IsDir() {
		return bad("--root %s is not a folder", v.root)
	}
	opts.MaxDocuments, opts.MaxDocumentSize = v.maxDocs, tools.MaxText
	lo.Token = token
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	lo.Ready = func(addr net.Addr) {
		scheme := "ws"
		if lo.Public {
			scheme = "wss"
		}
		fmt.Fprintf(stderr, "tent-tools lsp: listening on %s\n", token.URL(scheme, addr.String()))
	}
	if err := lsp.ListenAndServe(ctx, *lo, opts); err != nil {
		fmt.Fprintf(stderr, "tent-tools lsp: %v\n", err)
		return 1
	}
	return 0
}

// serveStdio runs one session on stdin and stdout.
func serveStdio(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, opts lsp.Options) int {
	err := lsp.Serve(ctx, stdio{in: stdin, out: stdout}, opts)
	switch {
	case err == nil:
		return 0
	case lsp.ErrNoShutdown(err):
		return 1
	default:
		fmt.Fprintf(stderr, "tent-tools lsp: %v\n", err)
		return 1
	}
}

// stdio is the server's stream: it reads stdin and writes stdout; closing
// it closes stdin where that is a file, so that the reader stops.
type stdio struct {
	in  io.Reader
	out io.Writer
}

func (s stdio) Read(p []byte) (int, error)  { return s.in.Read(p) }
func (s stdio) Write(p []byte) (int, error) { return s.out.Write(p) }

func (s stdio) Close() error {
	if f, ok := s.in.(*os.File); ok {
		return f.Close()
	}
	return nil
}
