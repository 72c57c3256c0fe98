package main

import (
	"flag"

	"github.com/tent-tools/tent-tools/tools"
)

func init() {
	register(command{
		name:    "recall",
		args:    "KEY",
		summary: "Print a note kept with remember",
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			return func(e *env, args []string) (tools.Answer, error) {
				if len(args) != 1 {
					return tools.Answer{}, usagef("recall", "recall takes one KEY")
				}
				return e.call("recall", tools.RecallInput{Key: args[0]})
			}
		},
	})
}
