package main

import (
	"flag"

	"github.com/tent-tools/tent-tools/docs"
	"github.com/tent-tools/tent-tools/tools"
)

func init() {
	register(command{
		name:    "docs",
		args:    "[TOPIC]",
		summary: "Print a page of the docs (without TOPIC: the list of pages)",
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			return func(e *env, args []string) (tools.Answer, error) {
				if len(args) > 1 {
					return tools.Answer{}, usagef("docs", "docs takes at most one TOPIC")
				}
				in := tools.DocsInput{Topic: docs.IndexTopic}
				if len(args) == 1 {
					in.Topic = args[0]
				}
				return e.call("docs", in)
			}
		},
	})
}
