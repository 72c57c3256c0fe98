// Command tent-gen writes a large generated tent project, for benchmarks
// and scripts:
//
//	tent-gen -tables 1000 -seed 1 -o DIR
//
// The same flags always write the same bytes.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/tent-tools/tent-tools/internal/projectgen"
)

func main() {
	tables := flag.Int("tables", 100, "number of tables")
	seed := flag.Int64("seed", 1, "seed of the refs, optional columns and test data")
	out := flag.String("o", "", "folder to write the project into (required)")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: tent-gen [-tables N] [-seed S] -o DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *out == "" || flag.NArg() > 0 || *tables < 1 {
		flag.Usage()
		os.Exit(2)
	}
	files := projectgen.Generate(projectgen.Options{Tables: *tables, Seed: *seed})
	if err := projectgen.Write(*out, files); err != nil {
		fmt.Fprintln(os.Stderr, "tent-gen:", err)
		os.Exit(1)
	}
	lines := 0
	for _, b := range files {
		for _, c := range b {
			if c == '\n' {
				lines++
			}
		}
	}
	fmt.Printf("wrote %d files, %d lines to %s\n", len(files), lines, *out)
}
