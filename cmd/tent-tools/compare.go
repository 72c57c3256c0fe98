package main

import (
	"flag"
	"strconv"

	"github.com/tent-tools/tent-tools/tools"
)

func init() {
	register(command{
		name:    "compare",
		args:    "FROM [TO]",
		summary: "Show what changed after point FROM up to point TO (default: the newest), for the app or one definition",
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			name := fs.String("name", "", "keep to the definition or column `NAME` (orders, orders.buyer)")
			toFlag := fs.String("to", "", "the point `TO` (default: the newest); the same as a second argument")
			return func(e *env, args []string) (tools.Answer, error) {
				if *toFlag != "" {
					if len(args) == 2 {
						return tools.Answer{}, usagef("compare", "give the point TO once: as --to or as a second argument")
					}
					args = append(args, *toFlag)
				}
				if len(args) < 1 || len(args) > 2 {
					return tools.Answer{}, usagef("compare", "compare takes a point FROM and, optionally, a point TO (or --to TO)")
				}
				in := tools.CompareInput{Name: *name}
				var err error
				if in.From, err = pointArg("compare", args[0]); err != nil {
					return tools.Answer{}, err
				}
				if len(args) == 2 {
					to, err := pointArg("compare", args[1])
					if err != nil {
						return tools.Answer{}, err
					}
					in.To = &to
				}
				return e.call("compare", in)
			}
		},
	})
}

// pointArg reads a point's number from the command line.
func pointArg(cmd, s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, usagef(cmd, "%q is no point: give its number (history lists them)", s)
	}
	return n, nil
}
