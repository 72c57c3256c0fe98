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
	"syscall"

	"github.com/tent-tools/tent-tools/internal/listentoken"
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

// lspFlags defines lsp's flags on fs, for the server and for its usage:
// the listen options and --token-file's value.
func lspFlags(fs *flag.FlagSet) (lo *lsp.ListenOptions, tokenFile *string) {
	lo = &lsp.ListenOptions{}
	fs.StringVar(&lo.Addr, "listen", "", "serve WebSocket on `HOST:PORT` (loopback) instead of stdio")
	fs.Func("origin", "a page `ORIGIN` (http://127.0.0.1:8080) allowed to connect over WebSocket; repeat for more", func(o string) error {
		lo.Origins = append(lo.Origins, o)
		return nil
	})
	tokenFile = fs.String("token-file", "", "with --listen: the token a connection must carry, read from `FILE` (mode 600); default: a new one, printed in the URL")
	fs.IntVar(&lo.MaxConns, "max-connections", listentoken.DefaultMaxConns, "with --listen: the most connections served at once (`N`)")
	fs.BoolVar(&lo.Public, "public", false, "allow --listen on an address that is not the loopback (needs --tls-cert and --tls-key)")
	fs.StringVar(&lo.CertFile, "tls-cert", "", "the TLS certificate `FILE` (PEM) for --public")
	fs.StringVar(&lo.KeyFile, "tls-key", "", "the TLS key `FILE` (PEM) for --public")
	return lo, tokenFile
}

// runLSP runs `tent-tools lsp`: the language server on stdin and stdout.
// The project is the client's root folder (initialize), not -C. Exit
// status: 0 after shutdown and exit, 1 where exit came without shutdown
// (LSP's rule) or the stream failed, 2 bad usage.
func runLSP(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("lsp")
	lo, tokenFile := lspFlags(fs)
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
	opts := lsp.Options{Log: stderr, DefaultCaller: defaultCaller}
	if lo.Addr == "" && (*tokenFile != "") {
		fmt.Fprintln(stderr, "tent-tools lsp: --token-file is for --listen; on stdio the editor that starts the server is its only client")
		return 2
	}
	if lo.Addr != "" {
		token, err := listentoken.Load(*tokenFile)
		if err != nil {
			fmt.Fprintf(stderr, "tent-tools lsp: %v\n", err)
			return 2
		}
		if lo.MaxConns < 1 {
			fmt.Fprintf(stderr, "tent-tools lsp: --max-connections is %d; it is 1 or more\n", lo.MaxConns)
			return 2
		}
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
