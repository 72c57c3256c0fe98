package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/tent-tools/tent-tools/internal/spelling"
	"github.com/tent-tools/tent-tools/tools"
)

// command is one tent-tools command. Each command's file calls register
// in init(); a command runs one tool (through env.call), so the CLI holds
// no rule that the tool lacks.
type command struct {
	name    string // as typed: "read"
	args    string // its positional arguments, for usage: "PATH" (where its flags go, "[flags]" says, else after them)
	summary string // one line
	// setup defines the command's own flags on fs and returns the function
	// that runs the command with its positional arguments, once the flags
	// are parsed. Flag values live in setup's variables, not in globals.
	setup func(fs *flag.FlagSet) func(e *env, args []string) (tools.Answer, error)
	// server says the command is a server that run starts before the
	// flags every command takes are parsed (lsp), so it takes none of them.
	server bool
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
	fs.StringVar(&e.dir, "C", e.dir, "run on the project in `DIR` (HOST:PATH: on another machine, docs: remote)")
	fs.StringVar(&e.hostsFile, "hosts", e.hostsFile, "the hosts `FILE` of -C HOST:PATH (default ~/.config/tent-tools/hosts.json)")
	fs.BoolVar(&e.json, "json", e.json, "print the data answer (JSON) instead of the text")
	fs.StringVar(&e.policyFile, "policy", e.policyFile, "the agent's policy, a JSON `FILE`")
	fs.StringVar(&e.caller, "caller", e.caller, "who acts, by `NAME` (default: the owner)")
	fs.BoolVar(&e.yes, "yes", e.yes, "answer yes where the person would be asked")
	fs.BoolVar(&e.unconfinedShell, "unconfined-shell", e.unconfinedShell, unconfinedShellHelp)
}

// unconfinedShellHelp is the help of --unconfined-shell, which the CLI, mcp
// and lsp take.
const unconfinedShellHelp = "where no sandbox can be had (no bubblewrap, no user namespaces, macOS), let shell run commands unconfined, as this user, able to read and write what it can (docs: shell)"

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
	showVersion := versionFlag(fs)
	if err := fs.Parse(args); err != nil {
		return command{}, nil, flagError("", fs, err)
	}
	rest := fs.Args()
	if *showVersion {
		return command{}, nil, &versionRequest{}
	}
	if len(args) == 0 {
		// Plain tent-tools: the usage, as help prints it.
		return command{}, nil, &helpRequest{}
	}
	if len(rest) == 0 {
		return command{}, nil, usagef("", "no command given")
	}
	c, ok := lookupCommand(rest[0])
	if !ok {
		return command{}, nil, unknownCommand(rest[0])
	}
	return c, rest[1:], nil
}

// versionFlag defines --version, which only the command line before a
// command takes.
func versionFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("version", false, "print the version (from the build: module version, commit) and exit")
}

// versionRequest is --version: the version on stdout, exit status 0.
type versionRequest struct{}

func (*versionRequest) Error() string { return "version requested" }

// unknownCommand is the usage error for a name no command has, with the
// command (or the tool's spelling of one) it is most likely a typo of.
func unknownCommand(name string) error {
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	for _, t := range tools.All() {
		names = append(names, t.Name)
	}
	if near := spelling.Nearest(name, names); near != "" {
		if c, ok := lookupCommand(near); ok {
			near = c.name
		}
		return usagef("", "unknown command %q; did you mean %q?", name, near)
	}
	return usagef("", "unknown command %q", name)
}

// lookupCommand finds a command by its name, also as the tools spell it
// (changedBy for changed-by).
func lookupCommand(name string) (command, bool) {
	if c, ok := commands[name]; ok {
		return c, true
	}
	c, ok := commands[commandName(name)]
	return c, ok
}

// commandName spells a tool's name (changedBy) as the command line names
// its commands (changed-by).
func commandName(tool string) string {
	var b strings.Builder
	for i, r := range tool {
		if unicode.IsUpper(r) && i > 0 {
			b.WriteByte('-')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// spellings lists the commands whose tool is spelled otherwise (changed-by,
// changedBy), as help shows them: either spelling is accepted, by the
// command line and by call.
func spellings() string {
	var b strings.Builder
	for _, t := range tools.All() {
		name := commandName(t.Name)
		if _, ok := commands[name]; ok && name != t.Name {
			fmt.Fprintf(&b, "  %-12s  %s\n", name, t.Name)
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return "\ncommands and the tools of their name as an agent calls them (tent-tools call TOOL)\n" +
		"are spelled alike but for these; either spelling is accepted by both:\n" +
		"  command       tool\n" + b.String()
}

// start parses the command's flags and arguments (in any order; "--" ends
// the flags) and runs it.
func (c command) start(e *env, args []string) (tools.Answer, error) {
	fs := newFlagSet(c.name)
	e.globalFlags(fs)
	runCmd := c.setup(fs)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return tools.Answer{}, flagError(c.name, fs, err)
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

// flagError turns an error of package flag into a usage error; a flag fs
// lacks is told with the one of fs it is most likely a typo of.
func flagError(cmd string, fs *flag.FlagSet, err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return &helpRequest{cmd: cmd}
	}
	if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: "); ok {
		name = strings.TrimLeft(name, "-")
		var names []string
		fs.VisitAll(func(f *flag.Flag) {
			if len(f.Name) > 1 { // -C is no likely typo of a one-letter flag
				names = append(names, f.Name)
			}
		})
		if near := spelling.Nearest(name, names); near != "" && len(name) > 1 {
			return usagef(cmd, "unknown flag --%s; did you mean --%s?", name, near)
		}
		return usagef(cmd, "unknown flag --%s", name)
	}
	// package flag names a flag with one dash (-path); the command line
	// and its help spell a long one with two.
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return usagef(cmd, "%s needs a value", flagSpelling(name))
	}
	for _, of := range []string{" for flag -", " for -"} {
		if i := strings.LastIndex(msg, of); i >= 0 {
			if name, rest, ok := strings.Cut(msg[i+len(of):], ":"); ok {
				msg = msg[:i] + " for " + flagSpelling(name) + ":" + rest
				break
			}
		}
	}
	return usagef(cmd, "%s", msg)
}

// flagSpelling is a flag as the help spells it: -C, --path.
func flagSpelling(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// helpRequest is -h or --help: the usage on stdout, exit status 0.
type helpRequest struct{ cmd string }

func (h *helpRequest) Error() string { return "help requested" }

// usage returns the overall usage, or the usage of one command.
func usage(cmd string) string {
	var b strings.Builder
	if c, ok := lookupCommand(cmd); ok {
		fmt.Fprintf(&b, "usage: tent-tools %s", c.name)
		if c.args != "" {
			fmt.Fprintf(&b, " %s", c.args)
		}
		fs := newFlagSet(c.name)
		c.setup(fs)
		n := 0
		fs.VisitAll(func(*flag.Flag) { n++ })
		if n > 0 && !strings.Contains(c.args, "[flags]") {
			b.WriteString(" [flags]")
		}
		fmt.Fprintf(&b, "\n\n%s\n", c.summary)
		if facts := toolFacts(c.name); facts != "" {
			fmt.Fprintf(&b, "\n%s\n", facts)
		}
		if n > 0 {
			fmt.Fprintf(&b, "\nflags:\n%s", flagHelp(fs))
		}
		if !c.server {
			b.WriteString("\nRun 'tent-tools help' for the flags every command takes.\n")
		}
		return b.String()
	}
	b.WriteString("usage: tent-tools [-C DIR] [--hosts FILE] [--json] [--policy FILE] [--caller NAME] [--yes] COMMAND [ARGS]\n\ncommands:\n")
	width := 0
	for _, c := range sortedCommands() {
		width = max(width, len(c.name))
	}
	for _, c := range sortedCommands() {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, c.name, c.summary)
	}
	b.WriteString(spellings())
	b.WriteString("\nflags every command takes (before or after the command):\n")
	fs := newFlagSet("tent-tools")
	(&env{dir: "."}).globalFlags(fs)
	b.WriteString(flagHelp(fs))
	b.WriteString("\nbefore the command only:\n")
	top := newFlagSet("tent-tools")
	versionFlag(top)
	b.WriteString(flagHelp(top))
	b.WriteString("\nExit status: 0 done, 1 the tool answered an error (its code on stderr), 2 bad usage.\n" +
		"Run 'tent-tools help COMMAND' for a command's flags, 'tent-tools docs' for the docs.\n")
	return b.String()
}

// flagHelp lists a flag set's flags as the README writes them: --name for
// a long flag, -C for a one-letter one, each with its value's name, its
// help, and its default where that is not the zero value.
func flagHelp(fs *flag.FlagSet) string {
	var b strings.Builder
	fs.VisitAll(func(f *flag.Flag) {
		dashes := "--"
		if len(f.Name) == 1 {
			dashes = "-"
		}
		valueName, help := flag.UnquoteUsage(f)
		fmt.Fprintf(&b, "  %s%s", dashes, f.Name)
		if valueName != "" {
			fmt.Fprintf(&b, " %s", valueName)
		}
		fmt.Fprintf(&b, "\n    \t%s", strings.ReplaceAll(help, "\n", "\n    \t"))
		if def := f.DefValue; def != "" && def != "false" && def != "0" {
			if fmt.Sprintf("%T", f.Value) == "*flag.stringValue" {
				def = strconv.Quote(def)
			}
			fmt.Fprintf(&b, " (default %s)", def)
		}
		b.WriteString("\n")
	})
	return b.String()
}

// givenInt is the value of the int flag name of fs where the command line
// gave it, nil where it did not: a tool's input tells a number left out
// (its default) from one given.
func givenInt(fs *flag.FlagSet, name string, v *int) *int {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	if !given {
		return nil
	}
	return v
}

// toolFacts says what the tool behind a command does to the workspace and
// the world, read from the tool's registration: the same facts MCP gives an
// agent as its annotations, so no face keeps its own list. A command that
// is no tool (help, lsp, mcp) has none.
func toolFacts(name string) string {
	t, ok := tools.Lookup(name)
	if !ok {
		return ""
	}
	var says []string
	switch {
	case t.ReadOnly:
		says = append(says, "changes nothing")
	case t.WritesWith != nil:
		// It writes only where its input asks (check's --fix).
		says = append(says, "changes nothing but where a flag below asks it to write; then it changes the workspace and may be destructive: it may take away a file, a definition, a text or rows")
	case t.Additive:
		says = append(says, "changes the workspace, not destructively (what MCP calls destructiveHint: false)")
	default:
		says = append(says, "changes the workspace and may be destructive: it may take away a file, a definition, a text or rows")
	}
	if !t.ReadOnly && t.Idempotent {
		says = append(says, "the same call again changes nothing more")
	}
	if !t.Local {
		says = append(says, "may reach beyond the workspace (the network, programs of the machine)")
	}
	return "It " + strings.Join(says, "; ") + "."
}
