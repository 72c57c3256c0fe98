package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The client speaks JSON-RPC 2.0 on the wire itself, as an editor or an
// agent outside the project would: the protocol libraries belong to the
// faces (lsp/, mcp/; internal/layering holds every package to that), and a
// benchmark of two servers should see only their bytes. Two framings: the
// language server protocol's Content-Length headers, and MCP's stdio
// transport, one message per line.

// framing says how messages are cut on the wire.
type framing int

const (
	// headers is the language server protocol's: Content-Length, a blank
	// line, the body.
	headers framing = iota
	// lines is MCP's stdio transport: one JSON message per line.
	lines
)

// rpcError is an error answer of the server.
type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("%d: %s", e.Code, e.Message) }

// message is any JSON-RPC message, as read.
type message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *rpcError       `json:"error,omitempty"`
}

// notification is a notification of the server, with when it was read.
type notification struct {
	Method string
	Params json.RawMessage
	At     time.Time
}

// conn is one server process and the JSON-RPC session with it.
type conn struct {
	name    string
	cmd     *exec.Cmd
	framing framing
	stdin   io.WriteCloser
	// answer answers a request of the server (configuration, progress,
	// registrations, a question for the person): the result to send.
	answer func(method string, params json.RawMessage) any

	writeMu sync.Mutex
	mu      sync.Mutex
	nextID  int
	pending map[int]chan message
	notes   []notification
	poke    chan struct{} // a new notification (capacity 1)
	done    chan struct{} // the read loop ended
	readErr error
	stderr  *tailBuffer
}

// start runs the command in dir and reads its answers. The process
// lives until close, whatever the contexts of its calls.
func start(name string, f framing, dir string, argv []string, answer func(string, json.RawMessage) any) (*conn, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = os.Environ()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	c := &conn{name: name, cmd: cmd, framing: f, stdin: stdin, answer: answer,
		pending: map[int]chan message{}, poke: make(chan struct{}, 1), done: make(chan struct{}),
		stderr: &tailBuffer{max: 8 << 10}}
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	go c.readLoop(bufio.NewReaderSize(stdout, 1<<20))
	return c, nil
}

// readLoop reads every message until the server's output ends.
func (c *conn) readLoop(r *bufio.Reader) {
	defer close(c.done)
	for {
		body, err := c.read(r)
		if err != nil {
			c.mu.Lock()
			c.readErr = err
			for id, ch := range c.pending {
				close(ch)
				delete(c.pending, id)
			}
			c.mu.Unlock()
			return
		}
		at := time.Now()
		var m message
		if err := json.Unmarshal(body, &m); err != nil {
			continue // not JSON-RPC (a log line on stdout): skipped, as clients do
		}
		switch {
		case m.Method != "" && len(m.ID) > 0:
			go c.reply(m)
		case m.Method != "":
			c.mu.Lock()
			c.notes = append(c.notes, notification{Method: m.Method, Params: m.Params, At: at})
			c.mu.Unlock()
			select {
			case c.poke <- struct{}{}:
			default:
			}
		default:
			id, err := strconv.Atoi(string(m.ID))
			if err != nil {
				continue
			}
			c.mu.Lock()
			ch := c.pending[id]
			delete(c.pending, id)
			c.mu.Unlock()
			if ch != nil {
				ch <- m
			}
		}
	}
}

// read reads one message's body.
func (c *conn) read(r *bufio.Reader) ([]byte, error) {
	if c.framing == lines {
		for {
			line, err := r.ReadBytes('\n')
			if err != nil {
				return nil, err
			}
			if line = bytes.TrimSpace(line); len(line) > 0 {
				return line, nil
			}
		}
	}
	length := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(strings.ToLower(line), "content-length:"); ok {
			if length, err = strconv.Atoi(strings.TrimSpace(v)); err != nil {
				return nil, fmt.Errorf("read %s: bad header %q", c.name, line)
			}
		}
	}
	if length < 0 {
		return nil, fmt.Errorf("read %s: a message without Content-Length", c.name)
	}
	body := make([]byte, length)
	_, err := io.ReadFull(r, body)
	return body, err
}

// reply answers a request of the server.
func (c *conn) reply(m message) {
	result := c.answer(m.Method, m.Params)
	_ = c.write(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
}

// write sends one message.
func (c *conn) write(v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if c.framing == lines {
		_, err = c.stdin.Write(append(body, '\n'))
	} else {
		_, err = fmt.Fprintf(c.stdin, "Content-Length: %d\r\n\r\n%s", len(body), body)
	}
	if err != nil {
		return fmt.Errorf("write to %s: %w", c.name, err)
	}
	return nil
}

// call sends a request and waits for its answer (or ctx's end).
func (c *conn) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	c.mu.Lock()
	if c.readErr != nil {
		c.mu.Unlock()
		return nil, fmt.Errorf("%s %s: the server has gone: %v%s", c.name, method, c.readErr, c.stderr.note())
	}
	c.nextID++
	id := c.nextID
	ch := make(chan message, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	if err := c.write(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		return nil, err
	}
	select {
	case m, ok := <-ch:
		if !ok {
			return nil, fmt.Errorf("%s %s: the server has gone%s", c.name, method, c.stderr.note())
		}
		if m.Error != nil {
			return nil, fmt.Errorf("%s %s: %w", c.name, method, m.Error)
		}
		return m.Result, nil
	case <-ctx.Done():
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
		return nil, fmt.Errorf("%s %s: %w", c.name, method, ctx.Err())
	}
}

// notify sends a notification.
func (c *conn) notify(method string, params any) error {
	return c.write(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// mark is where the notifications read so far end.
func (c *conn) mark() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.notes)
}

// waitNote waits for the first notification from mark on that match says
// is the one, and returns it.
func (c *conn) waitNote(ctx context.Context, from int, match func(notification) bool) (notification, error) {
	for {
		c.mu.Lock()
		for ; from < len(c.notes); from++ {
			if match(c.notes[from]) {
				n := c.notes[from]
				c.mu.Unlock()
				return n, nil
			}
		}
		gone := c.readErr
		c.mu.Unlock()
		if gone != nil {
			return notification{}, fmt.Errorf("%s: the server has gone: %v%s", c.name, gone, c.stderr.note())
		}
		select {
		case <-c.poke:
		case <-c.done:
		case <-ctx.Done():
			return notification{}, fmt.Errorf("%s: waiting for a notification: %w", c.name, ctx.Err())
		}
	}
}

// forget drops the notifications read so far (a long session's pushes
// would otherwise pile up), keeping marks valid by counting from zero.
func (c *conn) forget() {
	c.mu.Lock()
	c.notes = c.notes[:0]
	c.mu.Unlock()
}

// close ends the process: its stdin closed, then killed if it has not
// ended within a few seconds.
func (c *conn) close() {
	c.stdin.Close()
	select {
	case <-c.done:
	case <-time.After(5 * time.Second):
	}
	exited := make(chan struct{})
	go func() { c.cmd.Wait(); close(exited) }()
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		c.cmd.Process.Kill()
		<-exited
	}
}

// rssMB is the resident set of the server's process now, in MB (Linux's
// /proc), or an error where it cannot be read.
func (c *conn) rssMB() (float64, error) {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", c.cmd.Process.Pid))
	if err != nil {
		return 0, fmt.Errorf("memory of %s: %w", c.name, err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			if err != nil {
				return 0, fmt.Errorf("memory of %s: %q: %w", c.name, line, err)
			}
			return kb / 1024, nil
		}
	}
	return 0, errors.New("memory of " + c.name + ": no VmRSS in /proc")
}

// cpuMS is the CPU time (user and system) the server's process has used
// so far, in ms (Linux's /proc, in clock ticks of 10 ms).
func (c *conn) cpuMS() (float64, error) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", c.cmd.Process.Pid))
	if err != nil {
		return 0, fmt.Errorf("CPU time of %s: %w", c.name, err)
	}
	// The fields after the command's name, which is in parentheses.
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	if len(fields) < 13 {
		return 0, fmt.Errorf("CPU time of %s: a short /proc stat", c.name)
	}
	utime, err1 := strconv.ParseFloat(fields[11], 64)
	stime, err2 := strconv.ParseFloat(fields[12], 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("CPU time of %s: %q %q", c.name, fields[11], fields[12])
	}
	return (utime + stime) * 1000 / clockTicks, nil
}

// clockTicks is Linux's USER_HZ, the unit of /proc's CPU times: 100 on
// every architecture Go supports there.
const clockTicks = 100

// tailBuffer keeps the last max bytes written to it: a server's stderr,
// for the error that says why it went.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

// note is the tail of stderr as an error's end, or "".
func (t *tailBuffer) note() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.TrimSpace(string(t.b))
	if s == "" {
		return ""
	}
	if len(s) > 600 {
		s = "…" + s[len(s)-600:]
	}
	return "; its stderr ends: " + s
}
