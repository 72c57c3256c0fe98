package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/tent-tools/tent-tools/tools"
)

// command is one tent-tools command. Each command's file calls register
// in init(); a command runs one tool (through env.call), so the CLI holds
// no rule that the tool lacks.
type command struct {
	name    string // as typed: "read"
	args    string // its positional arguments, for usage: "PATH"
	summary string // one line
	// setup defines the command's own flags on fs and returns the function
	// that runs the command with its positional arguments, once the flags
	// are parsed. Flag values live in setup's variables, not in globals.
	setup func(fs *flag.FlagSet) func(e *env, args []string) (tools.Answer, error)
}

// commands holds every command; filled by init functions only.
var commands = map[string]command{}

// register adds a command; it is called from init() in the command's file.
func register(c command) {
	if _, dup := commands[c.name]; dup {
		panic("tent-tools: command " + c.name + " registered twice")
	}
	commands[c.name] = c
}

// sortedCommands returns the commands sorted by name.
func sortedCommands() []command {
	var cs []command
	for _, c := range commands {
		cs = append(cs, c)
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].name < cs[j].name })
	return cs
}

// usageError is bad usage: exit status 2, with the usage of the command.
type usageError struct {
	msg string
	cmd string // the command whose usage to show, or "" for the overall one
}

func (u *usageError) Error() string { return u.msg }

// usagef makes a usage error for the command.
func usagef(cmd, format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...), cmd: cmd}
}

// globalFlags defines the flags every command takes on fs, bound to e, so
// they may stand before or after the command's name.
func (e *env) globalFlags(fs *flag.FlagSet) {
	fs.StringVar(&e.dir, "C", e.dir, "run on the project in `DIR`")
	fs.BoolVar(&e.json, "json", e.json, "print the data answer (JSON) instead of the text")
	fs.StringVar(&e.policyFile, "policy", e.policyFile, "the agent's policy, a JSON `FILE`")
	fs.StringVar(&e.caller, "caller", e.caller, "who acts, by `NAME` (default: the owner)")
	fs.BoolVar(&e.yes, "yes", e.yes, "answer yes where the person would be asked")
}

// newFlagSet makes a flag set that reports errors instead of exiting.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseCommand parses the flags before the command's name, and finds the
// command. It returns the arguments after the name.
func (e *env) parseCommand(args []string) (command, []string, error) {
	fs := newFlagSet("tent-tools")
	e.globalFlags(fs)
	if err := fs.Parse(args); err != nil {
		return command{}, nil, flagError("", err)
	}
	rest := fs.Args()
	if len(rest) == 0 {
		return command{}, nil, usagef("", "no command given")
	}
	c, ok := commands[rest[0]]
	if !ok {
		return command{}, nil, usagef("", "unknown command %q", rest[0])
	}
	return c, rest[1:], nil
}

// start parses the command's flags and arguments (in any order; "--" ends
// the flags) and runs it.
func (c command) start(e *env, args []string) (tools.Answer, error) {
	fs := newFlagSet(c.name)
	e.globalFlags(fs)
	runCmd := c.setup(fs)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return tools.Answer{}, flagError(c.name, err)
	}
	return runCmd(e, pos)
}

// parseInterleaved parses flags that may stand between the positional
// arguments, and returns the positional ones.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// flagError turns an error of package flag into a usage error.
func flagError(cmd string, err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return &helpRequest{cmd: cmd}
	}
	return usagef(cmd, "%v", err)
}

// helpRequest is -h or --help: the usage on stdout, exit status 0.
type helpRequest struct{ cmd string }

func (h *helpRequest) Error() string { return "help requested" }

// usage returns the overall usage, or the usage of one command.
func usage(cmd string) string {
	var b strings.Builder
	if c, ok := commands[cmd]; ok {
		fmt.Fprintf(&b, "usage: tent-tools %s", c.name)
		if c.args != "" {
			fmt.Fprintf(&b, " %s", c.args)
		}
		fs := newFlagSet(c.name)
		c.setup(fs)
		n := 0
		fs.VisitAll(func(*flag.Flag) { n++ })
		if n > 0 {
			b.WriteString(" [flags]")
		}
		fmt.Fprintf(&b, "\n\n%s\n", c.summary)
		if n > 0 {
			var flags bytes.Buffer
			fs.SetOutput(&flags)
			fs.PrintDefaults()
			fmt.Fprintf(&b, "\nflags:\n%s", flags.String())
		}
		b.WriteString("\nRun 'tent-tools help' for the flags every command takes.\n")
		return b.String()
	}
	b.WriteString("usage: tent-tools [-C DIR] [--json] [--policy FILE] [--caller NAME] [--yes] COMMAND [ARGS]\n\ncommands:\n")
	width := 0
	for _, c := range sortedCommands() {
		width = max(width, len(c.name))
	}
	for _, c := range sortedCommands() {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, c.name, c.summary)
	}
	b.WriteString("\nflags every command takes (before or after the command):\n")
	fs := newFlagSet("tent-tools")
	(&env{dir: "."}).globalFlags(fs)
	var flags bytes.Buffer
	fs.SetOutput(&flags)
	fs.PrintDefaults()
	b.WriteString(flags.String())
	b.WriteString("\nExit status: 0 done, 1 the tool answered an error (its code on stderr), 2 bad usage.\n" +
		"Run 'tent-tools help COMMAND' for a command's flags, 'tent-tools docs' for the docs.\n")
	return b.String()
}
