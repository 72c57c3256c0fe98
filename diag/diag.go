// Package diag holds the one type for findings of the check and the one type
// for tool errors, and the documented list of their stable codes
// (docs/pages/format.md §7). It imports nothing of the project's own.
package diag

import (
	"fmt"
	"sort"
)

// Severity says how bad a finding is.
type Severity string

// The severities of a finding, worst first.
const (
	Error   Severity = "error"
	Warning Severity = "warning"
	Info    Severity = "info"
)

// rank orders severities for sorting: errors first.
func (s Severity) rank() int {
	switch s {
	case Error:
		return 0
	case Warning:
		return 1
	}
	return 2
}

// Fix is a certain repair of a finding: replace the bytes [Start, End) of
// Path with Text.
type Fix struct {
	Title string `json:"title"`
	Path  string `json:"path"`
	Start int    `json:"start"`
	End   int    `json:"end"`
	Text  string `json:"text"`
}

// Finding is one thing the check (or the parser) found wrong with a project.
// Lines and columns are 1-based; columns count Unicode code points; End is
// exclusive. Start and End are byte offsets, for tools that edit.
type Finding struct {
	Code       string   `json:"code"`
	Severity   Severity `json:"severity"`
	Path       string   `json:"path"`
	Line       int      `json:"line"`
	Col        int      `json:"col"`
	EndLine    int      `json:"endLine"`
	EndCol     int      `json:"endCol"`
	Message    string   `json:"message"`
	Definition string   `json:"definition,omitempty"`
	Fix        *Fix     `json:"fix,omitempty"`
	Start      int      `json:"-"`
	End        int      `json:"-"`
}

// String renders a finding as path:line:col: code message, the way
// compilers print it.
func (f Finding) String() string {
	return fmt.Sprintf("%s:%d:%d: %s %s: %s", f.Path, f.Line, f.Col, f.Severity, f.Code, f.Message)
}

// Sort orders findings errors first, then by path, line, column and code.
func Sort(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := &fs[i], &fs[j] // not copies: a keystroke sorts every finding
		if a.Severity.rank() != b.Severity.rank() {
			return a.Severity.rank() < b.Severity.rank()
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return a.Code < b.Code
	})
}

// Unasked is the error an approver answers where it can ask nobody: Why
// says why (stdin is no terminal; the MCP client offers no elicitation),
// Instead what would let the person be asked, or say yes for them. The
// tool that wanted the yes answers T3103 saying so, never that the person
// said no.
type Unasked struct {
	Why     string // "stdin is no terminal (a script, CI)"
	Instead string // "run it on a terminal to be asked, or say yes with --yes"
}

func (u *Unasked) Error() string { return "nobody was asked: " + u.Why }

// ToolError is the error a tool answers, with its stable code. Data holds
// extra facts for the JSON answer (such as the count of matches for T9106).
type ToolError struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Data    map[string]any `json:"data,omitempty"`
}

// Error implements error as "T9106: message".
func (e *ToolError) Error() string { return e.Code + ": " + e.Message }

// Errorf makes a ToolError with a formatted message.
func Errorf(code, format string, args ...any) *ToolError {
	return &ToolError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// With returns e with one more data fact.
func (e *ToolError) With(key string, value any) *ToolError {
	if e.Data == nil {
		e.Data = map[string]any{}
	}
	e.Data[key] = value
	return e
}

// The codes. New codes are appended only; a code never changes its meaning.
const (
	// T1001: a TypeScript file has a syntax error.
	T1001 = "T1001"
	// T1002: a test data file is not valid JSON (or not an array of objects).
	T1002 = "T1002"
	// T1003: a project file is not UTF-8 text.
	T1003 = "T1003"
	// T1004: a project file is larger than the 1 MB a tool writes (the
	// message names its size); it is indexed without its contents.
	T1004 = "T1004"

	// T2001: two definitions share a name (tables, functions, flows and
	// screens share one namespace), or two columns of a table share one.
	T2001 = "T2001"
	// T2002: an unknown builder or column type.
	T2002 = "T2002"
	// T2003: ref('x') names no table.
	T2003 = "T2003"
	// T2004: an index names an unknown column.
	T2004 = "T2004"
	// T2005: a flow step names no function.
	T2005 = "T2005"
	// T2006: a name is both defined and in removed.
	T2006 = "T2006"
	// T2007: a was name is the name of another live column (or table).
	T2007 = "T2007"
	// T2008: two screens share a path.
	T2008 = "T2008"
	// T2009: project.ts is missing or bad, or engine.ts is bad.
	T2009 = "T2009"
	// T2010: a declarative position holds something that cannot be read
	// statically (a variable, a spread, a computed key).
	T2010 = "T2010"
	// T2011: the test database has a column or table that no definition
	// names, as name, was or removed.
	T2011 = "T2011"
	// T2012: a definition lacks a required field (a table its columns, a
	// fn its run, a flow its steps, a screen its path or view).
	T2012 = "T2012"
	// T2013: a column option that no column builder knows (optinal: true).
	T2013 = "T2013"
	// T2014: a table or column name that SQLite or tent-tools keep for
	// themselves (sqlite_*, _tent_*, in any case).
	T2014 = "T2014"

	// T2501: ctx.db.X where X is no table.
	T2501 = "T2501"
	// T2502: ctx.call('X') where X is no function.
	T2502 = "T2502"
	// T2503: a relative import that resolves to no file.
	T2503 = "T2503"
	// T2504: an unknown column key in an object literal passed to ctx.db.T.*.
	T2504 = "T2504"
	// T2505: sends declared but not used, or used but not declared.
	T2505 = "T2505"
	// T2506: code names a column on a value that is certainly a row of a
	// table, and the table has no such column.
	T2506 = "T2506"

	// T2601: a test data file names no table.
	T2601 = "T2601"
	// T2602: a test data row has an unknown column.
	T2602 = "T2602"
	// T2603: a test data value has the wrong type.
	T2603 = "T2603"
	// T2604: a test data row lacks a required column.
	T2604 = "T2604"
	// T2605: two test data rows of a table share an id.
	T2605 = "T2605"
	// T2606: a ref value names no row of the target table.
	T2606 = "T2606"

	// T3101: the caller is not let into the workspace.
	T3101 = "T3101"
	// T3102: run as system refused by the policy.
	T3102 = "T3102"
	// T3103: the person did not let it happen: they said no, or nobody
	// could be asked (Unasked says why).
	T3103 = "T3103"
	// T3104: the function's may rule refused the caller.
	T3104 = "T3104"

	// T4001: unknown function or flow.
	T4001 = "T4001"
	// T4002: bad input for a run.
	T4002 = "T4002"
	// T4003: the app's code threw.
	T4003 = "T4003"
	// T4004: the run passed its time limit.
	T4004 = "T4004"
	// T4005: the run passed its memory limit.
	T4005 = "T4005"
	// T4006: the test database cannot be read, so its drift (T2011) was
	// not checked (a check finding).
	T4006 = "T4006"
	// T4010: shot found no browser to take the picture (none installed, or
	// it would not start).
	T4010 = "T4010"
	// T4011: a screen's view returned nothing a page can show.
	T4011 = "T4011"
	// T4012: a screen shows what shot refuses: an image that is not a
	// project file nor a data URL of an image, or an element that would load
	// something from outside the page (iframe, script, ...).
	T4012 = "T4012"
	// T4013: the app's code ended the worker process that ran it (a stack
	// overflow or another fatal error of the runtime, a signal); the data
	// say the signal and the line the worker last wrote of its end.
	T4013 = "T4013"

	// T9101: unknown tool.
	T9101 = "T9101"
	// T9102: bad tool input.
	T9102 = "T9102"
	// T9103: not found (a file, a definition, a column, a key).
	T9103 = "T9103"
	// T9104: too large.
	T9104 = "T9104"
	// T9105: path refused: outside the workspace, a framework file, or the policy.
	T9105 = "T9105"
	// T9106: edit's find does not stand exactly once.
	T9106 = "T9106"
	// T9107: a name is taken, reserved, or not an identifier.
	T9107 = "T9107"
	// T9108: unknown docs topic.
	T9108 = "T9108"
	// T9109: unknown point.
	T9109 = "T9109"
	// T9110: the project folder or its .tent/ may not be written (read-only,
	// no permission).
	T9110 = "T9110"
	// T9111: a change cut short cannot be finished safely; nothing was written.
	T9111 = "T9111"
	// T9112: the framework's state in .tent/ is damaged (a corrupt database,
	// kept aside; something in .tent/tmp/ that the journal did not write).
	T9112 = "T9112"
	// T9113: a database in .tent/ was made by a newer release.
	T9113 = "T9113"
	// T9114: an internal error of the tools (a bug, to report).
	T9114 = "T9114"

	// T9120: a write refused because an editor holds unsaved changes of a file it touches.
	T9120 = "T9120"
	// T9121: the language server's workspace folder refused (none, a second one, not a folder).
	T9121 = "T9121"
	// T9122: nothing the language server can act on at that position (not a definition or column name, a framework file).
	T9122 = "T9122"
	// T9123: a listening server's bound is reached: its connections, a
	// connection's open documents, a token's sessions (lsp --listen, mcp).
	T9123 = "T9123"
	// T9124: a listening server's address refused: not the loopback without
	// --public (and TLS), not HOST:PORT, or its port taken (studio --listen).
	T9124 = "T9124"

	// T9125: an agent the host handle (package host) has no policy for.
	T9125 = "T9125"

	// T9126: a fix no longer applies: the text at its place is not the
	// text it expects, or the check no longer offers it there.
	T9126 = "T9126"

	// T9135: check --changed-since: git cannot say what changed since the
	// ref (no git, not a git repository, an unknown ref), here or, for a
	// project of another machine, on that host (named as host).
	T9135 = "T9135"
	// T9136: check --baseline, --write-baseline: the file cannot be read
	// or written, or is no baseline of the check.
	T9136 = "T9136"

	// T9140: undo cannot go back past a point: the history does not hold
	// a file's earlier content (too large to keep, or changed outside the
	// tools before any tool read it).
	T9140 = "T9140"

	// T9145: shell cannot run its command confined to the project (no
	// bubblewrap, no user namespaces, a platform without namespaces), and
	// the operator did not accept an unconfined shell; nothing was run.
	T9145 = "T9145"
	// T9160: the transport to a remote host failed (it cannot start, the
	// host cannot be reached or resolved, the link dropped twice for a read).
	T9160 = "T9160"
	// T9161: a writing call's link dropped before its answer, and the far
	// side's history records no point of it: not done, never sent twice.
	T9161 = "T9161"
	// T9162: tent-tools cannot run on the remote host (another OS or
	// architecture, a copy that cannot start there, a folder that is no
	// project there); the message says how to install it.
	T9162 = "T9162"
	// T9163: the hosts file cannot be read or is no JSON object of hosts
	// and their transports.
	T9163 = "T9163"
	// T9164: a writing call's link dropped before its answer, and the far
	// side cannot be asked yet whether it was done.
	T9164 = "T9164"
)
