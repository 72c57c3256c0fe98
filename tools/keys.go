package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/tent-tools/tent-tools/diag"
)

// KeysInput is the input of keys: the prefix of the keys to list (all
// where left out), and how many of them to skip (an agent's answer holds
// budgetKeys, and its more says the from of the next ones).
type KeysInput struct {
	Prefix string `json:"prefix,omitempty"`
	From   int    `json:"from,omitempty"`
}

// KeysAnswer is the data answer of keys.
type KeysAnswer struct {
	Keys []KeyAnswer `json:"keys"`
	// More, in an agent's bounded answer, says how many keys were left
	// out and the from of the next ones.
	More []diag.More `json:"more,omitempty"`
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
	if in.From < 0 {
		return Answer{}, diag.Errorf(diag.T9102, "bad input: from %d: give 0 or more", in.From).With("field", "from")
	}
	ns, err := w.state.NoteStore(ctx)
	if err != nil {
		return Answer{}, err
	}
	list, err := ns.Keys(ctx, in.Prefix)
	if err != nil {
		return Answer{}, err
	}
	a := KeysAnswer{Keys: []KeyAnswer{}}
	total := len(list)
	list = bound(w.Options().Bounded, &a.More, "keys", list, in.From, budgetKeys,
		fmt.Sprintf("keys with from %d shows the next; a longer prefix fewer", in.From+budgetKeys), true)
	var b strings.Builder
	for _, n := range list {
		a.Keys = append(a.Keys, KeyAnswer{Key: n.Key, Time: noteTime(n.Time)})
		fmt.Fprintf(&b, "%s\n", n.Key)
	}
	switch {
	case len(list) == 0 && total > 0:
		fmt.Fprintf(&b, "no keys from %d: there are %d\n", in.From, total)
	case len(list) == 0:
		if in.Prefix == "" {
			b.WriteString("no notes yet (remember keeps one)\n")
		} else {
			fmt.Fprintf(&b, "no note begins with %q\n", in.Prefix)
		}
	}
	writeMore(&b, a.More)
	return Answer{Text: b.String(), Data: a}, nil
}
