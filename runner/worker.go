package runner

import (
	"encoding/gob"
	"time"

	"github.com/tent-tools/tent-tools/diag"
)

// App code runs in a worker process (docs/pages/run.md, "Isolation").
//
// A guard inside the process can refuse what it knows (guard.js), but a Go
// runtime does not survive a stack overflow in a parser or one allocation
// of 8 GB: those end the process. So everything that parses, bundles or
// runs app code — esbuild, goja, JSON of app values — runs in a worker: the
// same binary started again (worker_serve.go), under the operating
// system's limits set before it reads any app code (worker_limits_*.go),
// talking to the host over its standard input and output. The host
// (worker_host.go) keeps a small pool of warm workers per Runner, serves
// what a worker asks for during a call (a project file's text, the
// person's yes or no, an HTTP request: a worker reaches nothing of the host
// but its pipe and the .tent folder it is handed), enforces the run's
// wall-clock deadline by killing it, and turns a worker's death into that
// one call's coded error. The run's database writes are one SQLite
// transaction in the worker: a worker killed mid-run leaves nothing, since
// SQLite rolls back what was never committed.
//
// The messages are gob-encoded `message`s, one field set in each: Config
// (host → worker, first), Ready (worker → host), then per call: Call
// (host → worker); any number of Read/File, Ask/Answer, Fetch/Fetched
// round trips the worker starts; and Done (worker → host).

// workerEnv is the variable that makes a process a worker: any binary that
// links the runner serves as its worker when started with it set to
// workerProtocol (worker_serve.go), so that tent-tools and every test
// binary of a package that runs app code can start one.
const (
	workerEnv      = "TENT_TOOLS_WORKER"
	workerProtocol = "1"
)

// heldFD is the descriptor a worker finds the held .tent folder at.
const heldFD = 3

// wireConfig is what a worker is told before anything else.
type wireConfig struct {
	Root        string
	TimeLimit   time.Duration
	MemoryLimit uint64
	// Held says the .tent folder is open at heldFD; where false the
	// worker opens the test database by its path.
	Held bool
	// CPUBudget is the CPU time the worker may use over its life (its
	// RLIMIT_CPU hard limit); the host retires it well before.
	CPUBudget time.Duration
}

// wireReady is the worker's answer to its config: its limits are set.
type wireReady struct {
	PID int
	// Limits names the operating system limits the worker could set.
	Limits []string
}

// wireCall is one run or one screen.
type wireCall struct {
	// AppID names the app the call runs on; App holds its encoding
	// (appcodec.go) where the worker was not given it yet.
	AppID uint64
	App   []byte
	// SnapKey and SnapDigest, where App is left out, say the app is the
	// snapshot of .tent/cache/app with that key and digest, which the
	// worker read as it started (or asks for with NeedApp).
	SnapKey    string
	SnapDigest []byte
	// Gen is the host's number for the snapshot of files the call reads
	// (0: the folder as it is), so a bundle found fresh in a snapshot is
	// not checked again in it.
	Gen    uint64
	Run    *wireRun
	Screen *wireScreen
}

// wireRun is a Request as it crosses the pipe; Asks says the host has an
// approver.
type wireRun struct {
	Name        string
	Input       []byte
	As          string
	AllowSystem bool
	Trusted     bool
	Asks        bool
	Now         time.Time
}

// wireScreen is a screen to show: the screen the route matched (the host
// found it in the index), its parameters, and the ScreenRequest.
type wireScreen struct {
	Name, File, Pattern, Title string
	Segments                   []string
	Params                     map[string]string
	As                         string
	AllowSystem                bool
	Trusted                    bool
	Now                        time.Time
}

// wireNeedApp asks for the app's encoding; wireAppData answers it.
type wireNeedApp struct{}

type wireAppData struct{ Data []byte }

// wireRead asks for a project file; wireFile answers it.
type wireRead struct{ Path string }

type wireFile struct {
	Text []byte
	OK   bool
	// Held says the host's snapshot holds the file (snapshotSource.holds).
	Held bool
}

// wireAsk asks the person a question; wireAnswer is the answer.
type wireAsk struct{ Question string }

type wireAnswer struct {
	OK  bool
	Err *wireError
}

// wireFetch is an HTTP request of ctx.http.fetch; wireFetched its answer.
type wireFetch struct {
	URL  string
	Init []byte // the init object as JSON
	// Within is the time the run has left: the request ends then.
	Within time.Duration
}

type wireFetched struct {
	Answer *fetchAnswer
	Sent   Sent
	Err    string
}

// wireError is an error as it crosses the pipe: a tool error with its code
// and data, or a plain error's text.
type wireError struct {
	Code    string
	Message string
	Data    map[string]any
	Plain   string
	// Unasked is an approver's diag.Unasked (nobody could be asked).
	Unasked *diag.Unasked
}

// wireDone ends a call.
type wireDone struct {
	Result []byte // the JSON of a *Result, where the run ended well
	Screen []byte // the JSON of a *Screen, where the screen was shown
	Err    *wireError
	// Secrets are the private values the run was handed, for the host to
	// keep out of the run log.
	Secrets []string
	// Builds is how many bundles the call built with esbuild.
	Builds int64
	// Retire asks the host not to use the worker again (its heap grew
	// large, or it used much of its CPU budget).
	Retire bool
}

// message is one message of the protocol: exactly one field is set.
type message struct {
	Config  *wireConfig
	Ready   *wireReady
	Call    *wireCall
	Read    *wireRead
	File    *wireFile
	Ask     *wireAsk
	Answer  *wireAnswer
	Fetch   *wireFetch
	Fetched *wireFetched
	Done    *wireDone
	NeedApp *wireNeedApp
	AppData *wireAppData
}

func init() {
	// The kinds of value a tool error's data holds (With in this package).
	gob.Register([]string{})
	gob.Register([]Sent{})
	gob.Register([]any{})
	gob.Register(map[string]any{})
}
