// Command parsefloor reads and parses every TypeScript file of a project
// with tree-sitter, as the index does (in parallel, GOMAXPROCS at once),
// and does nothing else: no definitions, no joins, no check. Its time is
// the floor a check with no .tent/ cannot go below, which
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
	"strings"

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
	var srcs []parser.Source
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
		if !d.Type().IsRegular() || !(strings.HasSuffix(p, ".ts") || strings.HasSuffix(p, ".tsx")) {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		srcs = append(srcs, parser.Source{Path: p, Src: src})
		size += len(src)
		return nil
	})
	if err != nil {
		return 0, 0, fmt.Errorf("walk %s: %w", dir, err)
	}
	for i, r := range parser.ParseAll(ctx, srcs) {
		if r.Tree == nil {
			return 0, 0, fmt.Errorf("parse %s: no tree", srcs[i].Path)
		}
		r.Tree.Close()
	}
	return len(srcs), size, nil
}
