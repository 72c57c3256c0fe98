package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/tent-tools/tent-tools/tools"
)

func init() {
	register(command{
		name:    "write",
		args:    "PATH",
		summary: "Write a whole file (up to 1 MB) atomically, with the text of --text or of stdin",
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			text := fs.String("text", "", "the file's `TEXT` (default: read stdin; an empty stdin is refused)")
			return func(e *env, args []string) (tools.Answer, error) {
				if len(args) != 1 {
					return tools.Answer{}, usagef("write", "write takes one PATH")
				}
				given := false
				fs.Visit(func(f *flag.Flag) { given = given || f.Name == "text" })
				if !given {
					if f, ok := e.stdin.(*os.File); ok && isTerminal(f) {
						// A person at a terminal is told what the command waits for.
						fmt.Fprintf(e.stderr, "write: type the text of %s, then Ctrl-D on a line of its own "+
							"(or give --text TEXT, or send the text to stdin)\n", args[0])
					}
					// One byte more than a write may hold is kept; past that the
					// rest is only counted, so that T9104 tells the real size.
					b, err := io.ReadAll(io.LimitReader(e.stdin, tools.MaxText+1))
					if err != nil {
						return tools.Answer{}, fmt.Errorf("write: read stdin: %w", err)
					}
					if len(b) > tools.MaxText {
						rest, err := io.Copy(io.Discard, e.stdin)
						if err != nil {
							return tools.Answer{}, fmt.Errorf("write: read stdin: %w", err)
						}
						return tools.Answer{}, tools.TextTooLarge(int64(len(b)) + rest)
					}
					if len(b) == 0 {
						// Most often a slip (< /dev/null, an empty pipe): an empty
						// file is written only when asked for by name.
						return tools.Answer{}, usagef("write", "stdin gave no text for %s; to write an empty file, give --text ''", args[0])
					}
					*text = string(b)
				}
				return e.call("write", tools.WriteInput{Path: args[0], Text: *text})
			}
		},
	})
}
