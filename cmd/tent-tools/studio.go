package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/tent-tools/tent-tools/internal/listentoken"
	"github.com/tent-tools/tent-tools/lsp"
	"github.com/tent-tools/tent-tools/studio"
	"github.com/tent-tools/tent-tools/tools"
)

func init() {
	register(command{
		name:    "studio",
		summary: "Serve the visual editor of the project to a browser on this machine: prints the URL, with its token, to open (docs: studio)",
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			var f studioFlags
			fs.StringVar(&f.lc.Addr, "listen", "", "serve on `HOST:PORT`, a loopback address (default "+studio.DefaultAddr+", or a free port where 7200 is taken)")
			fs.StringVar(&f.tokenFile, "token-file", "", "the token the page's URL carries, read from `FILE` (mode 600); default: a new one, printed in the URL")
			fs.IntVar(&f.maxConns, "max-connections", listentoken.DefaultMaxConns, "the most pages (WebSockets) served at once (`N`)")
			fs.BoolVar(&f.lc.Public, "public", false, "allow --listen on an address that is not the loopback (needs --tls-cert and --tls-key)")
			fs.StringVar(&f.lc.CertFile, "tls-cert", "", "the TLS certificate `FILE` (PEM) for --public")
			fs.StringVar(&f.lc.KeyFile, "tls-key", "", "the TLS key `FILE` (PEM) for --public")
			return func(e *env, args []string) (tools.Answer, error) {
				if len(args) > 0 {
					return tools.Answer{}, usagef("studio", "studio takes no arguments; -C DIR names the project")
				}
				return tools.Answer{}, f.serve(e)
			}
		},
	})
}

// studioFlags are studio's own flags.
type studioFlags struct {
	lc        studio.ListenConfig
	tokenFile string
	maxConns  int
}

// serve runs the studio until SIGINT or SIGTERM: it prints the URL to
// open on stdout, and serves the page and its language server, bound by
// the operator's --caller, --policy and --yes as `lsp --listen` is.
func (f *studioFlags) serve(e *env) error {
	if _, ok := e.remoteTarget(); ok {
		return usagef("studio", "studio serves a project on this machine; run it where the project is (ssh -L forwards its port)")
	}
	if f.maxConns < 1 {
		return usagef("studio", "--max-connections is %d; it is 1 or more", f.maxConns)
	}
	if (f.lc.CertFile == "") != (f.lc.KeyFile == "") {
		return usagef("studio", "--tls-cert and --tls-key go together")
	}
	root, err := filepath.Abs(e.dir)
	if err != nil {
		return usagef("studio", "-C: %v", err)
	}
	if info, err := os.Stat(root); err != nil || !info.IsDir() {
		return usagef("studio", "-C %s is not a folder", e.dir)
	}
	if _, err := os.Stat(filepath.Join(root, "project.ts")); err != nil {
		return usagef("studio", "-C %s holds no project.ts: the studio opens a tent project (docs: format)", e.dir)
	}
	token, err := listentoken.Load(f.tokenFile)
	if err != nil {
		return usagef("studio", "%v", err)
	}
	session, err := listentoken.New()
	if err != nil {
		return err
	}
	opts, err := e.options() // the caller and the policy of the flags every command takes
	if err != nil {
		return err
	}
	c := studio.Config{Root: root, Token: token, Session: session, TLS: f.lc.CertFile != "", Public: f.lc.Public,
		MaxConns: f.maxConns, Version: version(),
		LSP: lsp.Options{Log: e.stderr, DefaultCaller: defaultCaller, UnconfinedShell: e.unconfinedShell,
			Operator:     &lsp.Operator{Caller: opts.Caller, Policy: opts.Policy, Yes: e.yes},
			MaxDocuments: lsp.DefaultMaxDocuments, MaxDocumentSize: tools.MaxText}}
	ln, moved, err := studio.Listen(f.lc)
	if err != nil {
		return err
	}
	if moved != "" {
		fmt.Fprintf(e.stderr, "tent-tools studio: %s\n", moved)
	}
	ctx, stop := signal.NotifyContext(e.ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(e.stdout, "tent-tools studio: open %s\n", studio.URL(c, ln.Addr()))
	if err := studio.Serve(ctx, ln, c, f.lc); err != nil {
		return err
	}
	fmt.Fprintln(e.stderr, "tent-tools studio: stopped")
	return nil
}
