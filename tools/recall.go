package tools

import (
	"context"

	"github.com/tent-tools/tent-tools/diag"
)

// RecallInput is the input of recall: a key.
type RecallInput struct {
	Key string `json:"key"`
}

// RecallAnswer is the data answer of recall.
type RecallAnswer struct {
	Key   string `json:"key"`
	Value string `json:"value"`
	Time  string `json:"time"`
}

func init() {
	register(Tool{
		Name:     "recall",
		Summary:  "The value of a note kept with remember; an unknown key is T9103",
		NewInput: func() any { return new(RecallInput) },
		Answer:   RecallAnswer{},
		ReadOnly: true,
		Local:    true,
		Run: func(ctx context.Context, w *Workspace, in any) (Answer, error) {
			return w.recall(ctx, *in.(*RecallInput))
		},
	})
}

// Recall answers a note's value.
func (w *Workspace) recall(ctx context.Context, in RecallInput) (Answer, error) {
	if err := checkKey(in.Key, "key"); err != nil {
		return Answer{}, err
	}
	ns, err := w.state.NoteStore(ctx)
	if err != nil {
		return Answer{}, err
	}
	n, ok, err := ns.Get(ctx, in.Key)
	if err != nil {
		return Answer{}, err
	}
	if !ok {
		return Answer{}, diag.Errorf(diag.T9103, "no note %q (keys lists them)", in.Key).With("key", in.Key)
	}
	text := n.Value
	if text == "" || text[len(text)-1] != '\n' {
		text += "\n"
	}
	return Answer{Text: text, Data: RecallAnswer{Key: n.Key, Value: n.Value, Time: noteTime(n.Time)}}, nil
}
