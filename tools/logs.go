package tools

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/runner"
)

// LogsInput is the input of logs: errors only, and since a time (RFC
// 3339) or an age ("10m", "2h", "3d").
type LogsInput struct {
	Errors bool   `json:"errors,omitempty"`
	Since  string `json:"since,omitempty"`
	// From skips the newest entries: an agent's answer holds 50 entries
	// at most, and its more says the from that answers the older ones.
	From int `json:"from,omitempty"`
}

func init() {
	register(Tool{
		Name:     "logs",
		Summary:  "Calls and errors of the app's runs, newest first, with the app's stack in its own files; errors only, or since a time or an age (10m)",
		NewInput: func() any { return new(LogsInput) },
		Answer:   runner.Logs{},
		ReadOnly: true,
		Local:    true,
		Run: func(ctx context.Context, w *Workspace, in any) (Answer, error) {
			return w.logs(ctx, *in.(*LogsInput))
		},
	})
}

// Logs answers the runs of the workspace's app (docs/pages/logs.md).
func (w *Workspace) logs(ctx context.Context, in LogsInput) (Answer, error) {
	r, err := w.state.Runner()
	if err != nil {
		return Answer{}, err
	}
	logs, err := r.Logs(ctx, runner.LogsQuery{Errors: in.Errors, Since: in.Since})
	if err != nil {
		var te *diag.ToolError
		if !errors.As(err, &te) {
			err = w.state.StateDBError(runner.LogFile, err)
		}
		return Answer{}, err
	}
	if in.From < 0 {
		return Answer{}, diag.Errorf(diag.T9102, "bad input: from %d: give 0 or more", in.From).With("field", "from")
	}
	total := len(logs.Entries)
	logs.Entries = bound(w.Options().Bounded, &logs.More, "entries", logs.Entries, in.From, budgetLogs,
		fmt.Sprintf("logs with from %d shows the older ones", in.From+budgetLogs), true)
	var b strings.Builder
	if total == 0 {
		b.WriteString(w.noLogs(ctx, r, in))
	} else if len(logs.Entries) == 0 {
		fmt.Fprintf(&b, "no entries from %d: there are %d\n", in.From, total)
	}
	for _, e := range logs.Entries {
		fmt.Fprintf(&b, "%s %s as %s (%s ms) input %s\n", e.Time.UTC().Format(time.RFC3339), e.Name, e.As, formatMS(e.MS), e.Input)
		if e.Error != nil {
			fmt.Fprintf(&b, "  error %s: %s\n", e.Error.Code, e.Error.Message)
			if stack, ok := e.Error.Data["stack"].([]any); ok {
				for _, f := range stack {
					fmt.Fprintf(&b, "    at %v\n", f)
				}
			}
		} else {
			fmt.Fprintf(&b, "  result %s\n", e.Result)
		}
	}
	for _, n := range logs.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	writeMore(&b, logs.More)
	return Answer{Text: b.String(), Data: logs}, nil
}

// noLogs says what an answer with no entries means: no runs at all, none
// since the time asked, or runs of which none failed (errors), so that
// an empty answer to --errors is not read as "nothing ran".
func (w *Workspace) noLogs(ctx context.Context, r *runner.Runner, in LogsInput) string {
	since := ""
	if in.Since != "" {
		since = " since " + in.Since
	}
	if !in.Errors {
		return "no runs" + since + "\n"
	}
	all, err := r.Logs(ctx, runner.LogsQuery{Since: in.Since, Limit: 1})
	if err != nil || len(all.Entries) == 0 {
		return "no runs" + since + "\n"
	}
	return "no failed runs" + since + ": every run" + since + " succeeded (logs without errors lists them)\n"
}
