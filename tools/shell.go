package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/history"
	"github.com/tent-tools/tent-tools/internal/words"
	"github.com/tent-tools/tent-tools/policy"
)

// This file is the shell tool (docs/pages/shell.md): a command run in the
// project folder where the policy's also names shell. What it changes is
// found by the stat walk that finds changes made outside the tools, judged
// by the policy after the fact, and recorded as one point of the kind
// shell, or put back from the history where the policy refuses it.

// ShellInput is the input of shell: a command for sh -c, or the words of
// one (exactly one of the two), and how long it may run.
type ShellInput struct {
	Command string   `json:"command,omitempty"`
	Argv    []string `json:"argv,omitempty"`
	// Timeout is in seconds: 0 means DefaultShellTimeout, at most
	// MaxShellTimeout.
	Timeout int `json:"timeout,omitempty"`
}

// ShellAnswer is the data answer of shell: the command's exit code (-1
// where a signal ended it), its output (stdout and stderr as they came, cut
// at MaxShellOutput), whether it was cut or ran out of time, the files it
// changed and the point of the kind shell that records them.
type ShellAnswer struct {
	ExitCode int      `json:"exitCode"`
	Output   string   `json:"output"`
	Cut      bool     `json:"cut"`
	TimedOut bool     `json:"timedOut"`
	Files    []string `json:"files"`
	Point    *int     `json:"point"`
}

// The bounds of shell.
const (
	DefaultShellTimeout = 30          // seconds
	MaxShellTimeout     = 600         // seconds
	MaxShellOutput      = 64 << 10    // bytes of output kept
	shellDrain          = time.Second // how long the output may stay open after the group is killed
)

// shellEnv is the environment a command keeps; everything else (tokens,
// keys, the host's settings) is left out.
var shellEnv = []string{"PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TERM", "TMPDIR", "TZ", "USER", "LOGNAME"}

func init() {
	register(Tool{
		Name:     "shell",
		Summary:  "Runs a command in the project folder where the policy's also names shell; the files it changes are judged by the policy and recorded as a point of the kind shell",
		Writes:   true,
		NewInput: func() any { return new(ShellInput) },
		Answer:   ShellAnswer{},
		Run: func(ctx context.Context, w *Workspace, in any) (Answer, error) {
			return w.shell(ctx, *in.(*ShellInput))
		},
	})
}

// Shell runs a command in the project folder, in a process group of its
// own with no stdin and a stripped environment, killed whole at its
// timeout. The files it changed are judged by the policy: a refused change
// is put back from the history's contents and answered as the refusal
// (T9105, or T3103 where the person said no), with what was put back; a
// change the policy lets is recorded as one point of the kind shell.
func (w *Workspace) shell(ctx context.Context, in ShellInput) (Answer, error) {
	if !w.Options().Policy.Lets(policy.AlsoShell) {
		return Answer{}, diag.Errorf(diag.T9105, "refused: shell runs only where the policy's also names %q; nothing was run", policy.AlsoShell)
	}
	argv, err := shellArgv(in)
	if err != nil {
		return Answer{}, err
	}
	timeout := time.Duration(in.Timeout) * time.Second
	if in.Timeout == 0 {
		timeout = DefaultShellTimeout * time.Second
	}
	// Through Call the view holds the write lock and is settled; called
	// from Go, the command runs on a view of its own that is.
	view, release, err := w.state.Enter(ctx, "shell", true)
	if err != nil {
		return Answer{}, err
	}
	defer release()
	// The command may change any file: what the policy refuses is put back
	// from the history, which must hold every file's content first.
	hs, err := view.HistoryStore(ctx)
	if err != nil {
		return Answer{}, err
	}
	if err := view.KeepUnkept(ctx, hs); err != nil {
		return Answer{}, err
	}
	a, err := runShell(ctx, view.Root(), argv, timeout)
	if err != nil {
		return Answer{}, err
	}
	a.Files = []string{}
	// A call cancelled while the command ran still judges what it changed
	// (nobody is asked then: what ask names is put back), so that no
	// change passes the policy as a change made outside.
	cancelled := ctx.Err()
	point, files, err := view.KeepCommandChanges(context.WithoutCancel(ctx), shellLabel(in), cancelled != nil)
	if err == nil && cancelled != nil {
		changed := "nothing"
		if len(files) > 0 {
			changed = fmt.Sprintf("%s, point %d", history.Summary(files, 3), point)
		}
		err = fmt.Errorf("shell: the call ended while the command ran, which was killed (what it changed: %s): %w", changed, cancelled)
	}
	if err != nil {
		var te *diag.ToolError
		if errors.As(err, &te) {
			te.With("exitCode", a.ExitCode).With("output", a.Output).With("timedOut", a.TimedOut)
		}
		return Answer{}, err
	}
	if files != nil {
		a.Files = files
	}
	a.Point = pointRef(point)
	var b strings.Builder
	b.WriteString(a.Output)
	if a.Output != "" && !strings.HasSuffix(a.Output, "\n") {
		b.WriteString("\n")
	}
	if a.Cut {
		fmt.Fprintf(&b, "(output cut at %s)\n", words.Bytes(MaxShellOutput))
	}
	switch {
	case a.TimedOut:
		fmt.Fprintf(&b, "ran out of time after %s: its process group was killed\n", timeout)
	case a.ExitCode != 0:
		fmt.Fprintf(&b, "exit code %d\n", a.ExitCode)
	}
	if len(a.Files) > 0 {
		fmt.Fprintf(&b, "changed %s\n", strings.Join(a.Files, ", "))
	}
	writePoint(&b, point)
	return Answer{Text: b.String(), Data: a}, nil
}

// shellArgv checks the input and returns the words to run.
func shellArgv(in ShellInput) ([]string, error) {
	switch {
	case in.Command != "" && len(in.Argv) > 0:
		return nil, diag.Errorf(diag.T9102, "bad input: give command or argv, not both")
	case in.Command == "" && len(in.Argv) == 0:
		return nil, diag.Errorf(diag.T9102, "bad input: shell needs command (run by sh -c) or argv (the words of a command)").With("field", "command")
	case in.Timeout < 0 || in.Timeout > MaxShellTimeout:
		return nil, diag.Errorf(diag.T9102, "bad input: timeout is %d; give 1 to %d seconds (0 or none: %d)", in.Timeout, MaxShellTimeout, DefaultShellTimeout).With("field", "timeout")
	case in.Command != "":
		return []string{"sh", "-c", in.Command}, nil
	case in.Argv[0] == "":
		return nil, diag.Errorf(diag.T9102, "bad input: argv's first word (the program) is empty").With("field", "argv")
	}
	return in.Argv, nil
}

// shellLabel is the command as a point's summary shows it: at most 60
// characters of its first line.
func shellLabel(in ShellInput) string {
	s := in.Command
	if s == "" {
		s = strings.Join(in.Argv, " ")
	}
	s, _, _ = strings.Cut(s, "\n")
	if utf8.RuneCountInString(s) > 60 {
		s = string([]rune(s)[:57]) + "..."
	}
	return s
}

// runShell runs argv in dir and answers its exit code and output. The
// command leads a process group of its own: at the timeout (or where ctx
// ends) the whole group is killed, and so is whatever the command left
// running when it ends.
func runShell(ctx context.Context, dir string, argv []string, timeout time.Duration) (ShellAnswer, error) {
	r, wr, err := os.Pipe()
	if err != nil {
		return ShellAnswer{}, fmt.Errorf("shell: make the output pipe: %w", err)
	}
	defer r.Close()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = dir, safeEnv()
	cmd.Stdout, cmd.Stderr = wr, wr // one pipe: the two as they came
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = cmd.Start()
	wr.Close() // the command's copy stays open in it
	if err != nil {
		return ShellAnswer{}, diag.Errorf(diag.T9102, "bad input: cannot start %s: %v", argv[0], err).With("field", "argv")
	}
	pgid := cmd.Process.Pid
	output := make(chan shellOutput, 1)
	go func() { output <- readCut(r, MaxShellOutput) }()

	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var a ShellAnswer
	select {
	case <-exited:
	case <-timer.C:
		a.TimedOut = true
		syscall.Kill(-pgid, syscall.SIGKILL)
		<-exited
	case <-ctx.Done(): // the caller sees ctx's end; the changes are still judged
		syscall.Kill(-pgid, syscall.SIGKILL)
		<-exited
	}
	// What the command left running (a child in the background) goes with it.
	syscall.Kill(-pgid, syscall.SIGKILL)
	var out shellOutput
	select {
	case out = <-output:
	case <-time.After(shellDrain):
		// A process that left the group still holds the pipe: stop reading.
		r.Close()
		out = <-output
	}
	a.ExitCode = cmd.ProcessState.ExitCode()
	a.Output, a.Cut = out.text, out.cut
	return a, nil
}

// shellOutput is what readCut read.
type shellOutput struct {
	text string
	cut  bool
}

// readCut reads r to its end, keeping the first limit bytes (ending on a
// whole UTF-8 character) and dropping the rest, so that the writer never
// waits on a full pipe.
func readCut(r io.Reader, limit int) shellOutput {
	kept := make([]byte, 0, 4096)
	buf := make([]byte, 32<<10)
	cut := false
	for {
		n, err := r.Read(buf)
		if n > 0 {
			room := limit - len(kept)
			if n > room {
				cut = true
				n = max(room, 0)
			}
			kept = append(kept, buf[:n]...)
		}
		if err != nil {
			break
		}
	}
	if cut {
		for i := 0; i < utf8.UTFMax && len(kept) > 0; i++ {
			if r, size := utf8.DecodeLastRune(kept); r != utf8.RuneError || size != 1 {
				break
			}
			kept = kept[:len(kept)-1]
		}
	}
	return shellOutput{text: string(kept), cut: cut}
}

// safeEnv is the host's environment cut to shellEnv, with a PATH always.
func safeEnv() []string {
	env := []string{}
	for _, name := range shellEnv {
		if v, ok := os.LookupEnv(name); ok {
			env = append(env, name+"="+v)
		} else if name == "PATH" {
			env = append(env, "PATH=/usr/local/bin:/usr/bin:/bin")
		}
	}
	return env
}
