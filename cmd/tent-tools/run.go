package main

import (
	"encoding/json"
	"flag"

	"github.com/tent-tools/tent-tools/tools"
)

func init() {
	register(command{
		name:    "run",
		args:    "NAME",
		summary: "Run a function or a flow on the test database, --input JSON, --as a user (id, email or name), nobody or system",
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			input := fs.String("input", "", "the input as `JSON` (default {})")
			as := fs.String("as", "", "run as `USER`, the users row with this id, email or name, or as system; nobody where left out")
			return func(e *env, args []string) (tools.Answer, error) {
				if len(args) != 1 {
					return tools.Answer{}, usagef("run", "run takes one NAME")
				}
				in := tools.RunInput{Name: args[0], As: *as}
				if *input != "" {
					if !json.Valid([]byte(*input)) {
						return tools.Answer{}, usagef("run", "--input is not JSON: %s", *input)
					}
					in.Input = json.RawMessage(*input)
				}
				return e.call("run", in)
			}
		},
	})
}
