package tools

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"strings"
	"unicode/utf8"

	"github.com/tent-tools/tent-tools/diag"
)

// SearchInput is the input of search: an exact, case-sensitive text; where
// to look (a folder or one file; left out: the whole project); how many
// hits to answer (left out: 100).
type SearchInput struct {
	Text  string `json:"text"`
	In    string `json:"in,omitempty"`
	Limit int    `json:"limit,omitempty"`
}

// SearchAnswer is the data answer of search (tools.md §7): the hits in
// path and line order, and how many more were cut by the limit.
type SearchAnswer struct {
	Hits []Hit `json:"hits"`
	Cut  int   `json:"cut"`
}

// Hit is a line that holds the searched text. A line longer than
// maxHitText is cut to the part around the text, marked with "…".
type Hit struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Text string `json:"text"`
}

const (
	defaultSearchLimit = 100
	maxHitText         = 300
)

func init() {
	Register(Tool{
		Name:     "search",
		Summary:  "The files and lines that hold a text (exact, case-sensitive), in the project or in the folder or file named by in; 100 hits unless limit says otherwise",
		NewInput: func() any { return new(SearchInput) },
		Run: func(ctx context.Context, w *Workspace, in any) (Answer, error) {
			return w.Search(ctx, *in.(*SearchInput))
		},
	})
}

// Search finds the lines that hold a text exactly. It looks at text files
// only, and leaves out what .gitignore names, the skipped folders (.git,
// .tent, node_modules, dist) and the framework's files; a file that in names
// itself is searched whatever .gitignore says. A text that spans lines
// counts on the line where it starts.
func (w *Workspace) Search(ctx context.Context, in SearchInput) (Answer, error) {
	if in.Text == "" {
		return Answer{}, diag.Errorf(diag.T9102, "bad input: text is empty").With("field", "text")
	}
	if in.Limit < 0 {
		return Answer{}, diag.Errorf(diag.T9102, "bad input: limit must be 1 or more").With("field", "limit")
	}
	limit := in.Limit
	if limit == 0 {
		limit = defaultSearchLimit
	}
	rel, err := w.Resolve(in.In, false)
	if err != nil {
		return Answer{}, err
	}
	info, err := w.fsys.Stat(rel)
	if err != nil {
		return Answer{}, openError(rel, err)
	}
	s := searcher{w: w, find: []byte(in.Text), limit: limit, files: map[string]bool{}}
	if !info.IsDir() {
		src, _, err := w.readFile(rel, MaxFile, func(n int64) error {
			return diag.Errorf(diag.T9104, "%s is %s, more than the %s that search reads", rel, size(n), size(MaxFile)).With("path", rel)
		})
		if err != nil {
			return Answer{}, err
		}
		if isBinary(src) {
			return Answer{}, checkText(rel, src)
		}
		s.file(rel, src)
	} else {
		err := w.walk(ctx, rel, func(p string, d fs.DirEntry, _ int) error {
			if !d.Type().IsRegular() || isFrameworkFile(p) {
				return nil
			}
			if info, err := d.Info(); err != nil || info.Size() > MaxFile {
				return nil
			}
			src, err := w.fsys.ReadFile(p)
			if err != nil || isBinary(src) {
				return nil
			}
			s.file(p, src)
			return nil
		})
		if err != nil {
			return Answer{}, fmt.Errorf("search %s: %w", rel, err)
		}
	}
	return s.answer(in.Text), nil
}

// searcher gathers the hits of one search.
type searcher struct {
	w     *Workspace
	find  []byte
	limit int
	hits  []Hit
	cut   int
	files map[string]bool
}

// file adds the hits in one file: one per line that holds the text.
func (s *searcher) file(p string, src []byte) {
	var starts []int
	last := 0
	for i := 0; i <= len(src)-len(s.find); {
		j := bytes.Index(src[i:], s.find)
		if j < 0 {
			return
		}
		at := i + j
		if starts == nil {
			starts = lineStarts(src)
		}
		line := lineAt(starts, at)
		if line != last {
			last = line
			if len(s.hits) < s.limit {
				text := lineText(src, starts, line)
				s.hits = append(s.hits, Hit{Path: p, Line: line, Text: excerpt(text, at-starts[line-1], len(s.find))})
				s.files[p] = true
			} else {
				s.cut++
			}
		}
		// Go on from the next line: a line is one hit however often it holds the text.
		if line < len(starts) {
			i = starts[line]
		} else {
			return
		}
	}
}

func (s *searcher) answer(text string) Answer {
	var b strings.Builder
	switch {
	case len(s.hits) == 0:
		fmt.Fprintf(&b, "no hits for %q\n", text)
	case s.cut > 0:
		fmt.Fprintf(&b, "the first %d of %d hits for %q:\n", len(s.hits), len(s.hits)+s.cut, text)
	default:
		fmt.Fprintf(&b, "%s for %q in %s:\n", plural(len(s.hits), "hit"), text, plural(len(s.files), "file"))
	}
	for _, h := range s.hits {
		fmt.Fprintf(&b, "%s:%d: %s\n", h.Path, h.Line, h.Text)
	}
	if s.cut > 0 {
		fmt.Fprintf(&b, "(%d more %s cut by the limit of %d; narrow the search with in, or raise limit)\n", s.cut, pluralWord(s.cut, "hit"), s.limit)
	}
	hits := s.hits
	if hits == nil {
		hits = []Hit{}
	}
	return Answer{Text: b.String(), Data: SearchAnswer{Hits: hits, Cut: s.cut}}
}

// excerpt returns a line as a hit shows it: whole, or, where it is longer
// than maxHitText, the part around the hit at byte col (of n bytes).
func excerpt(line string, col, n int) string {
	if len(line) <= maxHitText {
		return line
	}
	start := max(0, col-(maxHitText-n)/2)
	end := min(len(line), start+maxHitText)
	start = max(0, end-maxHitText)
	for start > 0 && !utf8.RuneStart(line[start]) {
		start++
	}
	for end < len(line) && !utf8.RuneStart(line[end]) {
		end--
	}
	out := line[start:end]
	if start > 0 {
		out = "…" + out
	}
	if end < len(line) {
		out += "…"
	}
	return out
}
