// Package remote reaches a project on another machine (docs/pages/remote.md):
// the engine runs where the files are, started through a transport (a
// command that runs its last argument, a shell line, on that machine, as
// `ssh -o BatchMode=yes HOST` does), and the near side forwards each call
// with its policy and caller and asks the person itself.
//
// The far side is Serve (`tent-tools serve-remote -C PATH`): one process
// per link, every call run through tools.Call on the one workspace it
// opened. The near side is Client: it starts the far side (copying its own
// binary there when that machine lacks the same build), holds at most two
// calls at once per host (Hosts), sends a read once more on a new link when
// the transport failed, never sends a write twice, and answers a write
// whose link dropped from the far side's history by the call's id.
//
// The two sides speak frames of JSON, one a line, over the transport's
// stdin and stdout (frames.go). The package imports tools, workspace's
// types through tools, history (through the workspace's store), diag,
// and check and internal/gitdiff for check --changed-since, whose git
// runs on the far side, where the repository is.
package remote

import (
	"encoding/json"

	"github.com/tent-tools/tent-tools/internal/gitdiff"
)

// protocolVersion is the frames' version; both sides are the same build
// (the near side starts its own binary there), so it only guards against a
// far side started by hand from another build.
const protocolVersion = 1

// hello is the far side's first frame: who it is, or why it cannot serve.
type hello struct {
	Protocol int        `json:"protocol"`
	Build    string     `json:"build"`   // the far binary's build (version or hash)
	Session  string     `json:"session"` // this process's session, held while it lives
	Error    *wireError `json:"error,omitempty"`
}

// request is one frame from the near side to the far side.
type request struct {
	ID string `json:"id"`
	// Op is "call" (run Tool with Input under Options), "outcome" (what
	// the call Of did, asked after its link dropped; Session names the
	// process that had it), "turn" (start a turn of Options' caller and
	// agent), "answer" (the person's answer Yes to the question Ask of a
	// call) or "changed" (what git there says changed since Ref, for
	// check --changed-since; Host is the far machine's name here, for its
	// errors).
	Op      string          `json:"op"`
	Tool    string          `json:"tool,omitempty"`
	Input   json.RawMessage `json:"input,omitempty"`
	Options *wireOptions    `json:"options,omitempty"`
	Of      string          `json:"of,omitempty"`
	Session string          `json:"session,omitempty"`
	Ask     string          `json:"ask,omitempty"`
	Yes     bool            `json:"yes,omitempty"`
	Ref     string          `json:"ref,omitempty"`
	Host    string          `json:"host,omitempty"`
}

// wireOptions are the options of a call that stay on the near side and
// travel with each call: the agent's policy, who acts, for which agent,
// in which turn, whether a person may be asked, and whether the answer
// keeps its lists within their budgets (an agent's face, MCP).
type wireOptions struct {
	Policy json.RawMessage `json:"policy,omitempty"`
	Caller string          `json:"caller,omitempty"`
	Agent  string          `json:"agent,omitempty"`
	Turn   int             `json:"turn,omitempty"`
	// Asks says the near side has an approver: where it has none, the
	// far side answers no without asking, as locally.
	Asks bool `json:"asks,omitempty"`
	// Bounded is tools.Options.Bounded: the far side cuts the answer's
	// lists where the near side's face would, so an agent's answer
	// crosses the link already within its budgets.
	Bounded bool `json:"bounded,omitempty"`
}

// reply is one frame from the far side: a call's answer or error, an
// outcome, or a question for the person (Ask set).
type reply struct {
	ID    string          `json:"id"`
	Text  *string         `json:"text,omitempty"`
	Data  json.RawMessage `json:"data,omitempty"`
	Error *wireError      `json:"error,omitempty"`
	// Ask is a question's id within the call ID, Question its words.
	Ask      string `json:"ask,omitempty"`
	Question string `json:"question,omitempty"`
	// Outcome answers an "outcome" request, Turn a "turn" request,
	// Changes a "changed" request.
	Outcome *outcome         `json:"outcome,omitempty"`
	Turn    int              `json:"turn,omitempty"`
	Changes *gitdiff.Changes `json:"changes,omitempty"`
}

// wireError is a tool's error as it travels: its code (none for an error
// of no code), message and facts, kept as the JSON they were.
type wireError struct {
	Code    string                     `json:"code,omitempty"`
	Message string                     `json:"message"`
	Data    map[string]json.RawMessage `json:"data,omitempty"`
}

// outcome is what the far side's history says of a writing call whose
// link dropped: the point it made (done), or none.
type outcome struct {
	Point int  `json:"point"`
	Done  bool `json:"done"`
}
