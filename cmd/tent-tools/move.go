package main

import (
	"flag"

	"github.com/tent-tools/tent-tools/tools"
)

func init() {
	register(command{
		name:    "move",
		args:    "PATH TO",
		summary: "Move or rename a file, and change the relative imports that name it",
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			return func(e *env, args []string) (tools.Answer, error) {
				if len(args) != 2 {
					return tools.Answer{}, usagef("move", "move takes a PATH and the path TO move it to")
				}
				return e.call("move", tools.MoveInput{Path: args[0], To: args[1]})
			}
		},
	})
}
