package main

import (
	"flag"

	"github.com/tent-tools/tent-tools/tools"
)

func init() {
	register(command{
		name:    "undo",
		summary: "Undo the newest change still in effect, or go back to before point --to (an undo's point: redo)",
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			to := fs.String("to", "", "go back to as it was before point `POINT`")
			return func(e *env, args []string) (tools.Answer, error) {
				if len(args) != 0 {
					return tools.Answer{}, usagef("undo", "undo takes no arguments; give --to POINT to go back to before a point")
				}
				in := tools.UndoInput{}
				if *to != "" {
					n, err := pointArg("undo", *to)
					if err != nil {
						return tools.Answer{}, err
					}
					if n == 0 {
						return tools.Answer{}, usagef("undo", "points are numbered from 1")
					}
					in.Point = n
				}
				return e.call("undo", in)
			}
		},
	})
}
