// Command ran checks that .ci/run ran every test: each test, example and
// fuzz test of the test files named on its standard input ran (or was
// skipped by itself, which under CI=true fails) in at least one of the
// steps' test2json streams.
//
//	go list -race -f '{{.ImportPath}}{{range .TestGoFiles}}{{"\t"}}{{$.Dir}}/{{.}}{{end}}...' PKGS |
//		ran step1.json step2.json ...
//
// .ci/run splits the tests of a package between steps (the race
// detector's and the plain one's, by -skip and -run of one list); a name
// in that list that matches a test in a package the plain step does not
// run, or a pattern that matches nothing in one step and something in the
// other, would leave a test out silently. ran names every test left out
// and exits 1. It reads the tests from the files as go test does (a
// function TestXxx, FuzzXxx, or an example with an output comment), so
// that no test binary runs for the list (`go test -list` would run each
// package's TestMain). Benchmarks are left out: .ci/run runs none.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"io"
	"os"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: go list ... | ran STREAM.json...")
		os.Exit(2)
	}
	want, err := listed(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "ran:", err)
		os.Exit(2)
	}
	missing, err := check(want, os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "ran:", err)
		os.Exit(2)
	}
	for _, m := range missing {
		fmt.Fprintf(os.Stderr, "ran: %s ran in no step\n", m)
	}
	if len(missing) > 0 {
		fmt.Fprintf(os.Stderr, "ran: %d of %d tests ran in no step\n", len(missing), len(want))
		os.Exit(1)
	}
	fmt.Printf("ran: each of the %d tests, examples and fuzz tests ran\n", len(want))
}

// event is the part of a test2json event ran reads.
type event struct {
	Action  string
	Package string
	Test    string
}

// check returns the tests of want ("pkg Test") that ran in none of the
// streams, sorted.
func check(want []string, streams []string) ([]string, error) {
	got := map[string]bool{}
	for _, s := range streams {
		if err := read(s, func(e event) {
			// A top-level test's run (a subtest's name holds a slash).
			if e.Action == "run" && e.Test != "" && !strings.Contains(e.Test, "/") {
				got[e.Package+" "+e.Test] = true
			}
		}); err != nil {
			return nil, err
		}
	}
	var missing []string
	for _, w := range want {
		if !got[w] {
			missing = append(missing, w)
		}
	}
	return missing, nil
}

// listed reads lines of a package's import path and its test files,
// separated by tabs, and returns the tests, examples and fuzz tests the files hold ("pkg Name"),
// sorted.
func listed(r io.Reader) ([]string, error) {
	var out []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if f[0] == "" {
			continue
		}
		names, err := tests(f[1:])
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			out = append(out, f[0]+" "+n)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errors.New("the packages hold no test")
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// tests returns the names go test runs of the test files paths: the
// package-level functions named Test or Fuzz and a name that does not go
// on in lower case (cmd/go's rule), and the examples that have an output
// comment (one without is compiled, not run).
func tests(paths []string) ([]string, error) {
	fset := token.NewFileSet()
	var files []*ast.File
	var out []string
	for _, p := range paths {
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil {
				continue
			}
			if isTest(fn.Name.Name, "Test") || isTest(fn.Name.Name, "Fuzz") {
				out = append(out, fn.Name.Name)
			}
		}
	}
	for _, e := range doc.Examples(files...) {
		if e.Output != "" || e.EmptyOutput {
			out = append(out, "Example"+e.Name)
		}
	}
	return out, nil
}

// isTest says name is prefix and a name that starts with no lower-case
// letter (TestMain is the tests' main, not a test).
func isTest(name, prefix string) bool {
	if !strings.HasPrefix(name, prefix) || name == "TestMain" {
		return false
	}
	if len(name) == len(prefix) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(name[len(prefix):])
	return !unicode.IsLower(r)
}

// read calls f on each event of the test2json stream in path; a line
// that is no JSON (go's own messages) is passed over.
func read(path string, f func(event)) error {
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	r := bufio.NewReader(file)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 && line[0] == '{' {
			var e event
			if jerr := json.Unmarshal(line, &e); jerr != nil {
				return fmt.Errorf("%s: %w", path, jerr)
			}
			f(e)
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
}
