package tools

import (
	"context"
	"fmt"
	"strings"
)

// KeysInput is the input of keys: the prefix of the keys to list (all
// where left out).
type KeysInput struct {
	Prefix string `json:"prefix,omitempty"`
}

// KeysAnswer is the data answer of keys.
type KeysAnswer struct {
	Keys []KeyAnswer `json:"keys"`
}

// KeyAnswer is one key of keys, with when it was written.
type KeyAnswer struct {
	Key  string `json:"key"`
	Time string `json:"time"`
}

func init() {
	register(Tool{
		Name:     "keys",
		Summary:  "The keys of the notes kept with remember, sorted, those that begin with prefix",
		NewInput: func() any { return new(KeysInput) },
		Answer:   KeysAnswer{},
		ReadOnly: true,
		Local:    true,
		Run: func(ctx context.Context, w *Workspace, in any) (Answer, error) {
			return w.keys(ctx, *in.(*KeysInput))
		},
	})
}

// Keys lists the notes' keys.
func (w *Workspace) keys(ctx context.Context, in KeysInput) (Answer, error) {
	ns, err := w.state.NoteStore(ctx)
	if err != nil {
		return Answer{}, err
	}
	list, err := ns.Keys(ctx, in.Prefix)
	if err != nil {
		return Answer{}, err
	}
	a := KeysAnswer{Keys: []KeyAnswer{}}
	var b strings.Builder
	for _, n := range list {
		a.Keys = append(a.Keys, KeyAnswer{Key: n.Key, Time: noteTime(n.Time)})
		fmt.Fprintf(&b, "%s\n", n.Key)
	}
	if len(list) == 0 {
		if in.Prefix == "" {
			b.WriteString("no notes yet (remember keeps one)\n")
		} else {
			fmt.Fprintf(&b, "no note begins with %q\n", in.Prefix)
		}
	}
	return Answer{Text: b.String(), Data: a}, nil
}
