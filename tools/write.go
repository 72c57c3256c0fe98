package tools

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/words"
	"github.com/tent-tools/tent-tools/internal/workspace"
)

// WriteInput is the input of write: a whole file.
type WriteInput struct {
	Path string `json:"path"`
	Text string `json:"text"`
}

// maxShownLines bounds how many changed lines a write answers.
const maxShownLines = 40

func init() {
	register(Tool{
		Name:       "write",
		Summary:    "A whole file, up to 1 MB, written atomically (folders made as needed)",
		Writes:     true,
		NewInput:   func() any { return new(WriteInput) },
		Answer:     Changed{},
		Idempotent: true,
		Local:      true,
		Run: func(ctx context.Context, w *Workspace, in any) (Answer, error) {
			return w.write(ctx, *in.(*WriteInput))
		},
	})
}

// TextTooLarge is write's T9104 for a text of size bytes, more than
// MaxText; a face that reads the text from a stream stops at MaxText+1
// bytes, counts the rest and answers it with the text's real size.
func TextTooLarge(size int64) error {
	return diag.Errorf(diag.T9104, "the text is %s; write at most %s: split the file in two or more", words.Bytes(size), words.Bytes(MaxText)).
		With("size", size)
}

// Write writes a whole file atomically, exactly as given: it changes no line
// ends. It answers the lines that differ from the file as it was, with two
// lines around them (at most 40 lines; Cut counts the rest).
func (w *Workspace) write(ctx context.Context, in WriteInput) (Answer, error) {
	if len(in.Text) > MaxText {
		return Answer{}, TextTooLarge(int64(len(in.Text)))
	}
	rel, err := w.Resolve(in.Path, true)
	if err != nil {
		return Answer{}, err
	}
	if rel == "." {
		return Answer{}, diag.Errorf(diag.T9102, "bad input: write needs a file's path")
	}
	// The old text, to show what changed and for the point (undo puts it
	// back); a file larger than any tool reads is refused.
	old, info, err := w.state.ReadFile(rel, MaxFile, func(n int64) error {
		return diag.Errorf(diag.T9104, "%s is %s; write replaces files of up to %s: change it outside the tools", rel, words.Bytes(n), words.Bytes(MaxFile)).With("path", rel)
	})
	created := isCode(err, diag.T9103)
	if err != nil && !created {
		return Answer{}, err
	}
	src := []byte(in.Text)
	st := &workspace.Stage{Summary: "write " + rel}
	if created {
		st.Put(rel, nil, false, 0o644, src)
	} else {
		st.Put(rel, old, true, info.Mode().Perm(), src)
	}
	point, err := w.state.CommitStage(ctx, nil, st)
	if err != nil {
		return Answer{}, err
	}
	starts := lineStarts(src)
	var shown []Line
	if !bytes.Equal(old, src) {
		shown = around(src, starts, [][2]int{changedRegion(old, src)}, 2)
	}
	cut := 0
	if len(shown) > maxShownLines {
		cut = len(shown) - maxShownLines
		shown = shown[:maxShownLines]
	}
	var b strings.Builder
	switch {
	case created:
		fmt.Fprintf(&b, "wrote %s (new file, %s)\n", rel, words.Count(len(starts), "line"))
	case bytes.Equal(old, src):
		fmt.Fprintf(&b, "wrote %s (%s, unchanged)\n", rel, words.Count(len(starts), "line"))
	default:
		fmt.Fprintf(&b, "wrote %s (%s)\n", rel, words.Count(len(starts), "line"))
	}
	b.WriteString(numbered(shown))
	if cut > 0 {
		fmt.Fprintf(&b, "(%s more not shown; read the file to see them)\n", words.Count(cut, "line"))
	}
	writePoint(&b, point)
	if shown == nil {
		shown = []Line{}
	}
	return Answer{
		Text: b.String(),
		Data: Changed{Path: rel, Changed: shown, Created: created, Cut: cut, Point: pointRef(point)},
	}, nil
}
