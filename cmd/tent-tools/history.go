package main

import (
	"flag"

	"github.com/tent-tools/tent-tools/tools"
)

func init() {
	register(command{
		name:    "history",
		summary: "List the points (changes of tools, undos, changes made outside), newest first, and what each changed",
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			newest := fs.Int("newest", 0, "list the `N` newest points (default 20)")
			return func(e *env, args []string) (tools.Answer, error) {
				if len(args) != 0 {
					return tools.Answer{}, usagef("history", "history takes no arguments")
				}
				return e.call("history", tools.HistoryInput{Newest: *newest})
			}
		},
	})
}
