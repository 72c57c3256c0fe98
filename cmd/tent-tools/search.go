package main

import (
	"flag"

	"github.com/tent-tools/tent-tools/tools"
)

func init() {
	register(command{
		name:    "search",
		args:    "TEXT",
		summary: "Print the lines that hold TEXT exactly (case-sensitive), in the project or --in a folder or file",
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			in := fs.String("in", "", "search only this folder or file, `PATH`")
			limit := fs.Int("limit", 0, "answer at most `N` hits (default 100)")
			return func(e *env, args []string) (tools.Answer, error) {
				if len(args) != 1 {
					return tools.Answer{}, usagef("search", "search takes one TEXT (quote it; put -- before a TEXT that starts with -)")
				}
				return e.call("search", tools.SearchInput{Text: args[0], In: *in, Limit: *limit})
			}
		},
	})
}
