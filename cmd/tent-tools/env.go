package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/remote"
	"github.com/tent-tools/tent-tools/tools"
)

// env is one run of the command: its streams, the flags every command
// takes, and the workspace, opened when a command first needs it.
type env struct {
	ctx            context.Context
	stdin          io.Reader
	stdout, stderr io.Writer

	dir        string
	json       bool
	policyFile string
	caller     string
	yes        bool
	hostsFile  string
	// unconfinedShell is --unconfined-shell (tools.Options.UnconfinedShell).
	unconfinedShell bool
	// checksOnly says the command only checks (tools.Options.ChecksOnly).
	checksOnly bool

	ws  *tools.Workspace
	rws *remote.Workspace // the project of -C HOST:PATH
}

// workspace opens the project in -C DIR with the policy of --policy.
func (e *env) workspace() (*tools.Workspace, error) {
	if e.ws != nil {
		return e.ws, nil
	}
	opts, err := e.options()
	if err != nil {
		return nil, err
	}
	ws, err := tools.Open(e.dir, opts)
	if err != nil {
		return nil, usagef("", "-C: %v", err)
	}
	e.ws = ws
	return ws, nil
}

// options are a call's options as the flags say: the caller, the policy
// of --policy, the terminal's approver and progress.
func (e *env) options() (tools.Options, error) {
	caller := e.caller
	if caller == "" {
		caller = defaultCaller(e.dir)
	}
	progress, err := terminalProgress(e.stderr)
	if err != nil {
		return tools.Options{}, usagef("", "%v", err)
	}
	opts := tools.Options{Caller: caller, Approver: &terminalApprover{e: e}, Progress: progress, UnconfinedShell: e.unconfinedShell, ChecksOnly: e.checksOnly}
	if f, ok := e.stdout.(*os.File); ok && isTerminal(f) {
		opts.TextZone = time.Local // a person reads the times: in their own
	}
	if e.policyFile != "" {
		data, err := os.ReadFile(e.policyFile)
		if err != nil {
			return tools.Options{}, usagef("", "--policy: %v", err)
		}
		if opts.Policy, err = tools.ParsePolicy(data); err != nil {
			return tools.Options{}, usagef("", "--policy %s: %v", e.policyFile, err)
		}
	}
	return opts, nil
}

// call runs a tool with an input (marshalled to the JSON an agent would
// send), so that the CLI and every other face reach the same code.
func (e *env) call(tool string, input any) (tools.Answer, error) {
	raw, err := json.Marshal(input)
	if err != nil {
		return tools.Answer{}, fmt.Errorf("%s: %w", tool, err)
	}
	return e.callJSON(tool, raw)
}

// callJSON runs a tool with its input as JSON.
func (e *env) callJSON(tool string, input json.RawMessage) (tools.Answer, error) {
	if t, ok := e.remoteTarget(); ok {
		return e.callRemote(t, tool, input)
	}
	ws, err := e.workspace()
	if err != nil {
		return tools.Answer{}, err
	}
	return tools.Call(e.ctx, ws, tool, input)
}

func (e *env) close() {
	if e.ws != nil {
		e.ws.Close()
	}
	if e.rws != nil {
		e.rws.Close()
	}
}

// print prints an answer: its text, or with --json its data.
func (e *env) print(ans tools.Answer) int {
	if e.json {
		data, err := tools.JSON(ans.Data)
		if err != nil {
			return e.fail(fmt.Errorf("print the answer: %w", err))
		}
		e.stdout.Write(data)
		return 0
	}
	text := ans.Text
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	io.WriteString(e.stdout, text)
	return 0
}

// fail reports an error and returns the exit status it means: 2 for bad
// usage, 1 for an error a tool answered (its code and message on stderr,
// and with --json its data on stdout), 0 for a help request.
func (e *env) fail(err error) int {
	var help *helpRequest
	if errors.As(err, &help) {
		io.WriteString(e.stdout, usage(help.cmd))
		return 0
	}
	var ver *versionRequest
	if errors.As(err, &ver) {
		io.WriteString(e.stdout, printVersion())
		return 0
	}
	var u *usageError
	if errors.As(err, &u) {
		if u.cmd == "" {
			fmt.Fprintf(e.stderr, "tent-tools: %s\nRun 'tent-tools help' for usage.\n", u.msg)
		} else {
			fmt.Fprintf(e.stderr, "tent-tools: %s\n\n%s", u.msg, usage(u.cmd))
		}
		return 2
	}
	if e.json {
		if data, jerr := tools.JSON(tools.ErrorData(err)); jerr == nil {
			e.stdout.Write(data)
		}
	}
	var te *diag.ToolError
	if errors.As(err, &te) {
		fmt.Fprintf(e.stderr, "%s: %s\n", te.Code, te.Message)
	} else {
		fmt.Fprintf(e.stderr, "tent-tools: %v\n", err)
	}
	return 1
}

// terminalApprover asks the person on the terminal; with no terminal the
// answer is no, unless --yes (docs/pages/policy.md).
type terminalApprover struct{ e *env }

// Approve implements tools.Approver.
func (a *terminalApprover) Approve(ctx context.Context, question string) (bool, error) {
	if a.e.yes {
		return true, nil
	}
	f, ok := a.e.stdin.(*os.File)
	if !ok || !isTerminal(f) {
		// No terminal: no prompt that nobody reads, and an answer that
		// says nobody was asked.
		return false, &diag.Unasked{Why: "stdin is no terminal (a script, CI, a pipe), so nobody could answer",
			Instead: "run it on a terminal to be asked, or say yes with --yes"}
	}
	fmt.Fprintf(a.e.stderr, "%s [y/N] ", question)
	line, err := bufio.NewReader(f).ReadString('\n')
	if err != nil && line == "" {
		return false, nil
	}
	answer := strings.ToLower(strings.TrimSpace(line))
	return answer == "y" || answer == "yes", nil
}
