package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/tent-tools/tent-tools/lsp"
)

// runLSP runs `tent-tools lsp`: the language server on stdin and stdout.
// The project is the client's root folder (initialize), not -C. Exit
// status: 0 after shutdown and exit, 1 where exit came without shutdown
// (LSP's rule) or the stream failed, 2 bad usage.
func runLSP(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("lsp")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: tent-tools lsp   (a language server on stdin and stdout; see `tent-tools docs lsp`)")
		return 2
	}
	err := lsp.Serve(ctx, stdio{in: stdin, out: stdout}, lsp.Options{Log: stderr, DefaultCaller: defaultCaller})
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
