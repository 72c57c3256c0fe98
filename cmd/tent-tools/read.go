package main

import (
	"flag"

	"github.com/tent-tools/tent-tools/tools"
)

func init() {
	register(command{
		name:    "read",
		args:    "PATH",
		summary: "Print a file, or its lines --from N --to N, each line numbered",
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			from := fs.Int("from", 0, "the first line `N` to print (1-based)")
			to := fs.Int("to", 0, "the last line `N` to print (inclusive)")
			return func(e *env, args []string) (tools.Answer, error) {
				if len(args) != 1 {
					return tools.Answer{}, usagef("read", "read takes one PATH")
				}
				return e.call("read", tools.ReadInput{Path: args[0], From: *from, To: *to})
			}
		},
	})
}
