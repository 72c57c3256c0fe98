package main

import (
	"flag"
	"io"

	"github.com/tent-tools/tent-tools/mcp"
	"github.com/tent-tools/tent-tools/tools"
)

func init() {
	register(command{
		name:    "mcp",
		summary: "Serve the tools to an AI agent over the Model Context Protocol, on stdio (docs: mcp)",
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			return func(e *env, args []string) (tools.Answer, error) {
				if len(args) > 0 {
					return tools.Answer{}, usagef("mcp", "mcp takes no arguments")
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
