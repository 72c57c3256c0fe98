package main

import (
	"flag"

	"github.com/tent-tools/tent-tools/tools"
)

func init() {
	register(command{
		name:    "changed-by",
		args:    "NAME",
		summary: "Show the newest point that changed a definition or a column (orders.buyer), or one field of it (--path columns.buyer.type)",
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			path := fs.String("path", "", "the field `PATH` (columns.buyer.type, steps, run)")
			return func(e *env, args []string) (tools.Answer, error) {
				if len(args) != 1 {
					return tools.Answer{}, usagef("changed-by", "changed-by takes one NAME")
				}
				return e.call("changedBy", tools.ChangedByInput{Name: args[0], Path: *path})
			}
		},
	})
}
