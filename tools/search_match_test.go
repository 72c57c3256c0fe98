package tools

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// matchByLineStarts is how search matched a file before it counted lines
// from one hit to the next: every line's start listed, each hit's line
// looked up among them. match must answer as it does.
func matchByLineStarts(s *searcher, p string, src []byte) fileHits {
	found := fileHits{path: p}
	if len(src) == 0 {
		return found // an empty file has no lines (this one took line 1 of none, and panicked)
	}
	var starts []int
	last := 0
	for i := 0; i <= len(src); {
		j, n := s.next(src[i:])
		if j < 0 {
			break
		}
		at := i + j
		if starts == nil {
			starts = lineStarts(src)
		}
		line := lineAt(starts, at)
		if line != last {
			last = line
			found.lines++
			if !s.byFile && len(found.hits) < s.limit {
				text := lineText(src, starts, line)
				found.hits = append(found.hits, Hit{Path: p, Line: line, Text: excerpt(text, at-starts[line-1], n)})
			}
		}
		if line >= len(starts) {
			break
		}
		i = starts[line]
	}
	return found
}

// matchCases are texts (a regex where it starts with "re:") and files
// where a hit's line is easy to get wrong: no file, no line end at the
// end, line ends at the end, CRLF, a match of nothing at the file's end
// ($), at a line end, across lines, on each line, and a line longer than
// a hit shows.
var matchCases = []struct{ text, src string }{
	{"a", ""},
	{"a", "a"},
	{"a", "a\n"},
	{"a", "a\n\n"},
	{"a", "b\na\r\nca\r\n"},
	{"re:$", "abc\n"},
	{"re:$", "abc"},
	{"re:(?m)$", "a\nb\n\nc\n"},
	{"re:(?m)^", "a\nb\n"},
	{"re:x*", "a\nb\n"},
	{"re:\\n", "a\nb\n\n"},
	{"re:b\\nc", "a\nb\nc\nb\nc"},
	{"re:\\r?$", "a\r\n"},
	{"needle", strings.Repeat("x", 400) + "needle" + strings.Repeat("y", 400) + "\nneedle needle\nno\nneedle"},
	{"é", "aé\nbé\r\n"},
}

// TestMatchSameAsLineStarts checks that match finds the lines, their
// numbers and texts that the matching by listed line starts finds, in
// every mode and with a limit that cuts.
func TestMatchSameAsLineStarts(t *testing.T) {
	for _, c := range matchCases {
		sameAsLineStarts(t, c.text, c.src)
	}
}

// FuzzMatch checks the same for any text or regex and file.
func FuzzMatch(f *testing.F) {
	for _, c := range matchCases {
		f.Add(c.text, c.src)
	}
	f.Fuzz(func(t *testing.T, text, src string) {
		sameAsLineStarts(t, text, src)
	})
}

func sameAsLineStarts(t *testing.T, text, src string) {
	t.Helper()
	if text == "" || text == "re:" {
		return
	}
	for _, limit := range []int{1, 2, 100} {
		for _, byFile := range []bool{false, true} {
			s := &searcher{find: []byte(text), limit: limit, byFile: byFile}
			if pattern, ok := strings.CutPrefix(text, "re:"); ok {
				re, err := regexp.Compile(pattern)
				if err != nil {
					return
				}
				s.re = re
				s.required = newRequiredRegex(pattern, re)
			}
			got, want := s.match("f.ts", []byte(src)), matchByLineStarts(s, "f.ts", []byte(src))
			if got.lines != want.lines || !slices.Equal(got.hits, want.hits) {
				t.Fatalf("%q in %q (limit %d, by file %v): %d lines %v, want %d lines %v",
					text, src, limit, byFile, got.lines, fmt.Sprint(got.hits), want.lines, fmt.Sprint(want.hits))
			}
		}
	}
}

// TestSearchEmptyFile checks that a regex that matches nothing (x*, $)
// finds no line in an empty file, and that the search answers (a worker
// that took line 1 of an empty file panicked, and took the process down).
func TestSearchEmptyFile(t *testing.T) {
	w, _ := openFiles(t, map[string]string{"a.ts": "export const x = 1\n", "empty.ts": ""})
	for _, input := range []string{`{"text": "x*", "regex": true}`, `{"text": "$", "regex": true, "count": true}`,
		`{"text": "x*", "regex": true, "in": "empty.ts"}`} {
		ans, err := call(w, "search", input)
		if err != nil {
			t.Fatalf("%s: %v", input, err)
		}
		data := ans.Data.(SearchAnswer)
		for _, h := range data.Hits {
			if h.Path == "empty.ts" {
				t.Errorf("%s: a hit in the empty file: %+v", input, h)
			}
		}
		for _, f := range data.Files {
			if f.Path == "empty.ts" {
				t.Errorf("%s: the empty file holds it: %+v", input, f)
			}
		}
	}
}

// TestSearchCarriesAPanic checks that a panic (a bug) in search's workers
// is raised again on the goroutine that searched, where Call answers it as
// an internal error, not on the worker's, where it ended the process, and
// that its stack is logged.
func TestSearchCarriesAPanic(t *testing.T) {
	w, _ := openFiles(t, map[string]string{"a.ts": "export const x = 1\n", "lib/b.ts": "x\n"})
	var log strings.Builder
	w.log = &log
	// A required regex without its regex: matching a file panics.
	s := &searcher{w: w, limit: 100, files: map[string]bool{}, required: &requiredRegex{text: []byte("x")}}
	var raised any
	func() {
		defer func() { raised = recover() }()
		s.folder(context.Background(), ".", "", w.shownFiles(".", false, ""))
	}()
	if raised == nil {
		t.Fatal("the worker's panic was not raised on the searching goroutine")
	}
	if !strings.Contains(log.String(), "a goroutine of search panicked") || !strings.Contains(log.String(), "readBatch") {
		t.Errorf("the worker's stack was not logged:\n%s", log.String())
	}
}
