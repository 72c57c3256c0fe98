package tools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/history"
	"github.com/tent-tools/tent-tools/internal/testneed"
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
		{`{"command": "echo out; sleep 0.2; echo err >&2; sleep 0.2; echo out2"}`, 0, "out\nerr\nout2\n"},
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

// needSandbox ends t where shell's sandbox (bubblewrap) is missing: a
// failure under CI, which installs it (.ci/setup.d/25-bubblewrap.sh).
func needSandbox(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("bwrap"); err != nil {
		testneed.Missing(t, "bwrap (bubblewrap) is not installed: .ci/setup.d/25-bubblewrap.sh installs it")
	}
}

// noLateWrite waits past when a command's child would have written, and
// fails t where it did: names are files of dir the child writes.
func noLateWrite(t *testing.T, dir string, wait time.Duration, names ...string) {
	t.Helper()
	time.Sleep(wait)
	for _, name := range names {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s was written after the call: a process of the command outlived it", name)
		}
	}
}

func TestShellTimeoutKillsEveryProcess(t *testing.T) {
	needSandbox(t)
	w, dir := openCopy(t, Options{Policy: shellPolicy})
	start := time.Now()
	a := shellAnswer(t, w, `{"command": "(sleep 2; echo late > late.txt) & setsid sh -c 'sleep 2; echo late > late2.txt' & sleep 300", "timeout": 1}`)
	if took := time.Since(start); took > 20*time.Second {
		t.Errorf("shell took %s; want about its 1 s timeout", took)
	}
	if !a.TimedOut || a.ExitCode != -1 || !a.Confined {
		t.Fatalf("answer %+v; want timedOut, exit -1, confined", a)
	}
	noLateWrite(t, dir, 3*time.Second, "late.txt", "late2.txt")
}

// TestShellLeftChildIsKilled starts children that outlive the command
// (in the background, in a session of their own by setsid, by nohup)
// and would write engine.ts and a denied file once the call was judged:
// they end with the call, and the next call records no change.
func TestShellLeftChildIsKilled(t *testing.T) {
	needSandbox(t)
	w, dir := openCopy(t, Options{Policy: &Policy{Also: []string{policy.AlsoShell}, Deny: []string{"tables/**"}}})
	before := snapshot(t, dir)
	hs, err := w.state.HistoryStore(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	a := shellAnswer(t, w, `{"command": "setsid sh -c 'sleep 1; echo // late >> engine.ts; echo // late >> tables/orders.ts' & nohup sh -c 'sleep 1; echo late > late.txt' >/dev/null 2>&1 & (sleep 1; echo late > late2.txt) >/dev/null 2>&1 & echo started"}`)
	if a.Output != "started\n" || a.TimedOut || a.ExitCode != 0 || a.Point != nil {
		t.Fatalf("answer %+v; want started, exit 0, nothing changed", a)
	}
	last, _ := hs.Last(context.Background())
	noLateWrite(t, dir, 2*time.Second, "late.txt", "late2.txt")
	assertSame(t, before, snapshot(t, dir))
	mustCall(t, w, "write", `{"path": "notes.txt", "text": "x"}`)
	if n, _ := hs.Last(context.Background()); n != last+1 {
		t.Errorf("the next write made points %d to %d; want its own alone (no outside change)", last+1, n)
	}
}

// unconfinedPath is a PATH that holds the programs the tests run but no
// bwrap: shell finds no sandbox there.
func unconfinedPath(t *testing.T) string {
	t.Helper()
	bin := t.TempDir()
	for _, prog := range []string{"sh", "sleep", "echo", "cat", "rm", "ln", "mkdir", "sed", "head", "tr", "seq"} {
		path, err := exec.LookPath(prog)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(path, filepath.Join(bin, prog)); err != nil {
			t.Fatal(err)
		}
	}
	return bin
}

// TestShellUnconfined runs shell where no sandbox can be had (no bwrap on
// PATH): refused (T9145) unless the options accept an unconfined shell,
// and then run in a process group of its own, killed at its end.
func TestShellUnconfined(t *testing.T) {
	t.Setenv("PATH", unconfinedPath(t))
	w, dir := openCopy(t, Options{Policy: shellPolicy})
	_, err := call(w, "shell", `{"command": "echo x > made.txt"}`)
	if te := wantCode(t, err, diag.T9145); te != nil && !strings.Contains(te.Message, "--unconfined-shell") {
		t.Errorf("the refusal %q does not say how to accept an unconfined shell", te.Message)
	}
	if _, err := os.Stat(filepath.Join(dir, "made.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("made.txt: %v; want no file: nothing may run", err)
	}
	net := &Policy{Also: []string{policy.AlsoShell}, Deny: []string{policy.DenyShellNetwork}}
	_, err = call(w.With(Options{Policy: net, UnconfinedShell: true}), "shell", `{"command": "echo x"}`)
	wantCode(t, err, diag.T9145)

	u := w.With(Options{Policy: shellPolicy, UnconfinedShell: true})
	ans, err := call(u, "shell", `{"command": "sleep 300 >/dev/null 2>&1 & echo $!"}`)
	if err != nil {
		t.Fatal(err)
	}
	a := ans.Data.(ShellAnswer)
	child, err := strconv.Atoi(strings.TrimSpace(a.Output))
	if err != nil || a.Confined || a.ExitCode != 0 || !strings.Contains(ans.Text, "unconfined") {
		t.Fatalf("answer %+v (%q); want the child's pid, unconfined, said so", a, ans.Text)
	}
	gone(t, child, "the command ended")
}

func TestShellOutputIsCut(t *testing.T) {
	w, _ := openCopy(t, Options{Policy: shellPolicy, UnconfinedShell: true})
	// 100 MB in one line; under the race detector, which reads output
	// several times slower, 16 MB keeps the call well inside its timeout.
	size := 100 << 20
	if raceOn {
		size = 16 << 20
	}
	a := shellAnswer(t, w, fmt.Sprintf(`{"command": "head -c %d /dev/zero | tr '\\0' x; echo; echo end"}`, size))
	if !a.Cut || len(a.Output) > MaxShellOutput || a.ExitCode != 0 || a.TimedOut {
		t.Fatalf("%d MB: cut %v, %d bytes, exit %d, timedOut %v; want cut to at most %d, exit 0", size>>20, a.Cut, len(a.Output), a.ExitCode, a.TimedOut, MaxShellOutput)
	}
	kept := strings.Count(a.Output, "x")
	if a.CutBytes+kept != size || a.CutLines != 0 {
		t.Errorf("cut %d bytes, %d lines, kept %d x; want the rest of %d MB + 1 cut, within its first line", a.CutBytes, a.CutLines, kept, size>>20)
	}
	if !strings.HasPrefix(a.Output, "xxxx") || !strings.HasSuffix(a.Output, "x\nend\n") || !strings.Contains(a.Output, "no error line among them") {
		t.Errorf("output starts %q, ends %q; want both ends", a.Output[:10], a.Output[len(a.Output)-10:])
	}
}

// TestShellOutputKeepsBothEnds: a long log keeps its first and last lines,
// and of the cut middle its first and last error lines with their
// numbers, and says how many lines were cut.
func TestShellOutputKeepsBothEnds(t *testing.T) {
	w, _ := openCopy(t, Options{Policy: shellPolicy, UnconfinedShell: true})
	const total = 200000
	a := shellAnswer(t, w, `{"command": "seq 1 200000 | sed -e '20000s/.*/src\\/a.ts(3,1): error TS2304: no name x/' -e '9000s/.*/warning: slow/' -e '150000s/.*/FAIL lib\\/money.test.ts/'"}`)
	lines := strings.Split(strings.TrimSuffix(a.Output, "\n"), "\n")
	if !a.Cut || len(a.Output) > MaxShellOutput || lines[0] != "1" || lines[len(lines)-1] != strconv.Itoa(total) {
		t.Fatalf("cut %v, %d bytes, first %q, last %q; want both ends within %d", a.Cut, len(a.Output), lines[0], lines[len(lines)-1], MaxShellOutput)
	}
	for _, want := range []string{"\n20000: src/a.ts(3,1): error TS2304: no name x\n", "\n150000: FAIL lib/money.test.ts\n", "lines (", "cut from line "} {
		if !strings.Contains(a.Output, want) {
			t.Errorf("output holds no %q", want)
		}
	}
	if strings.Contains(a.Output, "warning: slow") {
		t.Error("output holds a line of the middle that is no error")
	}
	// Every line is kept or counted as cut: the marker's 4 lines aside.
	if got := len(lines) - 4 + a.CutLines; got != total {
		t.Errorf("%d lines kept and %d cut = %d; want %d", len(lines)-4, a.CutLines, got, total)
	}
}

func TestShellOutputLines(t *testing.T) {
	w, _ := openCopy(t, Options{Policy: shellPolicy, UnconfinedShell: true})
	for _, tt := range []struct{ name, command, output string }{
		// A line is whole: stderr's line that ended first comes first.
		{"interleaved by lines", `printf a; sleep 0.2; printf 'b\n' >&2; sleep 0.2; printf 'c\n'`, "b\nac\n"},
		{"colours", `printf '\033[1;31merror\033[0m: \033[4mx\033[m\n'`, "error: x\n"},
		{"cursor and title", `printf '\033]0;title\007\033[2K\033[1Gdone\033[?25h\n'`, "done\n"},
		{"progress", `printf '10%%\r50%%\r100%%\n'`, "100%\n"},
		{"crlf", `printf 'a\r\nb\r\n'`, "a\nb\n"},
		{"no newline at the end", `printf 'a\nb'`, "a\nb"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := shellAnswer(t, w, `{"command": `+strconv.Quote(tt.command)+`}`)
			if a.Output != tt.output {
				t.Errorf("output %q; want %q", a.Output, tt.output)
			}
		})
	}
}

func TestStripEscapes(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"plain\n", "plain\n"},
		{"\x1b[31mred\x1b[0m", "red"},
		{"\x1b[38;5;196mx\x1b[39m", "x"},
		{"\x1b]8;;http://a\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"\x1b(Bx\x1b7y\x1b8", "xy"},
		{"\u009b31mc1\u009b0m", "c1"},
		{"a\rb", "b"},
		{"é\x1b[Kü", "éü"},
		{"\x1b", ""},
	} {
		if got := string(stripEscapes([]byte(tt.in))); got != tt.want {
			t.Errorf("stripEscapes(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

func TestShellCwd(t *testing.T) {
	w, dir := openCopy(t, Options{Policy: shellPolicy, UnconfinedShell: true})
	a := shellAnswer(t, w, `{"command": "pwd; echo x > made.txt", "cwd": "lib"}`)
	if a.Output != filepath.Join(w.Root(), "lib")+"\n" || strings.Join(a.Files, ",") != "lib/made.txt" {
		t.Errorf("cwd lib: %+v; want it run in lib, lib/made.txt changed", a)
	}
	if _, err := os.Stat(filepath.Join(dir, "lib", "made.txt")); err != nil {
		t.Error(err)
	}
	if err := os.Symlink("..", filepath.Join(dir, "up")); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ cwd, code string }{
		{".tent", diag.T9105},
		{".git", diag.T9105},
		{"..", diag.T9105},
		{"/tmp", diag.T9105},
		{"up", diag.T9105},
		{"nope", diag.T9103},
		{"project.ts", diag.T9102},
	} {
		_, err := call(w, "shell", `{"command": "echo x > cwd.txt", "cwd": `+strconv.Quote(tt.cwd)+`}`)
		wantCode(t, err, tt.code)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "cwd.txt")); err == nil {
		t.Error("a refused cwd ran the command")
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
	denyTables := &Policy{Also: []string{policy.AlsoShell}, Deny: []string{"tables/**"}}
	for _, tt := range []struct {
		name       string
		policy     *Policy
		unconfined bool // engine.ts is read-only in the sandbox: only an unconfined command writes it
		command    string
	}{
		{"engine, unconfined", shellPolicy, true, `echo '// more' >> engine.ts; echo new > added.txt; rm lib/money.ts`},
		{"link in a file's place", denyTables, false, `rm lib/money.ts; ln -s ../engine.ts lib/money.ts; rm tables/orders.ts; mkdir tables/orders.ts`},
		{"link in a file's place, unconfined", shellPolicy, true, `rm lib/money.ts; ln -s ../engine.ts lib/money.ts; rm tables/orders.ts; mkdir tables/orders.ts; echo '// x' >> engine.ts`},
		{"deny path", denyTables, false, `rm tables/orders.ts; echo new > added.txt`},
		{"deny change", &Policy{Also: []string{policy.AlsoShell}, Deny: []string{"remove:table"}}, false, `sed -i 's/orders/purchases/' tables/orders.ts`},
		{"ask, no one says yes", &Policy{Also: []string{policy.AlsoShell}, Ask: []string{"lib/**"}}, false, `echo '// x' >> lib/money.ts`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.unconfined {
				t.Setenv("PATH", unconfinedPath(t)) // no sandbox to be had
			} else {
				needSandbox(t)
			}
			w, dir := openCopy(t, Options{Policy: tt.policy, UnconfinedShell: tt.unconfined})
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
			_, err := w.shell(ctx, ShellInput{Command: "echo x > made.txt; sleep 300", Timeout: 60})
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

// TestShellConfined runs commands that reach past the project's files:
// each is stopped by the sandbox, and nothing it tried reaches a later
// call (the next write settles and records its own point alone).
func TestShellConfined(t *testing.T) {
	needSandbox(t)
	for _, tt := range []struct {
		name    string
		git     bool // the project has a .git/ folder
		command string
	}{
		{"plant in .tent", false, `echo x > .tent/planted; mkdir .tent/tmp/planted; printf junk >> .tent/history.db; rm -f .tent/write.lock; mv .tent .tent2`},
		{"framework files", false, `echo x > tent.d.ts; echo x > tent.clash.ts; echo '{}' > mcp.lock.json; echo // x >> engine.ts; rm engine.ts`},
		{"git hook, no .git", false, `mkdir -p .git/hooks && printf '#!/bin/sh\necho pwned\n' > .git/hooks/pre-commit`},
		{"git hook", true, `printf '#!/bin/sh\necho pwned\n' > .git/hooks/pre-commit; echo x >> .git/config; rm -r .git`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w, dir := openCopy(t, Options{Policy: shellPolicy})
			if tt.git {
				if err := os.MkdirAll(filepath.Join(dir, ".git", "hooks"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, ".git", "config"), []byte("[core]\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			mustCall(t, w, "write", `{"path": "start.txt", "text": "the history starts"}`)
			hs, err := w.state.HistoryStore(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			last, _ := hs.Last(context.Background())
			before := snapshot(t, filepath.Dir(dir))
			a := shellAnswer(t, w, `{"command": `+strconv.Quote(tt.command)+`}`)
			if a.ExitCode == 0 || a.Point != nil || !a.Confined {
				t.Errorf("answer %+v; want the command failed, confined, nothing changed", a)
			}
			assertSame(t, before, snapshot(t, filepath.Dir(dir)))
			for _, p := range []string{".tent/planted", ".tent/tmp/planted", ".tent2", "tent.d.ts", "tent.clash.ts", "mcp.lock.json"} {
				if _, err := os.Lstat(filepath.Join(dir, p)); err == nil {
					t.Errorf("%s is there after the command", p)
				}
			}
			if _, err := os.Lstat(filepath.Join(dir, ".git")); (err == nil) != tt.git {
				t.Errorf(".git after the command: %v; want it there only where it was", err)
			}
			mustCall(t, w, "write", `{"path": "next.txt", "text": "the next call"}`)
			if n, _ := hs.Last(context.Background()); n != last+1 {
				t.Errorf("the next write made points %d to %d; want its own alone", last+1, n)
			}
		})
	}
}

// TestShellSeesOnlyItsProject reads what is outside the project: a file
// beside it, the home folder, the system's secrets; none is there.
func TestShellSeesOnlyItsProject(t *testing.T) {
	needSandbox(t)
	w, dir := openCopy(t, Options{Policy: shellPolicy})
	secret := "the host's secret " + strconv.Itoa(os.Getpid())
	if err := os.WriteFile(filepath.Join(filepath.Dir(dir), "secret.txt"), []byte(secret), 0o644); err != nil {
		t.Fatal(err)
	}
	home, _ := os.UserHomeDir()
	a := shellAnswer(t, w, `{"command": "{ cat ../secret.txt; ls -A ..; ls `+home+`; cat /etc/shadow; echo done; } 2>&1"}`)
	if strings.Contains(a.Output, secret) || !strings.Contains(a.Output, "\n"+filepath.Base(dir)+"\nls: ") || !strings.HasSuffix(a.Output, "done\n") {
		t.Errorf("output %q; want nothing of the folder beside the project", a.Output)
	}
	if strings.Contains(a.Output, "root:") {
		t.Errorf("output %q holds /etc/shadow", a.Output)
	}
}

func TestShellNoNetwork(t *testing.T) {
	needSandbox(t)
	w, _ := openCopy(t, Options{Policy: &Policy{Also: []string{policy.AlsoShell}, Deny: []string{policy.DenyShellNetwork}}})
	a := shellAnswer(t, w, `{"command": "grep -c : /proc/net/dev"}`)
	if a.Output != "1\n" {
		t.Errorf("network interfaces under deny shell:network: %q; want 1 (lo alone)", a.Output)
	}
	w, _ = openCopy(t, Options{Policy: shellPolicy})
	if a := shellAnswer(t, w, `{"command": "grep -c : /proc/net/dev"}`); a.Output == "1\n" {
		t.Errorf("network interfaces without the deny: %q; want the host's", a.Output)
	}
}

// BenchmarkShell measures a shell call that changes nothing (true), in
// the sandbox and unconfined: the sandbox's cost is the difference.
func BenchmarkShell(b *testing.B) {
	for _, tt := range []struct {
		name       string
		unconfined bool
	}{{"sandbox", false}, {"unconfined", true}} {
		b.Run(tt.name, func(b *testing.B) {
			if tt.unconfined {
				bin := b.TempDir()
				path, err := exec.LookPath("true")
				if err != nil {
					b.Fatal(err)
				}
				if err := os.Symlink(path, filepath.Join(bin, "true")); err != nil {
					b.Fatal(err)
				}
				b.Setenv("PATH", bin) // no bwrap: no sandbox to be had
			} else if _, err := exec.LookPath("bwrap"); err != nil {
				b.Skip("no bwrap")
			}
			w, _ := openCopy(b, Options{Policy: shellPolicy, UnconfinedShell: tt.unconfined})
			for b.Loop() {
				ans, err := call(w, "shell", `{"argv": ["true"]}`)
				if err != nil || ans.Data.(ShellAnswer).Confined == tt.unconfined {
					b.Fatalf("%+v, %v", ans.Data, err)
				}
			}
		})
	}
}

// BenchmarkShellOutputRead measures reading a long output: one line of
// 16 MB, and 16 MB of short lines (each split, stripped, kept or cut and
// looked at for an error word).
func BenchmarkShellOutputRead(b *testing.B) {
	line := bytes.Repeat([]byte("x"), 16<<20)
	lines := bytes.Repeat([]byte("ok   github.com/x/y 0.1s some words here\n"), 16<<20/41)
	for _, tt := range []struct {
		name string
		data []byte
	}{{"one line", line}, {"lines", lines}} {
		b.Run(tt.name, func(b *testing.B) {
			b.SetBytes(int64(len(tt.data)))
			for b.Loop() {
				o := &shellOutput{}
				o.read(bytes.NewReader(tt.data))
			}
		})
	}
}

func TestIsErrorLine(t *testing.T) {
	for _, tt := range []struct {
		line string
		want bool
	}{
		{"src/a.ts(3,1): error TS2304: no name x", true},
		{"--- FAIL: TestX (0.01s)", true},
		{"npm ERR! code 1", true},
		{"TypeError: x is not a function", true},
		{"java.lang.NullPointerException", true},
		{"Traceback (most recent call last):", true},
		{"panic: runtime error", true},
		{"ok  	lib 0.1s", false},
		{"the mirror is clear; terrors none", false},
		{"err = nil", false},
		{"warning: slow", false},
	} {
		if got := isErrorLine([]byte(tt.line)); got != tt.want {
			t.Errorf("isErrorLine(%q) = %v; want %v", tt.line, got, tt.want)
		}
	}
}
