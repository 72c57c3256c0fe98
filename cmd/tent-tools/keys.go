package main

import (
	"flag"

	"github.com/tent-tools/tent-tools/tools"
)

func init() {
	register(command{
		name:    "keys",
		args:    "[PREFIX]",
		summary: "List the keys of the notes kept with remember, those that begin with PREFIX",
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			return func(e *env, args []string) (tools.Answer, error) {
				if len(args) > 1 {
					return tools.Answer{}, usagef("keys", "keys takes at most one PREFIX")
				}
				in := tools.KeysInput{}
				if len(args) == 1 {
					in.Prefix = args[0]
				}
				return e.call("keys", in)
			}
		},
	})
}
