package main

import (
	"flag"

	"github.com/tent-tools/tent-tools/remote"
	"github.com/tent-tools/tent-tools/tools"
)

func init() {
	register(command{
		name:    "serve-remote",
		summary: "Serve the project in -C to a tent-tools on another machine, over stdin and stdout (started by -C HOST:PATH through its transport; docs: remote)",
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			return func(e *env, args []string) (tools.Answer, error) {
				if len(args) > 0 {
					return tools.Answer{}, usagef("serve-remote", "serve-remote takes no arguments")
				}
				if _, ok := remote.ParseTarget(e.dir); ok {
					return tools.Answer{}, usagef("serve-remote", "serve-remote serves a project of this machine, not %s", e.dir)
				}
				build := remote.Version()
				if build == "" {
					build = "(devel)"
				}
				err := remote.Serve(e.ctx, remote.ServeConfig{Dir: e.dir, Build: build}, e.stdin, e.stdout)
				return tools.Answer{}, err
			}
		},
	})
}
