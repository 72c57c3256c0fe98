package main

import (
	"flag"
	"runtime/debug"

	"github.com/tent-tools/tent-tools/tools"
)

func init() {
	register(command{
		name:    "map",
		args:    "[PATH]",
		summary: "Print the outline of the project (or of the files under PATH): files, definitions, columns, sends, calls, steps, paths",
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			budget := fs.Int("budget", 0, "fold the map to `N` characters (0: the default, 8000)")
			return func(e *env, args []string) (tools.Answer, error) {
				if len(args) > 1 {
					return tools.Answer{}, usagef("map", "map takes at most one PATH (a folder or a file)")
				}
				in := tools.MapInput{Budget: *budget}
				if len(args) == 1 {
					in.Path = args[0]
				}
				// The command reads the project once and exits, as
				// check does: nearly all it allocates is the index it
				// loads, which collecting as often as a server would
				// only mark again as it grows (about a tenth of a cached
				// map's CPU on a 1,000-table project).
				defer debug.SetGCPercent(debug.SetGCPercent(400))
				return e.call("map", in)
			}
		},
	})
}
