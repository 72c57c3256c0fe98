package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/tent-tools/tent-tools/diag"
)

// helloTimeout bounds the wait for the far side's hello once the transport
// started: a host that does not answer is a coded error, not a hang.
const helloTimeout = 30 * time.Second

// link is one far side, reached through one transport process: the calls
// sent on it wait for their replies, which one goroutine reads.
type link struct {
	host    string
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	out     *frameWriter
	stderr  *tail
	session string

	mu      sync.Mutex
	pending map[string]chan reply
	// received, where a test sets it, hears each reply before its call
	// does; false drops it (as a link that ended just before it would).
	received func(reply) bool
	done     chan struct{} // closed when the transport's stdout ended
	err      error         // why, set before done is closed
}

// errNeedsBinary is the far side's word that it lacks this build: the
// shell line's "tent-tools-remote: install OS ARCH".
type errNeedsBinary struct{ os, arch string }

func (e *errNeedsBinary) Error() string { return "tent-tools is not installed there" }

// needsPrefix starts the line the start script prints where the far side
// lacks this build.
const needsPrefix = "tent-tools-remote: install "

// startScript is the shell line that runs this build's far side on path,
// or, where the far side lacks it, says so with the machine's OS and
// architecture. The cached binary runs where the hash its copy was checked
// by (install) is this binary's, or where it was put there by hand (no
// hash kept: the hello's build is checked instead).
func startScript(b binaryInfo, path string) string {
	return fmt.Sprintf(`d="${TENT_TOOLS_CACHE:-$HOME/.cache/tent-tools}/%s"; `+
		`if [ -x "$d/tent-tools" ] && { [ ! -e "$d/hash" ] || [ "$(cat "$d/hash")" = %s ]; }; `+
		`then exec "$d/tent-tools" serve-remote -C %s; fi; echo "%s$(uname -s) $(uname -m)"`,
		b.Build, b.Hash, shellQuote(path), needsPrefix)
}

// shellQuote quotes s for sh: in single quotes, each ' written '\”.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// dial starts the far side of path on host through transport and waits for
// its hello.
func dial(ctx context.Context, host string, transport []string, b binaryInfo, path string) (*link, error) {
	if path == "" {
		path = "."
	}
	argv := append(transport, startScript(b, path))
	cmd := exec.Command(argv[0], argv[1:]...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("remote: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("remote: %w", err)
	}
	l := &link{host: host, cmd: cmd, stdin: stdin, out: &frameWriter{w: stdin}, stderr: &tail{max: 4096},
		pending: map[string]chan reply{}, done: make(chan struct{})}
	cmd.Stderr = l.stderr
	// A transport whose children keep its stderr open (an ssh master) is
	// not waited for past this once it ended.
	cmd.WaitDelay = 2 * time.Second
	if err := cmd.Start(); err != nil {
		return nil, diag.Errorf(diag.T9160, "the transport to %s cannot start: %v; set its command in the hosts file (see remote)", host, err).
			With("host", host).With("transport", transport)
	}
	r := newFrameReader(stdout)
	type first struct {
		h   hello
		err error
	}
	got := make(chan first, 1)
	go func() {
		line, err := r.line()
		if err != nil {
			got <- first{err: err}
			return
		}
		if rest, ok := strings.CutPrefix(string(line), needsPrefix); ok {
			os, arch, _ := strings.Cut(strings.TrimSpace(rest), " ")
			got <- first{err: &errNeedsBinary{os: os, arch: arch}}
			return
		}
		var h hello
		if err := json.Unmarshal(line, &h); err != nil {
			got <- first{err: fmt.Errorf("the far side's first line is no hello (%.120q)", line)}
			return
		}
		got <- first{h: h}
	}()
	timer := time.NewTimer(helloTimeout)
	defer timer.Stop()
	var f first
	select {
	case f = <-got:
	case <-timer.C:
		f.err = fmt.Errorf("no answer within %s", helloTimeout)
	case <-ctx.Done():
		f.err = ctx.Err()
	}
	release := b.Release
	otherBuild := release != "" && f.h.Build != release
	if f.err != nil || f.h.Error != nil || f.h.Protocol != protocolVersion || otherBuild {
		l.kill()
		exit := l.wait()
		var needs *errNeedsBinary
		switch {
		case errors.As(f.err, &needs):
			return nil, needs
		case f.err == nil && f.h.Error != nil:
			return nil, fromWire(f.h.Error)
		case f.err == nil && otherBuild:
			return nil, diag.Errorf(diag.T9162, "the tent-tools put on %s by hand is %s, this one %s; install %s there", host, f.h.Build, release, release).With("host", host)
		case f.err == nil:
			return nil, diag.Errorf(diag.T9162, "tent-tools on %s speaks protocol %d, this one %d", host, f.h.Protocol, protocolVersion).With("host", host)
		}
		return nil, l.failed(f.err, exit)
	}
	l.session = f.h.Session
	go l.read(r)
	return l, nil
}

// failed makes the coded error of a transport that ended before the far
// side answered: what the transport said, and how it ended.
func (l *link) failed(cause error, exit string) error {
	msg := strings.TrimSpace(l.stderr.String())
	if msg == "" {
		msg = cause.Error()
	}
	if exit != "" {
		msg += " (" + exit + ")"
	}
	if strings.Contains(msg, "exit status 126") || strings.Contains(msg, "exit status 127") {
		return diag.Errorf(diag.T9162, "tent-tools cannot start on %s: %s; install tent-tools there (a build for that machine, see remote)", l.host, msg).With("host", l.host)
	}
	return diag.Errorf(diag.T9160, "the transport to %s failed: %s", l.host, msg).With("host", l.host)
}

// read reads replies until the transport's stdout ends, handing each to
// its call.
func (l *link) read(r *frameReader) {
	var err error
	for {
		var rep reply
		if err = r.read(&rep); err != nil {
			break
		}
		l.mu.Lock()
		ch, ok := l.pending[rep.ID]
		hear := l.received
		l.mu.Unlock()
		if hear != nil && !hear(rep) {
			continue
		}
		if ok {
			ch <- rep
		}
	}
	exit := l.wait()
	l.mu.Lock()
	l.err = l.failed(fmt.Errorf("the link dropped: %w", err), exit)
	l.mu.Unlock()
	close(l.done)
}

// setReceived sets the test's hook of replies.
func (l *link) setReceived(f func(reply) bool) {
	l.mu.Lock()
	l.received = f
	l.mu.Unlock()
}

// send sends a request and answers the channel its replies come on.
func (l *link) send(req request) (<-chan reply, error) {
	ch := make(chan reply, 4)
	l.mu.Lock()
	l.pending[req.ID] = ch
	l.mu.Unlock()
	if err := l.out.write(req); err != nil {
		l.forget(req.ID)
		return nil, l.dropped()
	}
	return ch, nil
}

// forget drops a call's channel once it has its answer.
func (l *link) forget(id string) {
	l.mu.Lock()
	delete(l.pending, id)
	l.mu.Unlock()
}

// dropped answers why the link ended, once it has.
func (l *link) dropped() error {
	select {
	case <-l.done:
	case <-time.After(5 * time.Second):
		l.kill()
		<-l.done
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

// alive reports whether the link has not ended.
func (l *link) alive() bool {
	select {
	case <-l.done:
		return false
	default:
		return true
	}
}

// close ends the link: the far side's stdin ends, so it ends; a transport
// that outlives that by seconds is killed.
func (l *link) close() {
	l.stdin.Close()
	select {
	case <-l.done:
	case <-time.After(5 * time.Second):
		l.kill()
		<-l.done
	}
}

// kill ends the transport process at once.
func (l *link) kill() {
	if l.cmd.Process != nil {
		l.cmd.Process.Signal(syscall.SIGKILL)
	}
}

// wait waits for the transport process and says how it ended.
func (l *link) wait() string {
	err := l.cmd.Wait()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.String()
	}
	if err != nil {
		return err.Error()
	}
	return ""
}

// tail keeps the last bytes written to it: a transport's stderr.
type tail struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = t.b[len(t.b)-t.max:]
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(bytes.TrimSpace(t.b))
}
