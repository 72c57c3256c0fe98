package main

import (
	"flag"
	"runtime/debug"

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
				// The command reads the project once and exits, as
				// check does: nearly all it allocates is the index it
				// loads, which collecting as often as a server would
				// only mark again as it grows (about a tenth of a cached
				// map's CPU on a 1,000-table project).
				defer debug.SetGCPercent(debug.SetGCPercent(400))
				return e.call("map", tools.MapInput{})
			}
		},
	})
}
