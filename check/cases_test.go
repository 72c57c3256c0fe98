package check

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/golden"
)

// A case file (testdata/cases/NAME.txt) is a small project written as
// "-- path --" sections, after a comment. NAME starts with the one code the
// project must trigger (T2003-ref.txt), or with "clean" for a project that
// must have no finding at all. NAME.golden holds the findings as text, each
// followed by its fix where it has one.

// readCase parses a case file into its files.
func readCase(t *testing.T, path string) map[string][]byte {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	var name string
	for _, line := range bytes.SplitAfter(src, []byte("\n")) {
		trimmed := bytes.TrimRight(line, "\r\n")
		if bytes.HasPrefix(trimmed, []byte("-- ")) && bytes.HasSuffix(trimmed, []byte(" --")) && len(trimmed) > 6 {
			name = string(trimmed[3 : len(trimmed)-3])
			files[name] = []byte{}
			continue
		}
		if name != "" {
			files[name] = append(files[name], line...)
		}
	}
	if len(files) == 0 {
		t.Fatalf("%s: no -- path -- sections", path)
	}
	// A section "#repeat N" followed by lines is those lines repeated to
	// N bytes: a large file without its bytes in the case.
	for name, text := range files {
		if rest, ok := bytes.CutPrefix(text, []byte("#repeat ")); ok {
			num, unit, _ := bytes.Cut(rest, []byte("\n"))
			n, err := strconv.Atoi(string(num))
			if err != nil || len(unit) == 0 {
				t.Fatalf("%s: %s: #repeat N, then the text to repeat", path, name)
			}
			files[name] = bytes.Repeat(unit, n/len(unit)+1)[:n]
		}
	}
	return files
}

// render prints findings as Text does, with each fix under its finding.
func render(fs []diag.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(f.String())
		if f.Definition != "" {
			fmt.Fprintf(&b, " [%s]", f.Definition)
		}
		b.WriteByte('\n')
		if f.Fix != nil {
			fmt.Fprintf(&b, "\tfix %q: %s [%d,%d) -> %q\n", f.Fix.Title, f.Fix.Path, f.Fix.Start, f.Fix.End, f.Fix.Text)
		}
	}
	b.WriteString(Summary(fs) + "\n")
	return b.String()
}

func TestCases(t *testing.T) {
	paths, err := filepath.Glob("testdata/cases/*.txt")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	covered := map[string]bool{}
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".txt")
		t.Run(name, func(t *testing.T) {
			files := readCase(t, path)
			ix := definitions.FromFiles(context.Background(), files)
			fs := Run(context.Background(), ix, Options{})
			want, _, _ := strings.Cut(name, "-")
			for _, f := range fs {
				if want == "clean" || f.Code != want {
					t.Errorf("unexpected finding: %s", f)
				}
				if f.Fix != nil {
					checkFix(t, files, f)
				}
			}
			if want != "clean" && len(fs) == 0 {
				t.Errorf("no %s finding", want)
			}
			covered[want] = true
			golden.Check(t, strings.TrimSuffix(path, ".txt")+".golden", []byte(render(fs)))
		})
	}
	for _, r := range registry() {
		if !covered[r.Code] {
			t.Errorf("no case triggers %s (%s)", r.Code, r.Title)
		}
	}
}

// checkFix applies a fix and checks that the finding it repairs is gone.
func checkFix(t *testing.T, files map[string][]byte, f diag.Finding) {
	t.Helper()
	src, ok := files[f.Fix.Path]
	if !ok || f.Fix.Start < 0 || f.Fix.End > len(src) || f.Fix.Start > f.Fix.End {
		t.Errorf("%s: fix out of range: %+v", f, f.Fix)
		return
	}
	fixed := map[string][]byte{}
	for p, b := range files {
		fixed[p] = b
	}
	fixed[f.Fix.Path] = append(append(append([]byte{}, src[:f.Fix.Start]...), f.Fix.Text...), src[f.Fix.End:]...)
	after := Run(context.Background(), definitions.FromFiles(context.Background(), fixed), Options{})
	for _, g := range after {
		if g.Code == f.Code && g.Path == f.Path && g.Line == f.Line && g.Message == f.Message {
			t.Errorf("%s: still there after its fix", f)
		}
	}
}
