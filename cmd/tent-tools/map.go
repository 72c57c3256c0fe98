package main

import (
	"flag"

	"github.com/tent-tools/tent-tools/tools"
)

func init() {
	register(command{
		name:    "map",
		summary: "Print the outline of the project: files, definitions, columns, sends, calls, steps, paths",
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			return func(e *env, args []string) (tools.Answer, error) {
				if len(args) != 0 {
					return tools.Answer{}, usagef("map", "map takes no arguments")
				}
				return e.call("map", tools.MapInput{})
			}
		},
	})
}
