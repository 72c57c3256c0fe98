package tools

import (
	"context"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/words"
)

// RememberInput is the input of remember: a key and its value.
type RememberInput struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// RememberAnswer is the data answer of remember.
type RememberAnswer struct {
	Key     string `json:"key"`
	Created bool   `json:"created"`
}

// Limits of a note: keys are short names, values a page of text.
const (
	maxNoteKey   = 200
	maxNoteValue = 64 << 10
)

func init() {
	register(Tool{
		Name:       "remember",
		Summary:    "Keeps a note (key and value) in the workspace across conversations, in .tent/, never in the project's files",
		NewInput:   func() any { return new(RememberInput) },
		Answer:     RememberAnswer{},
		Additive:   true,
		Idempotent: true,
		Local:      true,
		Run: func(ctx context.Context, w *Workspace, in any) (Answer, error) {
			return w.remember(ctx, *in.(*RememberInput))
		},
	})
}

// Remember writes a note, replacing the key's value where it has one.
func (w *Workspace) remember(ctx context.Context, in RememberInput) (Answer, error) {
	if err := checkKey(in.Key, "key"); err != nil {
		return Answer{}, err
	}
	if len(in.Value) > maxNoteValue || !utf8.ValidString(in.Value) {
		return Answer{}, diag.Errorf(diag.T9104, "a note's value is text of at most %s", words.Bytes(maxNoteValue)).With("field", "value")
	}
	ns, err := w.state.NoteStore(ctx)
	if err != nil {
		return Answer{}, err
	}
	created, err := ns.Put(ctx, in.Key, in.Value, w.state.Now())
	if err != nil {
		return Answer{}, err
	}
	text := fmt.Sprintf("remembered %s\n", in.Key)
	if !created {
		text = fmt.Sprintf("remembered %s (its old value is replaced)\n", in.Key)
	}
	return Answer{Text: text, Data: RememberAnswer{Key: in.Key, Created: created}}, nil
}

// checkKey refuses an empty, overlong or binary key (T9102).
func checkKey(key, field string) error {
	if key == "" || len(key) > maxNoteKey || !utf8.ValidString(key) {
		return diag.Errorf(diag.T9102, "bad input: %s must be text of 1 to %d bytes", field, maxNoteKey).With("field", field)
	}
	return nil
}

// noteTime writes a note's time as answers hold it.
func noteTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }
