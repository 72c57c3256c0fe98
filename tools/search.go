package tools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/projectfiles"
	"github.com/tent-tools/tent-tools/internal/words"
	"github.com/tent-tools/tent-tools/internal/workspace"
)

// SearchInput is the input of search: a text, exact and case-sensitive
// unless regex (Go's RE2 syntax) or caseInsensitive say otherwise; where
// to look (a folder or one file; left out: the whole project) and which
// files (include, a glob such as **/*.tsx); how many hits to answer (left
// out: 100). filesOnly answers the files that hold it, count the files
// with how many lines of each hold it; an empty text with either answers
// every file.
type SearchInput struct {
	Text            string `json:"text"`
	In              string `json:"in,omitempty"`
	Limit           *int   `json:"limit,omitempty"`
	Regex           bool   `json:"regex,omitempty"`
	Include         string `json:"include,omitempty"`
	CaseInsensitive bool   `json:"caseInsensitive,omitempty"`
	FilesOnly       bool   `json:"filesOnly,omitempty"`
	Count           bool   `json:"count,omitempty"`
	// Hidden searches the files and folders whose names begin with a
	// dot (.env, .github/) too; left out, they are searched only where
	// include, or in, names one.
	Hidden bool `json:"hidden,omitempty"`
}

// SearchAnswer is the data answer of search (docs/pages/search.md): the hits in
// path and line order, and how many more were cut by the limit.
// With filesOnly or count, hits is empty and files lists each file that
// holds the text with its number of lines that do, and total sums them.
type SearchAnswer struct {
	Hits  []Hit       `json:"hits"`
	Cut   int         `json:"cut"`
	Files []FileLines `json:"files,omitempty"`
	Total int         `json:"total,omitempty"`
}

// FileLines is a file that holds the searched text, and how many of its
// lines do.
type FileLines struct {
	Path  string `json:"path"`
	Lines int    `json:"lines"`
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
	register(Tool{
		Name:     "search",
		Summary:  "The files and lines that hold a text (exact and case-sensitive, or a regex, caseInsensitive), in the project or in the folder or file named by in, in files matching include; 100 hits unless limit says otherwise; filesOnly or count answer files (every file for an empty text); hidden files (.env) only with hidden or an include that names one; what git ignores is left out",
		NewInput: func() any { return new(SearchInput) },
		Answer:   SearchAnswer{},
		ReadOnly: true,
		Local:    true,
		Run: func(ctx context.Context, w *Workspace, in any) (Answer, error) {
			return w.search(ctx, *in.(*SearchInput))
		},
	})
}

// Search finds the lines that hold a text exactly. It looks at text files
// only, and leaves out what .gitignore names, the skipped folders (.git,
// .tent, node_modules, dist) and the framework's files; a file that in names
// itself is searched whatever .gitignore says. A text that spans lines
// counts on the line where it starts.
func (w *Workspace) search(ctx context.Context, in SearchInput) (Answer, error) {
	every := in.Text == ""
	if every && !in.FilesOnly && !in.Count {
		return Answer{}, diag.Errorf(diag.T9102, "bad input: text is empty; give filesOnly: true (or count) to list every file").With("field", "text")
	}
	limit, err := limitOf(in.Limit, defaultSearchLimit)
	if err != nil {
		return Answer{}, err
	}
	if in.Include != "" && !doublestar.ValidatePattern(in.Include) {
		return Answer{}, diag.Errorf(diag.T9102, "bad input: include %q is no glob", in.Include).With("field", "include")
	}
	s := searcher{w: w, find: []byte(in.Text), limit: limit, files: map[string]bool{},
		byFile: in.FilesOnly || in.Count, count: in.Count, every: every}
	switch {
	case in.CaseInsensitive && !in.Regex && utf8.ValidString(in.Text):
		s.fold = newFoldedText(in.Text)
	case in.Regex || in.CaseInsensitive:
		pattern := in.Text
		if !in.Regex {
			pattern = regexp.QuoteMeta(pattern)
		}
		if in.CaseInsensitive {
			pattern = "(?i)" + pattern
		}
		re, err := regexp.Compile(pattern)
		if err != nil {
			return Answer{}, badRegex(in.Text, err)
		}
		s.re = re
		s.required = newRequiredRegex(pattern, re)
	}
	rel, err := w.Resolve(in.In, false)
	if err != nil {
		return Answer{}, err
	}
	info, err := w.state.FS().Stat(rel)
	if err != nil {
		return Answer{}, workspace.OpenError(rel, err)
	}
	if !info.IsDir() {
		src, _, err := w.state.ReadFile(rel, MaxFile, func(n int64) error {
			return diag.Errorf(diag.T9104, "%s is %s, more than the %s that search reads", rel, words.Bytes(n), words.Bytes(MaxFile)).With("path", rel)
		})
		if err != nil {
			return Answer{}, err
		}
		if isBinary(src) {
			return Answer{}, checkText(rel, src)
		}
		s.add(s.match(rel, src))
	} else if err := s.folder(ctx, rel, in.Include, w.shownFiles(rel, in.Hidden, in.Include)); err != nil {
		return Answer{}, fmt.Errorf("search %s: %w", rel, err)
	}
	return s.answer(in.Text), nil
}

// badRegex is the T9102 of a text that is no RE2 regex, naming where it
// breaks.
func badRegex(text string, err error) error {
	var se *syntax.Error
	if errors.As(err, &se) {
		at := strings.Index(text, se.Expr)
		if at >= 0 {
			return diag.Errorf(diag.T9102, "bad input: text is no regex (RE2): %s at character %d: %q", se.Code, utf8.RuneCountInString(text[:at])+1, se.Expr).
				With("field", "text").With("offset", at)
		}
		return diag.Errorf(diag.T9102, "bad input: text is no regex (RE2): %s: %q", se.Code, se.Expr).With("field", "text")
	}
	return diag.Errorf(diag.T9102, "bad input: text is no regex (RE2): %v", err).With("field", "text")
}

// searcher gathers the hits of one search.
type searcher struct {
	w    *Workspace
	find []byte
	re   *regexp.Regexp // where the text is a regex (or, not UTF-8, found in any case)
	fold *foldedText    // where the text is found in any case
	// required is re with a text every match of it holds, or nil.
	required *requiredRegex
	limit    int
	hits     []Hit
	cut      int
	files    map[string]bool
	byFile   bool // filesOnly or count: files with their numbers of lines
	count    bool
	every    bool // the text is empty: every file, with its number of lines
	lines    []FileLines
	total    int
	// full says that hits has its limit: the workers, which match the
	// files after those added, make no more hits' text.
	full atomic.Bool
}

// next finds the text in src: where it starts and how long it is, or -1.
func (s *searcher) next(src []byte) (at, n int) {
	if s.fold != nil {
		return s.fold.index(src)
	}
	if s.required != nil {
		return s.required.index(src)
	}
	if s.re != nil {
		loc := s.re.FindIndex(src)
		if loc == nil {
			return -1, 0
		}
		return loc[0], loc[1] - loc[0]
	}
	return bytes.Index(src, s.find), len(s.find)
}

// fileHits are the hits of one file: the first (up to the limit) of the
// lines that hold the text, and how many lines do.
type fileHits struct {
	path    string
	hits    []Hit
	lines   int
	present bool // listed with no line that holds the text (every, an empty file)
}

// folder searches the files below the resolved folder rel that include
// matches: one goroutine walks (the workspace's WalkFiles, by
// descriptors) and hands the files on in batches of searchBatch,
// searchWorkers read and match each batch's files, each into its own
// buffer, used again file after file, and the hits are added in the
// walk's (path) order, so the answer is the one a search file by file
// gives.
func (s *searcher) folder(ctx context.Context, rel, include string, shown *shownFiles) error {
	// A batch holds each file's folder (Dir.Hold) until a worker has
	// read it: at most cap(order)+3 batches are out at once (16 is
	// enough to keep the workers of a large machine busy), so that the
	// folders held open stay a few hundred however the files are spread
	// (one a folder) and however many cores there are.
	type batch struct {
		files []projectfiles.Entry
		found []fileHits
		done  chan struct{} // closed when found is filled
	}
	jobs := make(chan *batch, searchWorkers)
	order := make(chan *batch, min(2*searchWorkers, 16))
	var walkErr error
	// A panic (a bug) of the walk or of a worker is carried here and
	// raised again on this goroutine, whose caller (Call) answers it as an
	// internal error, where on its own goroutine it ends the process (a
	// language server's, an MCP server's).
	var carried atomic.Pointer[carriedPanic]
	go func() {
		defer close(order)
		defer close(jobs)
		var next *batch
		defer func() {
			if r := recover(); r != nil {
				carried.CompareAndSwap(nil, &carriedPanic{r, debug.Stack()})
				if next != nil {
					for _, e := range next.files {
						e.Dir.Release()
					}
				}
			}
		}()
		handOn := func() {
			if next != nil {
				order <- next
				jobs <- next
				next = nil
			}
		}
		walkErr = s.w.state.WalkFiles(ctx, rel, func(e projectfiles.Entry) error {
			if projectfiles.FrameworkFile(e.Path) || !shown.shows(e.Path, false) {
				return nil
			}
			if include != "" {
				if ok, _ := doublestar.Match(include, e.Path); !ok {
					return nil
				}
			}
			if next == nil {
				next = &batch{files: make([]projectfiles.Entry, 0, searchBatch), done: make(chan struct{})}
			}
			e.Dir.Hold() // until a worker has read it
			next.files = append(next.files, e)
			if len(next.files) == searchBatch {
				handOn()
			}
			return nil
		})
		handOn()
	}()
	var workers sync.WaitGroup
	for range searchWorkers {
		workers.Go(func() {
			var buf []byte
			for b := range jobs {
				b.found = make([]fileHits, len(b.files))
				buf = s.readBatch(b.files, b.found, buf, &carried)
				close(b.done)
			}
		})
	}
	for b := range order {
		<-b.done
		for _, found := range b.found {
			s.add(found)
		}
	}
	workers.Wait()
	if p := carried.Load(); p != nil {
		fmt.Fprintf(s.w.panicLog(), "tent-tools: a goroutine of search panicked: %v\n%s", p.value, p.stack)
		panic(p.value)
	}
	return walkErr
}

// carriedPanic is a panic of one of search's goroutines, with its stack.
type carriedPanic struct {
	value any
	stack []byte
}

// readBatch reads and matches files into found, reading each into buf,
// and returns buf (grown where a file did not fit). It releases each
// file's folder, also after a panic, which it carries (the first one of
// the search) to the goroutine that answers.
func (s *searcher) readBatch(files []projectfiles.Entry, found []fileHits, buf []byte, carried *atomic.Pointer[carriedPanic]) []byte {
	released := 0
	defer func() {
		if r := recover(); r != nil {
			carried.CompareAndSwap(nil, &carriedPanic{r, debug.Stack()})
		}
		for _, e := range files[released:] {
			e.Dir.Release()
		}
	}()
	for i, e := range files {
		found[i], buf = s.read(e, buf)
		e.Dir.Release()
		released = i + 1
	}
	return buf
}

var (
	// searchWorkers is how many files search reads and matches at once.
	searchWorkers = max(1, runtime.GOMAXPROCS(0))
	// searchBatch is how many files the walk hands a worker at once: a
	// handoff between goroutines costs more than reading a small file.
	searchBatch = 32
)

// read returns the hits of the file the walk found, none where it is
// unreadable, larger than MaxFile or binary, and the buffer to read the
// next file into (buf, grown where the file did not fit).
func (s *searcher) read(e projectfiles.Entry, buf []byte) (fileHits, []byte) {
	src, err := e.Dir.ReadFile(e.Name, MaxFile, buf)
	if err != nil {
		return fileHits{}, buf
	}
	if isBinary(src) {
		return fileHits{}, src
	}
	return s.match(e.Path, src), src
}

// match finds the lines of one file that hold the text: one hit per line,
// the first up to the limit kept (none once the answer has its limit of
// hits from the files before: they would be cut). The lines are counted
// from one hit to the next, not listed, and only a hit's line is cut out.
// It only reads s, so files may be matched at once.
func (s *searcher) match(p string, src []byte) fileHits {
	found := fileHits{path: p}
	if s.every {
		found.present = true
		found.lines = bytes.Count(src, newline)
		if len(src) > 0 && src[len(src)-1] != '\n' {
			found.lines++
		}
		return found
	}
	if len(src) == 0 {
		return found
	}
	line, counted := 1, 0 // the line that holds src[counted]
	for i := 0; i <= len(src); {
		j, n := s.next(src[i:])
		if j < 0 {
			break
		}
		at := i + j
		// A match at the end of a file that ends its last line is on that
		// line, not on one after it.
		on := min(at, len(src)-1)
		line += bytes.Count(src[counted:on], newline)
		counted = on
		start := bytes.LastIndexByte(src[:on], '\n') + 1
		end := len(src) // the end of the hit's line: its \n, or the file's end
		if k := bytes.IndexByte(src[on:], '\n'); k >= 0 {
			end = on + k
		}
		found.lines++
		if !s.byFile && len(found.hits) < s.limit && !s.full.Load() {
			text := strings.TrimRight(string(src[start:end]), "\r")
			found.hits = append(found.hits, Hit{Path: p, Line: line, Text: excerpt(text, at-start, n)})
		}
		// Go on from the next line: a line is one hit however often it holds the text.
		if end+1 >= len(src) {
			break
		}
		i = end + 1
	}
	return found
}

var newline = []byte{'\n'}

// add adds the hits of one file to the answer, in the order of the calls.
func (s *searcher) add(found fileHits) {
	if found.lines == 0 && !found.present {
		return
	}
	if s.byFile {
		if len(s.lines) < s.limit {
			s.lines = append(s.lines, FileLines{Path: found.path, Lines: found.lines})
		} else {
			s.cut++
		}
		s.total += found.lines
		return
	}
	kept := 0
	for _, h := range found.hits {
		if len(s.hits) == s.limit {
			break
		}
		s.hits = append(s.hits, h)
		s.files[found.path] = true
		kept++
	}
	if len(s.hits) == s.limit {
		s.full.Store(true)
	}
	s.cut += found.lines - kept
}

func (s *searcher) answer(text string) Answer {
	var b strings.Builder
	if s.byFile {
		return s.fileAnswer(text)
	}
	switch {
	case len(s.hits) == 0:
		fmt.Fprintf(&b, "no hits for %q\n", text)
	case s.cut > 0:
		fmt.Fprintf(&b, "the first %d of %d hits for %q:\n", len(s.hits), len(s.hits)+s.cut, text)
	default:
		fmt.Fprintf(&b, "%s for %q in %s:\n", words.Count(len(s.hits), "hit"), text, words.Count(len(s.files), "file"))
	}
	for _, h := range s.hits {
		fmt.Fprintf(&b, "%s:%d: %s\n", h.Path, h.Line, h.Text)
	}
	if s.cut > 0 {
		fmt.Fprintf(&b, "(%d more %s cut by the limit of %d; narrow the search with in, or raise limit)\n", s.cut, words.Plural(s.cut, "hit"), s.limit)
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

// fileAnswer is the answer of filesOnly and count: the files, with their
// numbers of lines for count.
func (s *searcher) fileAnswer(text string) Answer {
	var b strings.Builder
	switch {
	case s.every && len(s.lines) == 0:
		b.WriteString("no files\n")
	case s.every && s.count:
		fmt.Fprintf(&b, "%s in %s:\n", words.Count(s.total, "line"), words.Count(len(s.lines)+s.cut, "file"))
	case s.every:
		fmt.Fprintf(&b, "%s:\n", words.Count(len(s.lines)+s.cut, "file"))
	case len(s.lines) == 0:
		fmt.Fprintf(&b, "no files hold %q\n", text)
	case s.count:
		fmt.Fprintf(&b, "%s in %s hold %q:\n", words.Count(s.total, "line"), words.Count(len(s.lines)+s.cut, "file"), text)
	default:
		fmt.Fprintf(&b, "%s hold %q:\n", words.Count(len(s.lines)+s.cut, "file"), text)
	}
	for _, f := range s.lines {
		if s.count {
			fmt.Fprintf(&b, "%s: %d\n", f.Path, f.Lines)
		} else {
			fmt.Fprintf(&b, "%s\n", f.Path)
		}
	}
	if s.cut > 0 {
		fmt.Fprintf(&b, "(%d more %s cut by the limit of %d; narrow the search with in or include, or raise limit)\n", s.cut, words.Plural(s.cut, "file"), s.limit)
	}
	files := s.lines
	if files == nil {
		files = []FileLines{}
	}
	return Answer{Text: b.String(), Data: SearchAnswer{Hits: []Hit{}, Cut: s.cut, Files: files, Total: s.total}}
}
