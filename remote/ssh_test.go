package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/golden"
	"github.com/tent-tools/tent-tools/internal/projectgen"
	"github.com/tent-tools/tent-tools/internal/sample"
	"github.com/tent-tools/tent-tools/tools"
)

// TestSameAsLocal runs every golden call, one after another, on a project
// reached as 127.0.0.1:PATH through ssh and on its local twin: the
// answers, text and data, are byte for byte the same, and so are the trees
// after each call. Both sides see the same calls in the same order, so
// the writes leave them alike (their points too).
func TestSameAsLocal(t *testing.T) {
	r := needRig(t)
	opts := tools.Options{Caller: "ann"}
	twin, far := shop(t), shop(t)
	w := r.open(t, far)
	for _, c := range golden.Calls(t, "../tools/testdata/calls.json") {
		want := callLocal(t, twin, c.Tool, c.Input, opts)
		got := shown(w.Call(context.Background(), c.Tool, c.Input, opts))
		if got != want {
			t.Errorf("%s over ssh:\n%s\nlocally:\n%s", c.Name, got, want)
		}
		sameTree(t, twin, far)
	}
}

// TestReadRetriedOnce: the ssh process killed right after a read was sent
// (before its answer) is answered all the same, on a second link; a read
// whose second link drops too is T9160.
func TestReadRetriedOnce(t *testing.T) {
	r := needRig(t)
	twin, far := shop(t), shop(t)
	w := r.open(t, far)
	var dials, kills atomic.Int32
	w.dialed = func(*link) { dials.Add(1) }
	// A cut link hears no more replies: a far side quicker than the kill
	// (its answer already in the pipe) would answer the read unretried.
	cut := func(l *link) {
		l.setReceived(func(reply) bool { return false })
		l.kill()
	}
	w.sent = func(l *link, req request) {
		if kills.Add(1) == 1 {
			cut(l)
		}
	}
	opts := tools.Options{Caller: "ann"}
	input := json.RawMessage(`{"text": "placedAt"}`)
	got := shown(w.Call(context.Background(), "search", input, opts))
	if want := callLocal(t, twin, "search", input, opts); got != want {
		t.Errorf("after the retry:\n%s\nwant:\n%s", got, want)
	}
	if dials.Load() != 1 || kills.Load() != 2 {
		t.Errorf("%d new links, %d sends; want the read sent twice on two links", dials.Load(), kills.Load())
	}
	// Both links cut: the read is not sent a third time.
	kills.Store(0)
	w.sent = func(l *link, req request) { kills.Add(1); cut(l) }
	_, err := w.Call(context.Background(), "map", nil, opts)
	wantCode(t, err, diag.T9160)
	if kills.Load() != 2 {
		t.Errorf("the read was sent %d times; want 2", kills.Load())
	}
}

// TestWriteCutShort cuts the link of an edit and of a rename of the hub
// (users, named by many files): the ssh process killed at once after the
// call was sent, or a little later (while the far side works), or once
// the far side's answer came (dropped unread). The answer is what the far
// side's history says (the point, or T9161 not done), the write was never
// sent twice, and the tree is the local twin's after the one write, or
// untouched. Where the answer was dropped, the call was surely done.
func TestWriteCutShort(t *testing.T) {
	r := needRig(t)
	opts := tools.Options{Caller: "ann"}
	calls := []golden.Call{
		{Name: "edit", Tool: "edit", Input: json.RawMessage(`{"path": "tables/orders.ts", "find": "    total: money(),\n", "with": "    total: money(),\n    tip: money({ optional: true }),\n"}`)},
		{Name: "hub-rename", Tool: "rename", Input: json.RawMessage(`{"name": "users", "to": "customers"}`)},
	}
	cuts := []struct {
		name string
		wait time.Duration // after the send; -1: once the answer came
	}{{"at-once", 0}, {"working", 20 * time.Millisecond}, {"answer-lost", -1}}
	for _, c := range calls {
		for _, cut := range cuts {
			t.Run(c.Name+"/"+cut.name, func(t *testing.T) {
				t.Parallel()
				before, after, far := shop(t), shop(t), shop(t)
				callLocal(t, after, c.Tool, c.Input, opts)
				w := r.open(t, far)
				var sends, lost atomic.Int32
				w.sent = func(l *link, req request) {
					if req.Op != "call" {
						return
					}
					sends.Add(1)
					if cut.wait < 0 {
						l.setReceived(func(rep reply) bool {
							if rep.ID == req.ID && rep.Ask == "" {
								lost.Add(1)
								l.kill()
								return false
							}
							return true
						})
						return
					}
					time.Sleep(cut.wait)
					l.kill()
				}
				ans, err := w.Call(context.Background(), c.Tool, c.Input, opts)
				w.sent = nil
				if sends.Load() != 1 {
					t.Fatalf("the write was sent %d times", sends.Load())
				}
				points := history(t, w)
				o, cutShort := ans.Data.(Outcome)
				switch {
				case err == nil && !cutShort:
					if cut.wait == 0 {
						t.Fatalf("the kill at once landed after the answer: %s", ans.Text)
					}
					t.Logf("the answer came before the kill; the tree is checked all the same")
					sameTree(t, after, far)
				case err == nil:
					t.Logf("done: %s", ans.Text)
					if !o.Done || o.Point == 0 || !strings.Contains(ans.Text, "was done") {
						t.Fatalf("answer %#v; want the point the history records", ans)
					}
					if strings.Count(points, "command by ann, "+c.Tool) != 1 {
						t.Errorf("the history has\n%s\nwant the one point", points)
					}
					sameTree(t, after, far)
				case isCode(err, diag.T9161):
					t.Logf("not done: %v", err)
					if cut.wait < 0 {
						t.Fatalf("the answer was lost, yet T9161: %v", err)
					}
					if strings.Contains(points, "command by ann") {
						t.Errorf("not done, but the history has\n%s", points)
					}
					sameTree(t, before, far)
				default:
					t.Fatalf("error %v; want the point or T9161", err)
				}
				if cut.wait < 0 && lost.Load() != 1 {
					t.Errorf("%d answers dropped; want the one", lost.Load())
				}
			})
		}
	}
}

// history answers the far side's history as its text (a line a point).
func history(t *testing.T, w *Workspace) string {
	t.Helper()
	ans, err := w.Call(context.Background(), "history", nil, tools.Options{Caller: "ann"})
	if err != nil {
		t.Fatal(err)
	}
	return ans.Text
}

// TestUnresolvableHost: a host that does not resolve is T9160 within
// seconds, through the default transport (ssh -o BatchMode=yes).
func TestUnresolvableHost(t *testing.T) {
	needRig(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, err := Open(ctx, NewHosts(HostsConfig{}), Target{Host: "nohost.invalid", Path: "/x"})
	te := wantCode(t, err, diag.T9160)
	if !strings.Contains(te.Message, "nohost.invalid") {
		t.Errorf("the message names no host: %s", te.Message)
	}
	if ctx.Err() != nil {
		t.Error("the error came only at the test's deadline")
	}
}

// TestFarErrors: a folder that is no project there is T9162 at Open.
func TestFarErrors(t *testing.T) {
	r := needRig(t)
	_, err := Open(context.Background(), r.hosts(), Target{Host: "127.0.0.1", Path: filepath.Join(t.TempDir(), "none")})
	wantCode(t, err, diag.T9162)
}

// TestAsksHere: where the policy asks, the person is asked on the near
// side, and the answer decides there as it would locally.
func TestAsksHere(t *testing.T) {
	r := needRig(t)
	policy, err := tools.ParsePolicy([]byte(`{"ask": ["tables/**"]}`))
	if err != nil {
		t.Fatal(err)
	}
	input := json.RawMessage(`{"path": "tables/orders.ts", "find": "    total: money(),\n", "with": "    total: money(),\n    tip: money({ optional: true }),\n"}`)
	for _, yes := range []bool{true, false} {
		twin, far := shop(t), shop(t)
		local, remote := &recorder{yes: yes}, &recorder{yes: yes}
		want := callLocal(t, twin, "edit", input, tools.Options{Caller: "ann", Policy: policy, Approver: local})
		got := shown(r.open(t, far).Call(context.Background(), "edit", input, tools.Options{Caller: "ann", Policy: policy, Approver: remote}))
		if got != want || strings.Join(remote.asked, "|") != strings.Join(local.asked, "|") || len(local.asked) != 1 {
			t.Errorf("yes=%v: over ssh asked %q and answered\n%s\nlocally asked %q and answered\n%s", yes, remote.asked, got, local.asked, want)
		}
		sameTree(t, twin, far)
	}
}

// recorder is an approver that keeps the questions and answers yes or no.
type recorder struct {
	yes   bool
	asked []string
}

func (r *recorder) Approve(ctx context.Context, question string) (bool, error) {
	r.asked = append(r.asked, question)
	return r.yes, nil
}

// TestShellTimeoutThere: a shell command's timeout ends the command on
// the far side, not only a local process.
func TestShellTimeoutThere(t *testing.T) {
	r := needRig(t)
	policy, err := tools.ParsePolicy([]byte(`{"also": ["shell"]}`))
	if err != nil {
		t.Fatal(err)
	}
	w := r.open(t, shop(t))
	marker := "31.4159" // the sleep's own argument finds its process
	ans, err := w.Call(context.Background(), "shell", json.RawMessage(`{"command": "sleep `+marker+`", "timeout": 1}`), tools.Options{Caller: "ann", Policy: policy})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ans.Text, "1 s") && !strings.Contains(strings.ToLower(ans.Text), "time") {
		t.Errorf("the answer does not say it ran out of time:\n%s", ans.Text)
	}
	for start := time.Now(); ; time.Sleep(50 * time.Millisecond) {
		out, _ := exec.Command("pgrep", "-f", "sleep "+marker).Output()
		if len(strings.TrimSpace(string(out))) == 0 {
			break
		}
		if time.Since(start) > 5*time.Second {
			t.Fatalf("the command still runs there: pids %s", out)
		}
	}
}

// wantCode fails t unless err is a tool error with the code.
func wantCode(t *testing.T, err error, code string) *diag.ToolError {
	t.Helper()
	var te *diag.ToolError
	if !errors.As(err, &te) || te.Code != code {
		t.Fatalf("error %v; want %s", err, code)
	}
	return te
}

// isCode reports whether err is a tool error with the code.
func isCode(err error, code string) bool {
	var te *diag.ToolError
	return errors.As(err, &te) && te.Code == code
}

// TestFarEndsWithLink: when its link drops, the far side's process ends
// within seconds (its session lock is let go of and its file removed).
func TestFarEndsWithLink(t *testing.T) {
	r := needRig(t)
	w := r.open(t, shop(t))
	w.mu.Lock()
	l := w.link
	w.mu.Unlock()
	lock := filepath.Join(r.cache, "sessions", l.session+".lock")
	if _, err := os.Stat(lock); err != nil {
		t.Fatalf("the far side holds no session file: %v", err)
	}
	l.kill()
	<-l.done
	for start := time.Now(); ; time.Sleep(50 * time.Millisecond) {
		if _, err := os.Stat(lock); errors.Is(err, os.ErrNotExist) {
			t.Logf("the far side ended %s after its link dropped", time.Since(start).Round(time.Millisecond))
			return
		}
		if time.Since(start) > 10*time.Second {
			t.Fatal("the far side still runs 10 s after its link dropped")
		}
	}
}

// TestBoundedCrosses: an agent's call (tools.Options.Bounded, as MCP
// makes it) on a remote project is answered within its budgets, as the
// same call locally, and one without it (the CLI's) whole: the far side
// cuts the lists, so the answer crosses the link already bounded.
func TestBoundedCrosses(t *testing.T) {
	r := needRig(t)
	texts := map[string]string{}
	for p, src := range projectgen.Generate(projectgen.Options{Tables: 40, Seed: 1}) {
		texts[p] = string(src)
	}
	for i := range 130 {
		texts[fmt.Sprintf("lib/broken%03d.ts", i)] = "export const = ;\n"
	}
	twin, far := t.TempDir(), t.TempDir()
	sample.Write(t, twin, texts)
	sample.Write(t, far, texts)
	w := r.open(t, far)
	input := json.RawMessage(`{"from": 20}`)
	for _, bounded := range []bool{true, false} {
		opts := tools.Options{Caller: "ann", Bounded: bounded}
		want := callLocal(t, twin, "check", input, opts)
		got := shown(w.Call(context.Background(), "check", input, opts))
		if got != want {
			t.Errorf("bounded %v: over ssh:\n%s\nlocally:\n%s", bounded, got, want)
		}
		if cut := strings.Contains(got, `"more":`); cut != bounded {
			t.Errorf("bounded %v: the answer cut (more) %v:\n%.2000s", bounded, cut, got)
		}
	}
}
