// Command tent-tools is the command-line face of the project tools: each
// command turns its arguments into a tool's input, calls the tool through
// package tools, and prints the answer (its text, or with --json its data).
//
// Each command lives in its own file and registers itself in init() with
// register(command{...}); main.go only parses the flags every command takes
// and runs the one named. Exit status: 0 done, 1 the tool answered an error
// (its code on stderr), 2 bad usage.
package main

import (
	"context"
	"flag"
	"io"
	"os"
	"slices"
)

func main() {
	tuneGC = true
	stopProfiles := startProfiles(os.Stderr)
	status := run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stopProfiles()
	os.Exit(status)
}

// tuneGC says that run may set the garbage collector for the one command
// its process runs (oneShotGC): set by main, not by tests calling run.
var tuneGC bool

// run runs one command line and returns the exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "lsp" { // a server, not one tool's call
		return runLSP(ctx, args[1:], stdin, stdout, stderr)
	}
	e := &env{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr, dir: "."}
	defer e.close()
	cmd, rest, err := e.parseCommand(args)
	if err != nil {
		return e.fail(err)
	}
	if cmd.name == "lsp" {
		// tent-tools --policy F lsp: the flags before the name are lsp's
		// own (--policy, --caller, --yes, --unconfined-shell), or refused
		// by its flag set (-C, --json) as they are after it.
		before := args[:len(args)-len(rest)-1]
		if notLSPs(before) {
			return e.fail(usagef("lsp", "lsp takes its project from the editor's root folder, not -C, and answers no --json: run it as `tent-tools lsp`"))
		}
		return runLSP(ctx, append(slices.Clip(before), rest...), stdin, stdout, stderr)
	}
	if tuneGC && cmd.name != "mcp" { // mcp is a server, as lsp
		oneShotGC()
	}
	ans, err := cmd.start(e, rest)
	if err != nil {
		return e.fail(err)
	}
	return e.print(ans)
}

// notLSPs reports whether the flags before lsp's name set one that lsp
// does not take (-C, --hosts, --json): every other flag every command
// takes is lsp's too.
func notLSPs(before []string) bool {
	fs := newFlagSet("tent-tools")
	(&env{}).globalFlags(fs)
	if fs.Parse(before) != nil {
		return false // parseCommand parsed them already
	}
	set := false
	fs.Visit(func(f *flag.Flag) {
		set = set || f.Name == "C" || f.Name == "hosts" || f.Name == "json"
	})
	return set
}
