package main

import (
	"flag"

	"github.com/tent-tools/tent-tools/tools"
)

func init() {
	register(command{
		name:    "rows",
		args:    "TABLE",
		summary: "Print rows of a table of the test database (--limit N, default 100), without its private columns",
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			limit := fs.Int("limit", 0, "print at most `N` rows (default 100)")
			return func(e *env, args []string) (tools.Answer, error) {
				if len(args) != 1 {
					return tools.Answer{}, usagef("rows", "rows takes one TABLE")
				}
				return e.call("rows", tools.RowsInput{Table: args[0], Limit: givenInt(fs, "limit", limit)})
			}
		},
	})
}
