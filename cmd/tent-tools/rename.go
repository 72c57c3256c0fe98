package main

import (
	"flag"

	"github.com/tent-tools/tent-tools/tools"
)

func init() {
	register(command{
		name:    "rename",
		args:    "NAME TO",
		summary: "Rename a definition or a column (orders.buyer) everywhere it is named for certain, keeping its data (was); list the code sites left",
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			return func(e *env, args []string) (tools.Answer, error) {
				if len(args) != 2 {
					return tools.Answer{}, usagef("rename", "rename takes a NAME and its new name TO")
				}
				return e.call("rename", tools.RenameInput{Name: args[0], To: args[1]})
			}
		},
	})
}
