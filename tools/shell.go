package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/history"
	"github.com/tent-tools/tent-tools/internal/projectfiles"
	"github.com/tent-tools/tent-tools/internal/sandbox"
	"github.com/tent-tools/tent-tools/internal/words"
	"github.com/tent-tools/tent-tools/internal/workspace"
	"github.com/tent-tools/tent-tools/policy"
)

// This file is the shell tool (docs/pages/shell.md): a command run in the
// project folder where the policy's also names shell, in a sandbox
// confined to the folder (internal/sandbox). What it changes is found by
// the stat walk that finds changes made outside the tools, judged by the
// policy after the fact, and recorded as one point of the kind shell, or
// put back from the history where the policy refuses it.

// ShellInput is the input of shell: a command for sh -c, or the words of
// one (exactly one of the two), the folder it runs in and how long it may
// run.
type ShellInput struct {
	Command string   `json:"command,omitempty"`
	Argv    []string `json:"argv,omitempty"`
	// Cwd is the folder the command runs in: a project path ("" or "."
	// is the project's root), held by the path rules.
	Cwd string `json:"cwd,omitempty"`
	// Timeout is in seconds: 0 means DefaultShellTimeout, at most
	// MaxShellTimeout.
	Timeout int `json:"timeout,omitempty"`
}

// ShellAnswer is the data answer of shell: the command's exit code (-1
// where its time ran out), its output (stdout and stderr by whole lines
// as they came, without terminal escape codes; past MaxShellOutput its
// two ends and the first and last error lines between), how much was cut,
// whether it ran out of time, whether it ran in the sandbox, the files it
// changed and the point of the kind shell that records them.
type ShellAnswer struct {
	ExitCode int      `json:"exitCode"`
	Output   string   `json:"output"`
	Cut      bool     `json:"cut"`
	CutLines int      `json:"cutLines"`
	CutBytes int      `json:"cutBytes"`
	TimedOut bool     `json:"timedOut"`
	Confined bool     `json:"confined"`
	Files    []string `json:"files"`
	Point    *int     `json:"point"`
}

// The bounds of shell.
const (
	DefaultShellTimeout = 30          // seconds
	MaxShellTimeout     = 600         // seconds
	MaxShellOutput      = 64 << 10    // bytes of output kept, about
	shellDrain          = time.Second // how long the output may stay open after the command is killed
)

// shellEnv is the environment a command keeps; everything else (tokens,
// keys, the host's settings) is left out. In the sandbox HOME and TMPDIR
// are its own /tmp.
var shellEnv = []string{"PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TERM", "TMPDIR", "TZ", "USER", "LOGNAME"}

func init() {
	register(Tool{
		Name:     "shell",
		Summary:  "Runs a command in the project folder, in a sandbox confined to it, where the policy's also names shell; the files it changes are judged by the policy and recorded as a point of the kind shell",
		Writes:   true,
		NewInput: func() any { return new(ShellInput) },
		Answer:   ShellAnswer{},
		Run: func(ctx context.Context, w *Workspace, in any) (Answer, error) {
			return w.shell(ctx, *in.(*ShellInput))
		},
	})
}

// shell runs a command in the project folder (or the folder cwd names)
// with no stdin and a stripped environment, in a sandbox that lets it
// write the project's files alone and ends every process it started when
// it ends or its time runs out. Where no sandbox can be had it is refused
// (T9145), unless the workspace's options accept an unconfined shell. The
// files it changed are judged by the policy: a refused change is put back
// from the history's contents and answered as the refusal (T9105, or
// T3103 where the person said no), with what was put back; a change the
// policy lets is recorded as one point of the kind shell.
func (w *Workspace) shell(ctx context.Context, in ShellInput) (Answer, error) {
	pol := w.Options().Policy
	if !pol.Lets(policy.AlsoShell) {
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
	dir, err := shellDir(view, in.Cwd)
	if err != nil {
		return Answer{}, err
	}
	// The command may change any file: what the policy refuses is put back
	// from the history, which must hold every file's content first.
	hs, err := view.HistoryStore(ctx)
	if err != nil {
		return Answer{}, err
	}
	if err := view.KeepUnkept(ctx, hs); err != nil {
		return Answer{}, err
	}
	spec := sandbox.Spec{Root: view.Root(), Dir: dir, ReadOnly: shellReadOnly(pol), Argv: argv, Env: safeEnv(),
		NoNetwork: pol.Denies(policy.DenyShellNetwork)}
	a, err := runShell(ctx, spec, view.Options().UnconfinedShell, timeout)
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
		fmt.Fprintf(&b, "(output cut: %s, %s, from the middle)\n", words.Count(a.CutLines, "line"), words.Bytes(int64(a.CutBytes)))
	}
	switch {
	case a.TimedOut:
		fmt.Fprintf(&b, "ran out of time after %s: every process of the command was killed\n", timeout)
	case a.ExitCode != 0:
		fmt.Fprintf(&b, "exit code %d\n", a.ExitCode)
	}
	if !a.Confined {
		b.WriteString("(ran unconfined: no sandbox here, and the operator accepted that)\n")
	}
	if len(a.Files) > 0 {
		fmt.Fprintf(&b, "changed %s\n", strings.Join(a.Files, ", "))
	}
	writePoint(&b, point)
	return Answer{Text: b.String(), Data: a}, nil
}

// shellDir resolves cwd by the path rules (T9105 for .tent/, .git/, a
// path out of the project) to the folder the command runs in.
func shellDir(w *workspace.Workspace, cwd string) (string, error) {
	if cwd == "" {
		cwd = "."
	}
	rel, err := w.Resolve(cwd, false)
	if err != nil {
		return "", err
	}
	info, err := w.FS().Stat(rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", diag.Errorf(diag.T9103, "no folder %s: cwd names a folder of the project", rel).With("field", "cwd").With("path", rel)
	case err != nil:
		return "", fmt.Errorf("shell: cwd %s: %w", rel, err)
	case !info.IsDir():
		return "", diag.Errorf(diag.T9102, "bad input: cwd %s is a file; give a folder of the project", rel).With("field", "cwd").With("path", rel)
	}
	return filepath.Join(w.Root(), filepath.FromSlash(rel)), nil
}

// shellReadOnly are the project paths a command may read but not write:
// the framework's state (.tent/), the version history (.git/, whose hooks
// run code), the framework's files, and engine.ts unless the policy's
// also names engine.
func shellReadOnly(pol *Policy) []sandbox.Path {
	ro := []sandbox.Path{{Rel: ".tent", Dir: true}, {Rel: ".git", Dir: true}}
	for _, f := range projectfiles.FrameworkFiles() {
		ro = append(ro, sandbox.Path{Rel: f})
	}
	if !pol.Lets(policy.AlsoEngine) {
		ro = append(ro, sandbox.Path{Rel: "engine.ts"})
	}
	return ro
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

// runShell runs spec's command in the sandbox (or, where none can be had
// and unconfined is set, without one) and answers its exit code and
// output. At the timeout (or where ctx ends) every process of the command
// is killed, and so is whatever it left running when it ends.
func runShell(ctx context.Context, spec sandbox.Spec, unconfined bool, timeout time.Duration) (ShellAnswer, error) {
	if err := findProgram(spec); err != nil {
		return ShellAnswer{}, err
	}
	sb, err := sandbox.Command(spec)
	switch {
	case errors.Is(err, sandbox.ErrLinked):
		return ShellAnswer{}, diag.Errorf(diag.T9105, "refused: %v; nothing was run", err)
	case errors.Is(err, sandbox.ErrUnavailable):
		return runUnconfined(ctx, spec, unconfined, timeout, err, "")
	case err != nil:
		return ShellAnswer{}, fmt.Errorf("shell: %w", err)
	}
	a, err := runIn(ctx, sb, timeout)
	if errors.Is(err, sandbox.ErrUnavailable) {
		// bwrap is there but could not make the namespaces: nothing ran.
		return runUnconfined(ctx, spec, unconfined, timeout, err, a.Output)
	}
	a.Confined = true
	return a, err
}

// runUnconfined runs spec's command without a sandbox where the operator
// accepted that (unconfined), else refuses it with T9145 and why (the
// sandbox's error, what bwrap said).
func runUnconfined(ctx context.Context, spec sandbox.Spec, unconfined bool, timeout time.Duration, why error, said string) (ShellAnswer, error) {
	if said = strings.TrimSpace(said); said != "" {
		why = fmt.Errorf("%w (%s)", why, said)
	}
	switch {
	case !unconfined:
		return ShellAnswer{}, diag.Errorf(diag.T9145, "refused: shell runs commands only in a sandbox confined to the project, and %v; nothing was run. "+
			"Install bubblewrap (Debian: apt-get install bubblewrap) where user namespaces are allowed, or let the operator start tent-tools with --unconfined-shell (docs: shell)", why)
	case spec.NoNetwork:
		return ShellAnswer{}, diag.Errorf(diag.T9145, "refused: the policy's deny names %q, which only the sandbox can keep, and %v; nothing was run", policy.DenyShellNetwork, why)
	}
	return runIn(ctx, sandbox.Unconfined(spec), timeout)
}

// findProgram refuses (T9102) a program that is not there: a name is
// looked for on the command's PATH, a path from its folder.
func findProgram(spec sandbox.Spec) error {
	prog := spec.Argv[0]
	runnable := func(p string) bool {
		info, err := os.Stat(p)
		return err == nil && !info.IsDir() && info.Mode()&0o111 != 0
	}
	if strings.Contains(prog, "/") {
		if !filepath.IsAbs(prog) {
			prog = filepath.Join(spec.Dir, prog)
		}
		if runnable(prog) {
			return nil
		}
	} else {
		for _, kv := range spec.Env {
			if path, ok := strings.CutPrefix(kv, "PATH="); ok {
				for _, d := range filepath.SplitList(path) {
					if d != "" && runnable(filepath.Join(d, prog)) {
						return nil
					}
				}
			}
		}
	}
	return diag.Errorf(diag.T9102, "bad input: cannot start %s: no such program", spec.Argv[0]).With("field", "argv")
}

// runIn runs the made command, its output read by whole lines from both
// streams, and kills its process group at the timeout or ctx's end (in
// the sandbox that ends every process of the command) and when it ends.
// An error wraps sandbox.ErrUnavailable where the sandbox never came up.
func runIn(ctx context.Context, sb *sandbox.Sandboxed, timeout time.Duration) (ShellAnswer, error) {
	outR, outW, err := os.Pipe()
	if err != nil {
		return ShellAnswer{}, fmt.Errorf("shell: make the output pipe: %w", err)
	}
	defer outR.Close()
	errR, errW, err := os.Pipe()
	if err != nil {
		outW.Close()
		return ShellAnswer{}, fmt.Errorf("shell: make the output pipe: %w", err)
	}
	defer errR.Close()
	sb.Cmd.Stdout, sb.Cmd.Stderr = outW, errW
	err = sb.Start()
	outW.Close() // the command's copies stay open in it
	errW.Close()
	if err != nil {
		sb.Close()
		return ShellAnswer{}, diag.Errorf(diag.T9102, "bad input: cannot start %s: %v", sb.Cmd.Path, err).With("field", "argv")
	}
	out := &shellOutput{}
	var readers sync.WaitGroup
	readers.Go(func() { out.read(outR) })
	readers.Go(func() { out.read(errR) })
	read := make(chan struct{})
	go func() { readers.Wait(); close(read) }()

	pgid := sb.Cmd.Process.Pid
	exited := make(chan error, 1)
	go func() { exited <- sb.Cmd.Wait() }()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var a ShellAnswer
	killed := false
	select {
	case <-exited:
	case <-timer.C:
		a.TimedOut, killed = true, true
		syscall.Kill(-pgid, syscall.SIGKILL)
		<-exited
	case <-ctx.Done(): // the caller sees ctx's end; the changes are still judged
		killed = true
		syscall.Kill(-pgid, syscall.SIGKILL)
		<-exited
	}
	// What the command left running (a child in the background) goes with it.
	syscall.Kill(-pgid, syscall.SIGKILL)
	select {
	case <-read:
	case <-time.After(shellDrain):
		// A process that left the group (unconfined) still holds a pipe:
		// stop reading.
		outR.Close()
		errR.Close()
		<-read
	}
	a.ExitCode = sb.Cmd.ProcessState.ExitCode()
	a.Output, a.CutLines, a.CutBytes = out.text()
	a.Cut = a.CutBytes > 0
	if err := sb.Close(); err != nil && !(killed && errors.Is(err, sandbox.ErrUnavailable)) {
		return a, err
	}
	return a, nil
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
