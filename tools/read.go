package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/words"
)

// ReadInput is the input of read: a file, and optionally its lines from
// and to (1-based, inclusive; 0 or left out: the first and the last).
type ReadInput struct {
	Path string `json:"path"`
	From int    `json:"from,omitempty"`
	To   int    `json:"to,omitempty"`
}

// ReadAnswer is the data answer of read (docs/pages/read.md). Lines is the file's
// line count; Text is the raw text of lines From..To, line ends included.
// An empty file answers From and To 0.
type ReadAnswer struct {
	Path  string `json:"path"`
	From  int    `json:"from"`
	To    int    `json:"to"`
	Lines int    `json:"lines"`
	Text  string `json:"text"`
}

func init() {
	register(Tool{
		Name:     "read",
		Summary:  "The text of a file, or of its lines from..to (1-based, inclusive), each line numbered",
		NewInput: func() any { return new(ReadInput) },
		Answer:   ReadAnswer{},
		ReadOnly: true,
		Local:    true,
		Run: func(ctx context.Context, w *Workspace, in any) (Answer, error) {
			return w.read(ctx, *in.(*ReadInput))
		},
	})
}

// Read answers the text of a file, or of its lines. A file is read whole up
// to MaxText; a larger one only by lines (T9104 tells so), up to MaxFile.
func (w *Workspace) read(ctx context.Context, in ReadInput) (Answer, error) {
	if in.From < 0 || in.To < 0 || (in.To > 0 && in.From > in.To) {
		return Answer{}, diag.Errorf(diag.T9102, "bad input: from and to are line numbers, 1 or more, from not after to (got from %d, to %d)", in.From, in.To)
	}
	rel, err := w.Resolve(in.Path, false)
	if err != nil {
		return Answer{}, err
	}
	whole := in.From == 0 && in.To == 0
	limit := int64(MaxFile)
	if whole {
		limit = MaxText
	}
	src, _, err := w.state.ReadFile(rel, limit, func(n int64) error {
		if whole && n <= MaxFile {
			return diag.Errorf(diag.T9104, "%s is %s; read reads at most %s whole: give from and to to read it by lines", rel, words.Bytes(n), words.Bytes(MaxText)).
				With("path", rel).With("size", n)
		}
		return diag.Errorf(diag.T9104, "%s is %s, more than the %s the file tools read at all", rel, words.Bytes(n), words.Bytes(MaxFile)).
			With("path", rel).With("size", n)
	})
	if err != nil {
		return Answer{}, err
	}
	if text, ok := w.state.Overlay(rel); ok {
		src = text // an editor's unsaved text is what the project holds now
	}
	if err := checkText(rel, src); err != nil {
		return Answer{}, err
	}
	starts := lineStarts(src)
	n := len(starts)
	from, to := max(in.From, 1), in.To
	if to == 0 || to > n {
		to = n
	}
	if n == 0 {
		from, to = 0, 0
	} else if from > n {
		return Answer{}, diag.Errorf(diag.T9102, "bad input: from %d is past the end of %s, which has %s", in.From, rel, words.Count(n, "line")).
			With("path", rel).With("lines", n)
	}
	var text string
	var lines []Line
	if n > 0 {
		end := len(src)
		if to < n {
			end = starts[to]
		}
		text = string(src[starts[from-1]:end])
		if len(text) > MaxText {
			return Answer{}, diag.Errorf(diag.T9104, "lines %d-%d of %s are %s; read at most %s at once", from, to, rel, words.Bytes(int64(len(text))), words.Bytes(MaxText)).
				With("path", rel)
		}
		for i := from; i <= to; i++ {
			lines = append(lines, Line{Line: i, Text: lineText(src, starts, i)})
		}
	}
	var b strings.Builder
	switch {
	case n == 0:
		fmt.Fprintf(&b, "%s is empty\n", rel)
	case from == 1 && to == n:
		fmt.Fprintf(&b, "%s (%s)\n", rel, words.Count(n, "line"))
	default:
		fmt.Fprintf(&b, "%s (lines %d-%d of %d)\n", rel, from, to, n)
	}
	b.WriteString(numbered(lines))
	return Answer{
		Text: b.String(),
		Data: ReadAnswer{Path: rel, From: from, To: to, Lines: n, Text: text},
	}, nil
}
