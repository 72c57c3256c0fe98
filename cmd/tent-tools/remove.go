package main

import (
	"flag"

	"github.com/tent-tools/tent-tools/tools"
)

func init() {
	register(command{
		name:    "remove",
		args:    "NAME | --path FILE",
		summary: "Remove a definition, a column or a file, stated in removed (its data dropped on purpose); list the places left",
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			path := fs.String("path", "", "remove the file `FILE` instead of a definition")
			return func(e *env, args []string) (tools.Answer, error) {
				switch {
				case *path != "" && len(args) == 0:
					return e.call("remove", tools.RemoveInput{Path: *path})
				case *path == "" && len(args) == 1:
					return e.call("remove", tools.RemoveInput{Name: args[0]})
				}
				return tools.Answer{}, usagef("remove", "remove takes one NAME, or --path FILE")
			}
		},
	})
}
