package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/tent-tools/tent-tools/tools"
)

func init() {
	register(command{
		name:    "remember",
		args:    "KEY VALUE",
		summary: "Keep a note in the workspace (.tent/, never the project's files); VALUE - reads stdin",
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			return func(e *env, args []string) (tools.Answer, error) {
				if len(args) != 2 {
					return tools.Answer{}, usagef("remember", "remember takes a KEY and its VALUE")
				}
				value := args[1]
				if value == "-" {
					b, err := io.ReadAll(io.LimitReader(e.stdin, 1<<20))
					if err != nil {
						return tools.Answer{}, fmt.Errorf("remember: read stdin: %w", err)
					}
					value = string(b)
				}
				return e.call("remember", tools.RememberInput{Key: args[0], Value: value})
			}
		},
	})
}
