package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/words"
	"github.com/tent-tools/tent-tools/policy"
	"github.com/tent-tools/tent-tools/runner"
)

// RunInput is the input of run: a function or a flow, its input (any JSON,
// an object for a function with inputs), and who runs it: an id, email or
// name of a users row, "system", or nobody where left out.
type RunInput struct {
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input,omitempty"`
	As    string          `json:"as,omitempty"`
}

func init() {
	register(Tool{
		Name:     "run",
		Summary:  "Calls a function or starts a flow on the test database, as a user, nobody or the system; answers its result, what it logged and sent, and the time it took",
		NewInput: func() any { return new(RunInput) },
		Answer:   runner.Result{},
		Additive: true,
		Run: func(ctx context.Context, w *Workspace, in any) (Answer, error) {
			return w.run(ctx, *in.(*RunInput))
		},
	})
}

// appIndex is the index that app code runs on (run, rows, reset, shot):
// one in which no name is defined twice. Where one is (T2001), no
// definition is used until it is resolved: which of the two a run would
// take (the first by path) is no choice the person made, and a second
// users table written without private columns would show what the first
// hides.
func (w *Workspace) appIndex(ctx context.Context) (*definitions.Index, error) {
	ix, err := w.Index(ctx)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, d := range ix.Definitions() {
		if d.Name == "" || seen[d.Name] {
			continue
		}
		seen[d.Name] = true
		if twice := ix.DefinitionsNamed(d.Name); len(twice) > 1 {
			var paths []string
			for _, t := range twice {
				paths = append(paths, t.Path)
			}
			return nil, diag.Errorf(diag.T2001, "%s is defined %d times (%s); nothing runs on the test database until one name is left (rename or remove the others; check shows them)",
				d.Name, len(twice), strings.Join(paths, ", ")).With("name", d.Name).With("paths", paths)
		}
	}
	return ix, nil
}

// Run runs a function or a flow (docs/pages/run.md) under the workspace's
// policy: as the system only where its also names runAsSystem (T3102);
// where the code sends data out, the person is asked through the
// workspace's approver unless its trust names run (T3103 on a no).
func (w *Workspace) run(ctx context.Context, in RunInput) (Answer, error) {
	r, err := w.state.Runner()
	if err != nil {
		return Answer{}, err
	}
	p := w.Options().Policy
	req := runner.Request{
		Name:        in.Name,
		Input:       in.Input,
		As:          in.As,
		AllowSystem: p.Lets(policy.AlsoRunAsSystem),
		Trusted:     p != nil && slices.Contains(p.Trust, policy.TrustRun),
		Approver:    w.Options().Approver,
	}
	// A process that has not read the index runs from the app snapshot
	// where its files have the stamps the snapshot was made from: a run
	// needs the schema, not the index of the code (runner/appcache.go).
	var res *runner.Result
	ran := false
	if w.state.ColdStampsWanted() {
		r.Prefetch()
		if stamps := w.state.ColdStamps(ctx); stamps != nil {
			res, ran, err = r.RunStamped(ctx, stamps, req)
		}
	}
	if !ran {
		ix, ierr := w.appIndex(ctx)
		if ierr != nil {
			return Answer{}, ierr
		}
		res, err = r.Run(ctx, ix, req)
		if stamps := w.state.IndexStamps(ix); stamps != nil {
			r.KeepApp(ix, stamps)
		}
	}
	if err != nil {
		return Answer{}, err
	}
	if len(res.Result) > MaxText {
		// A result is answered whole or not at all: a cut JSON text is no
		// JSON. Its size says what was left out.
		cut := *res
		cut.Result, cut.ResultCut = json.RawMessage("null"), len(res.Result)
		res = &cut
	}
	return Answer{Text: runText(res), Data: res}, nil
}

// runText is a run's answer for a model to read.
func runText(res *runner.Result) string {
	var b strings.Builder
	if res.ResultCut > 0 {
		fmt.Fprintf(&b, "result: not shown: it is %s of JSON, more than the %s an answer holds; return less (or a count) to see it\n",
			words.Bytes(int64(res.ResultCut)), words.Bytes(MaxText))
	} else {
		fmt.Fprintf(&b, "result: %s\n", res.Result)
	}
	if len(res.Logged) > 0 {
		b.WriteString("logged:\n")
		for _, l := range res.Logged {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	if len(res.Sent) > 0 {
		b.WriteString("sent:\n")
		for _, s := range res.Sent {
			switch s.Kind {
			case "mail":
				fmt.Fprintf(&b, "  mail to %s: %s (captured, not delivered)\n", s.To, s.Subject)
			default:
				fmt.Fprintf(&b, "  %s %s %s: %d\n", s.Kind, s.Method, s.To, s.Status)
			}
		}
	}
	fmt.Fprintf(&b, "took %s ms\n", formatMS(res.MS))
	for _, n := range res.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	return b.String()
}

// formatMS writes milliseconds without trailing zeros.
func formatMS(ms float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", ms), "0"), ".")
}
