package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/tent-tools/tent-tools/tools"
)

func init() {
	register(command{
		name:    "call",
		args:    "TOOL ['JSON' | -]",
		summary: "Run a tool with its input exactly as an agent sends it (JSON; - reads it from stdin; left out: {})",
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			return func(e *env, args []string) (tools.Answer, error) {
				if len(args) < 1 || len(args) > 2 {
					return tools.Answer{}, usagef("call", "call takes a TOOL and its JSON input")
				}
				input := json.RawMessage("{}")
				if len(args) == 2 {
					input = json.RawMessage(args[1])
				}
				if len(args) == 2 && args[1] == "-" {
					// Read no more than any tool takes: Call refuses the
					// rest (T9104) without this holding it in memory.
					b, err := io.ReadAll(io.LimitReader(e.stdin, tools.MaxInput+1))
					if err != nil {
						return tools.Answer{}, fmt.Errorf("call: read stdin: %w", err)
					}
					input = b
				}
				return e.callJSON(args[0], input)
			}
		},
	})
}
