package main

import (
	"flag"

	"github.com/tent-tools/tent-tools/tools"
)

func init() {
	register(command{
		name:    "help",
		args:    "[COMMAND]",
		summary: "Print how to use tent-tools, or one command",
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			return func(e *env, args []string) (tools.Answer, error) {
				switch {
				case len(args) > 1:
					return tools.Answer{}, usagef("help", "help takes at most one COMMAND")
				case len(args) == 1:
					if _, ok := lookupCommand(args[0]); !ok {
						return tools.Answer{}, usagef("", "unknown command %q", args[0])
					}
					return tools.Answer{Text: usage(args[0])}, nil
				}
				return tools.Answer{Text: usage("")}, nil
			}
		},
	})
}
