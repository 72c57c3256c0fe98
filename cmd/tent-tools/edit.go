package main

import (
	"flag"

	"github.com/tent-tools/tent-tools/tools"
)

func init() {
	register(command{
		name:    "edit",
		args:    "PATH --find TEXT --with TEXT",
		summary: "Put --with in the place of --find, where --find stands exactly once in the file (several edits: use call edit)",
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			find := fs.String("find", "", "the `TEXT` to replace, exactly as it stands")
			with := fs.String("with", "", "the `TEXT` to put in its place (may be empty)")
			return func(e *env, args []string) (tools.Answer, error) {
				if len(args) != 1 {
					return tools.Answer{}, usagef("edit", "edit takes one PATH")
				}
				set := map[string]bool{}
				fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
				if !set["find"] || !set["with"] {
					return tools.Answer{}, usagef("edit", "edit needs --find and --with")
				}
				return e.call("edit", tools.EditInput{Path: args[0], Find: find, With: with})
			}
		},
	})
}
