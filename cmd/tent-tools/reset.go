package main

import (
	"flag"

	"github.com/tent-tools/tent-tools/tools"
)

func init() {
	register(command{
		name:    "reset",
		summary: "Rebuild the test database from the test data, dropping every row that runs wrote",
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			return func(e *env, args []string) (tools.Answer, error) {
				if len(args) != 0 {
					return tools.Answer{}, usagef("reset", "reset takes no arguments")
				}
				return e.call("reset", tools.ResetInput{})
			}
		},
	})
}
