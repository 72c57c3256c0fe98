package main

import (
	"flag"

	"github.com/tent-tools/tent-tools/tools"
)

func init() {
	register(command{
		name:    "list",
		args:    "[PATH]",
		summary: "Print a folder's files and folders as .gitignore leaves them, --depth deep (default 2)",
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			depth := fs.Int("depth", 0, "how many folders deep to go, `N` (default 2; every depth with --glob)")
			glob := fs.String("glob", "", "list only the files whose path below PATH matches `GLOB` (** crosses folders)")
			hidden := fs.Bool("hidden", false, "list the files and folders whose names begin with a dot too (without it: only where --glob or PATH names one)")
			return func(e *env, args []string) (tools.Answer, error) {
				if len(args) > 1 {
					return tools.Answer{}, usagef("list", "list takes at most one PATH")
				}
				in := tools.ListInput{Depth: *depth, Glob: *glob, Hidden: *hidden}
				if len(args) == 1 {
					in.Path = args[0]
				}
				return e.call("list", in)
			}
		},
	})
}
