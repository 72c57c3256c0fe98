package main

import (
	"flag"

	"github.com/tent-tools/tent-tools/tools"
)

func init() {
	register(command{
		name:    "shell",
		args:    "[flags] COMMAND | [flags] -- PROGRAM [ARG...]",
		summary: "Run COMMAND (by sh -c), or the words PROGRAM ARG... after --, in the project folder, in a sandbox confined to it; only where the policy's also names shell",
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			timeout := fs.Int("timeout", 0, "kill every process of the command after `SECONDS` (default 30, at most 600)")
			cwd := fs.String("cwd", "", "run in the project's folder `DIR` (default: its root)")
			return func(e *env, args []string) (tools.Answer, error) {
				in := tools.ShellInput{Timeout: *timeout, Cwd: *cwd}
				switch {
				case len(args) == 0:
					return tools.Answer{}, usagef("shell", "shell needs a COMMAND (one argument, run by sh -c) or, after --, a PROGRAM and its arguments")
				case len(args) == 1:
					in.Command = args[0]
				default:
					in.Argv = args
				}
				return e.call("shell", in)
			}
		},
	})
}
