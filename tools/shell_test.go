package tools

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/history"
	"github.com/tent-tools/tent-tools/policy"
)

// shellPolicy lets shell and everything a default policy lets.
var shellPolicy = &Policy{Also: []string{policy.AlsoShell}}

// shellAnswer runs shell through Call and returns its data answer.
func shellAnswer(t *testing.T, w *Workspace, input string) ShellAnswer {
	t.Helper()
	a, err := call(w, "shell", input)
	if err != nil {
		t.Fatalf("shell %s: %v", input, err)
	}
	return a.Data.(ShellAnswer)
}

func TestShellRefusedWithoutAlso(t *testing.T) {
	for _, tt := range []struct {
		name   string
		policy *Policy
	}{
		{"default", nil},
		{"also engine", &Policy{Also: []string{policy.AlsoEngine}}},
		{"allow all", &Policy{Allow: []string{"**"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w, dir := openCopy(t, Options{Policy: tt.policy})
			_, err := call(w, "shell", `{"command": "echo x > made.txt"}`)
			wantCode(t, err, diag.T9105)
			if _, err := os.Stat(filepath.Join(dir, "made.txt")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("made.txt: %v; want no file: nothing may run", err)
			}
		})
	}
}

func TestShellBadInput(t *testing.T) {
	w, _ := openCopy(t, Options{Policy: shellPolicy})
	for _, input := range []string{
		`{}`,
		`{"command": "true", "argv": ["true"]}`,
		`{"argv": [""]}`,
		`{"command": "true", "timeout": -1}`,
		`{"command": "true", "timeout": 601}`,
		`{"argv": ["no-such-program-of-tent"]}`,
	} {
		_, err := call(w, "shell", input)
		wantCode(t, err, diag.T9102)
	}
}

func TestShellRuns(t *testing.T) {
	t.Setenv("TENT_SHELL_SECRET", "hidden")
	w, _ := openCopy(t, Options{Policy: shellPolicy})
	for _, tt := range []struct {
		input  string
		exit   int
		output string
	}{
		{`{"command": "echo out; echo err >&2; echo out2"}`, 0, "out\nerr\nout2\n"},
		{`{"argv": ["sh", "-c", "exit 3"]}`, 3, ""},
		{`{"argv": ["printf", "%s|", "a b", "c"]}`, 0, "a b|c|"},
		{`{"command": "echo \"[$TENT_SHELL_SECRET]\"; pwd"}`, 0, "[]\n" + w.Root() + "\n"},
		{`{"command": "cat; echo done"}`, 0, "done\n"}, // no stdin: cat ends at once
	} {
		a := shellAnswer(t, w, tt.input)
		if a.ExitCode != tt.exit || a.Output != tt.output || a.Cut || a.TimedOut || a.Point != nil || len(a.Files) != 0 {
			t.Errorf("shell %s = %+v; want exit %d, output %q, nothing changed", tt.input, a, tt.exit, tt.output)
		}
	}
}

// alive reports whether a process runs (a zombie, killed and waiting to
// be reaped, does not).
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return !errors.Is(err, os.ErrNotExist)
	}
	_, rest, _ := strings.Cut(string(stat), ") ")
	return !strings.HasPrefix(rest, "Z")
}

// gone waits up to 10 s for the process pid to end, and fails t (killing
// it) where it still runs: after names what should have ended it.
func gone(t *testing.T, pid int, after string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the child %d still runs after %s", pid, after)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestShellTimeoutKillsTheGroup(t *testing.T) {
	w, _ := openCopy(t, Options{Policy: shellPolicy})
	start := time.Now()
	a := shellAnswer(t, w, `{"command": "sleep 300 & echo $!; sleep 300", "timeout": 1}`)
	if took := time.Since(start); took > 20*time.Second {
		t.Errorf("shell took %s; want about its 1 s timeout", took)
	}
	if !a.TimedOut || a.ExitCode != -1 {
		t.Fatalf("answer %+v; want timedOut, exit -1", a)
	}
	child, err := strconv.Atoi(strings.TrimSpace(a.Output))
	if err != nil {
		t.Fatalf("output %q: want the sleeping child's pid", a.Output)
	}
	gone(t, child, "the timeout")
}

func TestShellLeftChildIsKilled(t *testing.T) {
	w, _ := openCopy(t, Options{Policy: shellPolicy})
	// The command ends at once, leaving a child that holds no output.
	a := shellAnswer(t, w, `{"command": "sleep 300 >/dev/null 2>&1 & echo $!"}`)
	child, err := strconv.Atoi(strings.TrimSpace(a.Output))
	if err != nil || a.TimedOut || a.ExitCode != 0 {
		t.Fatalf("answer %+v; want the child's pid, exit 0", a)
	}
	gone(t, child, "the command ended")
}

func TestShellOutputIsCut(t *testing.T) {
	w, _ := openCopy(t, Options{Policy: shellPolicy})
	a := shellAnswer(t, w, `{"command": "head -c 104857600 /dev/zero | tr '\\0' x; echo end >&2"}`)
	if !a.Cut || len(a.Output) != MaxShellOutput || a.ExitCode != 0 || a.TimedOut {
		t.Fatalf("100 MB: cut %v, %d bytes, exit %d, timedOut %v; want cut at %d, exit 0", a.Cut, len(a.Output), a.ExitCode, a.TimedOut, MaxShellOutput)
	}
	if strings.Trim(a.Output, "x") != "" {
		t.Errorf("output holds more than the command's first bytes")
	}
	// A cut never splits a character.
	out := readCut(strings.NewReader(strings.Repeat("é", 10)), 5)
	if out.text != "éé" || !out.cut {
		t.Errorf("readCut of é×10 at 5 bytes = %q, %v; want \"éé\", cut", out.text, out.cut)
	}
}

func TestShellChangeIsOnePoint(t *testing.T) {
	w, dir := openCopy(t, Options{Policy: shellPolicy, Caller: "ann", Agent: "bot"})
	a := shellAnswer(t, w, `{"command": "echo note > notes.txt && rm lib/money.ts && echo '// more' >> tables/orders.ts"}`)
	want := []string{"lib/money.ts", "notes.txt", "tables/orders.ts"}
	if strings.Join(a.Files, ",") != strings.Join(want, ",") || a.Point == nil {
		t.Fatalf("answer %+v; want files %v and a point", a, want)
	}
	hs, err := w.state.HistoryStore(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	p, err := pointAt(context.Background(), hs, *a.Point)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, f := range p.Files {
		files = append(files, f.Path)
	}
	if p.Kind != history.KindShell || p.Tool != "shell" || p.Who != "ann" || p.Agent != "bot" || strings.Join(files, ",") != strings.Join(want, ",") {
		t.Errorf("point %+v; want kind shell by ann through bot, files %v", p, want)
	}
	last, err := hs.Last(context.Background())
	if err != nil || last != *a.Point {
		t.Errorf("last point %d (%v); want the shell's %d alone", last, err, *a.Point)
	}
	// Undo puts all three back.
	if _, err := call(w, "undo", `{}`); err != nil {
		t.Fatal(err)
	}
	after := snapshot(t, dir)
	if _, ok := after["notes.txt"]; ok || after["lib/money.ts"] == "" || strings.HasSuffix(after["tables/orders.ts"], "// more\n") {
		t.Errorf("undo left notes.txt %v, lib/money.ts %q, orders.ts ending %q", ok, after["lib/money.ts"], after["tables/orders.ts"][max(0, len(after["tables/orders.ts"])-20):])
	}
}

func TestShellRefusedChangeIsPutBack(t *testing.T) {
	for _, tt := range []struct {
		name    string
		policy  *Policy
		command string
	}{
		{"engine", shellPolicy, `echo '// more' >> engine.ts; echo new > added.txt; rm lib/money.ts`},
		{"link in a file's place", shellPolicy, `rm lib/money.ts; ln -s ../engine.ts lib/money.ts; rm tables/orders.ts; mkdir tables/orders.ts; echo '// x' >> engine.ts`},
		{"deny path", &Policy{Also: []string{policy.AlsoShell}, Deny: []string{"tables/**"}}, `rm tables/orders.ts; echo new > added.txt`},
		{"deny change", &Policy{Also: []string{policy.AlsoShell}, Deny: []string{"remove:table"}}, `sed -i 's/orders/purchases/' tables/orders.ts`},
		{"ask, no one says yes", &Policy{Also: []string{policy.AlsoShell}, Ask: []string{"lib/**"}}, `echo '// x' >> lib/money.ts`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w, dir := openCopy(t, Options{Policy: tt.policy})
			if _, err := call(w, "read", `{"path": "project.ts"}`); err != nil {
				t.Fatal(err)
			}
			if _, err := call(w, "write", `{"path": "start.txt", "text": "the history starts"}`); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, dir)
			hs, err := w.state.HistoryStore(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			lastBefore, _ := hs.Last(context.Background())
			_, err = call(w, "shell", `{"command": `+strconv.Quote(tt.command)+`}`)
			var te *diag.ToolError
			if !errors.As(err, &te) || (te.Code != diag.T9105 && te.Code != diag.T3103) || !strings.Contains(te.Message, "put back") {
				t.Fatalf("shell: %v; want a refusal that says the changes were put back", err)
			}
			if lost := te.Data["notPutBack"].([]string); len(lost) != 0 {
				t.Errorf("not put back: %v", lost)
			}
			after := snapshot(t, dir)
			for p, text := range before {
				if after[p] != text {
					t.Errorf("%s differs after the refused command", p)
				}
			}
			for p := range after {
				if _, ok := before[p]; !ok {
					t.Errorf("%s stays after the refused command", p)
				}
			}
			// No point records the refused change, nor its putting back.
			if _, err := call(w, "read", `{"path": "project.ts"}`); err != nil {
				t.Fatal(err)
			}
			if last, _ := hs.Last(context.Background()); last != lastBefore {
				t.Errorf("last point %d; want %d: nothing recorded", last, lastBefore)
			}
		})
	}
}

func TestShellCancelledStillJudges(t *testing.T) {
	for _, tt := range []struct {
		name   string
		policy *Policy
		kept   bool
	}{
		{"allowed", shellPolicy, true},
		{"ask", &Policy{Also: []string{policy.AlsoShell}, Ask: []string{"made.txt"}}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w, dir := openCopy(t, Options{Policy: tt.policy})
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() {
				for {
					if _, err := os.Stat(filepath.Join(dir, "made.txt")); err == nil {
						break
					}
					time.Sleep(10 * time.Millisecond)
				}
				cancel()
				close(done)
			}()
			_, err := w.Shell(ctx, ShellInput{Command: "echo x > made.txt; sleep 300", Timeout: 60})
			<-done
			_, statErr := os.Stat(filepath.Join(dir, "made.txt"))
			if kept := statErr == nil; kept != tt.kept {
				t.Errorf("made.txt kept: %v; want %v (err %v)", kept, tt.kept, err)
			}
			if tt.kept && !errors.Is(err, context.Canceled) {
				t.Errorf("err %v; want context.Canceled", err)
			}
			if !tt.kept {
				wantCode(t, err, diag.T3103)
			}
			hs, err := w.state.HistoryStore(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			last, _ := hs.Last(context.Background())
			p, err := pointAt(context.Background(), hs, last)
			if tt.kept && (err != nil || p.Kind != history.KindShell) {
				t.Errorf("newest point %+v (%v); want the shell's", p, err)
			}
		})
	}
}
