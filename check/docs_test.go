package check

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// pageOf names the docs page of a code's range.
func pageOf(code string) string {
	switch {
	case strings.HasPrefix(code, "T1"):
		return "codes-t1"
	case strings.HasPrefix(code, "T20"):
		return "codes-t2"
	case strings.HasPrefix(code, "T25"):
		return "codes-t25"
	case strings.HasPrefix(code, "T26"):
		return "codes-t26"
	}
	return ""
}

// TestDocsHaveEveryCode checks that each code has its section, with an
// example, on the page of its range.
func TestDocsHaveEveryCode(t *testing.T) {
	for _, r := range Rules() {
		page := pageOf(r.Code)
		src, err := os.ReadFile(filepath.Join("../docs/pages", page+".md"))
		if err != nil {
			t.Fatalf("%s: %v", r.Code, err)
		}
		if !strings.Contains(string(src), "\n## "+r.Code+": ") {
			t.Errorf("%s.md has no section ## %s: ...", page, r.Code)
		}
	}
}

// findingLine matches a finding as the docs show it.
var findingLine = regexp.MustCompile(`^\S+:\d+:\d+: (error|warning|info) T\d{4}: .*$`)

// TestDocsExamplesAreReal checks that every finding the docs show is one
// that a case project really gives (its golden has the same line), so the
// docs cannot drift from the check's messages and positions. T1001 and T2011
// come from elsewhere and are left out.
func TestDocsExamplesAreReal(t *testing.T) {
	goldens, err := filepath.Glob("testdata/cases/*.golden")
	if err != nil || len(goldens) == 0 {
		t.Fatal("no goldens")
	}
	real := map[string]bool{}
	for _, g := range goldens {
		src, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(src), "\n") {
			if i := strings.LastIndex(line, " ["); i > 0 && strings.HasSuffix(line, "]") {
				line = line[:i]
			}
			real[line] = true
		}
	}
	pages, _ := filepath.Glob("../docs/pages/codes-*.md")
	pages = append(pages, "../docs/pages/check.md")
	shown := 0
	for _, page := range pages {
		src, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(src), "\n") {
			if !findingLine.MatchString(line) {
				continue
			}
			shown++
			if !real[line] {
				t.Errorf("%s shows a finding no case gives:\n%s", filepath.Base(page), line)
			}
		}
	}
	if shown < 20 {
		t.Errorf("the docs show only %d findings", shown)
	}
}
