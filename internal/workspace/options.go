package workspace

import (
	"context"
	"errors"
	"time"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/policy"
)

// Approver answers the person's yes or no for a write that the policy's ask
// names (docs/pages/policy.md). The CLI asks on the terminal; a host asks its user.
type Approver interface {
	Approve(ctx context.Context, question string) (bool, error)
}

// Options are what a workspace (or a view of it, With) is opened with: the
// agent's policy (nil: the default), who acts and for which agent, the turn
// its points belong to, and who answers for the person.
type Options struct {
	Policy *policy.Policy
	// Caller is who acts (a person, a user of the host), as points record it.
	Caller string
	// Agent is the agent the caller acts through, whose policy Policy is.
	Agent string
	// Turn is the turn of the agent that the points belong to (0: none).
	Turn int
	// Call is the id of the one call a view runs, recorded with the point
	// it makes (history's CallPoint), so that a face whose link dropped
	// can ask whether the call was done ("": no id; package remote).
	Call string
	// Approver answers for the person where the policy's ask names a
	// change; nil answers no.
	Approver Approver
	// Now is the clock points are recorded by; nil means time.Now.
	Now func() time.Time
	// Progress hears of long work as it goes (progress.go); nil hears
	// nothing. The test database is the folder's: its first build is
	// heard by the Progress of the workspace that first runs app code in
	// the folder.
	Progress Progress
	// TextZone is the time zone of the times in text answers (RFC 3339,
	// in seconds, with the zone's offset), such as time.Local for a
	// person at a terminal; nil means UTC. Data answers are always UTC.
	TextZone *time.Location
	// UnconfinedShell lets shell run a command without its sandbox where
	// none can be had (no bubblewrap, no user namespaces, macOS): the
	// operator's choice (--unconfined-shell), never an agent's. Such a
	// command can read and write whatever the host's user can, and a child
	// that leaves its process group outlives the call (docs: shell).
	UnconfinedShell bool
	// Bounded keeps every list of an answer within its budget (an
	// agent's face: MCP), each list beyond it cut with a count and how
	// to ask for the rest (diag.More); left off, answers are whole (the
	// CLI, a host's Go code).
	Bounded bool
	// LongLived says the process keeps the folder's index for long (the
	// language server, studio): the index is built to hold less memory
	// for a little more CPU (definitions.Options.ReadBack). A one-shot
	// command leaves it off.
	LongLived bool
	// ChecksOnly says the process checks the project and exits (the
	// CLI's check): a build leaves out each file's IdentRefs and code
	// words, which only rename, references and the map read, for them to
	// be read from the text where a later call asks for them after all
	// (definitions.Options.Lazy). Such a call's save keeps them.
	ChecksOnly bool
}

// Size limits of the files the workspace reads and writes.
const (
	// MaxText is the most a tool reads whole or writes: 1 MB.
	MaxText = 1 << 20
	// MaxFile is the largest file read at all (read by lines, edit, search).
	MaxFile = 64 << 20
)

// errTooLarge stands for "too large" where only that is needed.
var errTooLarge = errors.New("too large")

// isCode reports whether err is a tool error with the code.
func isCode(err error, code string) bool {
	var te *diag.ToolError
	return errors.As(err, &te) && te.Code == code
}
