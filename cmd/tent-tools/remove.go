package main

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/tools"
)

func init() {
	register(command{
		name:    "remove",
		args:    "NAME | --path FILE",
		summary: "Remove a definition, a column or a file, stated in removed (its data dropped on purpose); list the places left",
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			path := fs.String("path", "", "remove the file `FILE` (or an empty folder) instead of a definition; a NAME with a /, or with a dot that names a file, is taken as one")
			return func(e *env, args []string) (tools.Answer, error) {
				switch {
				case *path != "" && len(args) == 0:
					return e.call("remove", tools.RemoveInput{Path: *path})
				case *path == "" && len(args) == 1 && e.looksLikePath(args[0]):
					// lib/tax2.ts, or a file or folder that stands in the project: a path.
					return e.call("remove", tools.RemoveInput{Path: args[0]})
				case *path == "" && len(args) == 1:
					return e.call("remove", tools.RemoveInput{Name: args[0]})
				}
				return tools.Answer{}, usagef("remove", "remove takes one NAME, or --path FILE")
			}
		},
	})
}

// looksLikePath reports whether a NAME given to remove is a path: it holds
// a slash (lib/tax2.ts), or a dot and a file or folder of that name stands
// in the project (notes.md). Definition names hold neither; a column
// (orders.buyer) holds a dot, but names no file. For -C HOST:PATH the
// project is asked through list on the far side, as every other call is.
func (e *env) looksLikePath(name string) bool {
	if strings.ContainsRune(name, '/') {
		return true
	}
	if !strings.ContainsRune(name, '.') {
		return false
	}
	if _, ok := e.remoteTarget(); !ok {
		_, err := os.Lstat(filepath.Join(e.dir, name))
		return err == nil
	}
	_, err := e.call("list", tools.ListInput{Path: name, Depth: 1, Hidden: true})
	var te *diag.ToolError
	switch {
	case err == nil:
		return true // a folder stands there
	case errors.As(err, &te) && te.Code == "T9102":
		return true // a file stands there: list says it is not a folder
	}
	return false
}
