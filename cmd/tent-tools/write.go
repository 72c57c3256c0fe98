package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/tent-tools/tent-tools/tools"
)

func init() {
	register(command{
		name:    "write",
		args:    "PATH",
		summary: "Write a whole file (up to 1 MB) atomically, with the text of --text or of stdin",
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			text := fs.String("text", "", "the file's `TEXT` (default: read stdin)")
			return func(e *env, args []string) (tools.Answer, error) {
				if len(args) != 1 {
					return tools.Answer{}, usagef("write", "write takes one PATH")
				}
				given := false
				fs.Visit(func(f *flag.Flag) { given = given || f.Name == "text" })
				if !given {
					// One byte more than a write may hold, so the tool answers T9104.
					b, err := io.ReadAll(io.LimitReader(e.stdin, tools.MaxText+1))
					if err != nil {
						return tools.Answer{}, fmt.Errorf("write: read stdin: %w", err)
					}
					*text = string(b)
				}
				return e.call("write", tools.WriteInput{Path: args[0], Text: *text})
			}
		},
	})
}
