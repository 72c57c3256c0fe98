package main

import (
	"flag"

	"github.com/tent-tools/tent-tools/tools"
)

func init() {
	register(command{
		name:    "logs",
		summary: "Print the app's runs, newest first; --errors for errors only, --since a time (RFC 3339) or an age (10m, 2h, 3d)",
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			errorsOnly := fs.Bool("errors", false, "print only the runs that failed")
			since := fs.String("since", "", "print the runs since a time or an `AGE` (10m)")
			return func(e *env, args []string) (tools.Answer, error) {
				if len(args) != 0 {
					return tools.Answer{}, usagef("logs", "logs takes no arguments")
				}
				return e.call("logs", tools.LogsInput{Errors: *errorsOnly, Since: *since})
			}
		},
	})
}
