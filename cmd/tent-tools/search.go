package main

import (
	"flag"

	"github.com/tent-tools/tent-tools/tools"
)

func init() {
	register(command{
		name:    "search",
		args:    "TEXT",
		summary: "Print the lines that hold TEXT exactly (case-sensitive), or a --regex, in the project or --in a folder or file",
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			in := fs.String("in", "", "search only this folder or file, `PATH`")
			limit := fs.Int("limit", 0, "answer at most `N` hits (default 100)")
			regex := fs.Bool("regex", false, "TEXT is a regular expression (RE2, Go's regexp)")
			include := fs.String("include", "", "search only the files that match `GLOB` ('**/*.tsx')")
			ignoreCase := fs.Bool("ignore-case", false, "find TEXT in any case")
			filesOnly := fs.Bool("files-only", false, "print the files that hold TEXT, not the lines")
			count := fs.Bool("count", false, "print each file that holds TEXT with how many of its lines do")
			hidden := fs.Bool("hidden", false, "search the files and folders whose names begin with a dot too (without it: only where --include or --in names one)")
			return func(e *env, args []string) (tools.Answer, error) {
				if len(args) != 1 {
					return tools.Answer{}, usagef("search", "search takes one TEXT (quote it; put -- before a TEXT that starts with -; '' with --files-only lists every file)")
				}
				return e.call("search", tools.SearchInput{Text: args[0], In: *in, Limit: givenInt(fs, "limit", limit), Regex: *regex,
					Include: *include, CaseInsensitive: *ignoreCase, FilesOnly: *filesOnly, Count: *count, Hidden: *hidden})
			}
		},
	})
}
