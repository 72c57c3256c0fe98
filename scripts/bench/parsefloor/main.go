// Command parsefloor reads and parses every TypeScript file of a project
// with tree-sitter, as the index does: in parallel, GOMAXPROCS at once,
// each file read, parsed with its grammar (TSX for .tsx) and its tree
// freed as soon as it is parsed, as a check's build frees it (a tree kept
// till all are parsed grows the C heap: about a tenth more CPU on 1,000
// tables). It does nothing else: no definitions, no joins, no check. Its
// time is the floor a check with no .tent/ cannot go below, which
// scripts/bench/peers.sh measures beside `check` in the same run.
//
//	go run ./scripts/bench/parsefloor DIR
//
// It prints how many files and bytes it parsed.
package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tent-tools/tent-tools/internal/projectfiles"
	"github.com/tent-tools/tent-tools/parser"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: parsefloor DIR")
		os.Exit(2)
	}
	n, size, err := parseAll(context.Background(), os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "parsefloor:", err)
		os.Exit(1)
	}
	fmt.Printf("%d files, %d bytes parsed\n", n, size)
}

// parseAll reads the .ts and .tsx files below dir (leaving out the folders
// no walk enters) and parses them, returning how many files and bytes.
func parseAll(ctx context.Context, dir string) (files, size int, err error) {
	var paths []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != dir && projectfiles.SkippedFolder(d.Name()) {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && (strings.HasSuffix(p, ".ts") || strings.HasSuffix(p, ".tsx")) {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		return 0, 0, fmt.Errorf("walk %s: %w", dir, err)
	}
	var next, bytes atomic.Int64
	var failed atomic.Pointer[error]
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(paths) && failed.Load() == nil; i = int(next.Add(1) - 1) {
				src, err := os.ReadFile(paths[i])
				if err == nil {
					tree, _ := parser.Parse(ctx, paths[i], src)
					if tree == nil {
						err = fmt.Errorf("parse %s: no tree", paths[i])
					} else {
						tree.Close()
					}
				}
				if err != nil {
					failed.CompareAndSwap(nil, &err)
				}
				bytes.Add(int64(len(src)))
			}
		})
	}
	wg.Wait()
	if err := failed.Load(); err != nil {
		return 0, 0, *err
	}
	return len(paths), int(bytes.Load()), nil
}
