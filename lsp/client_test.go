package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/internal/sample"
	"github.com/tent-tools/tent-tools/internal/testbin"
)

// This file is a small LSP client for the tests: it starts the built
// binary (`tent-tools lsp`) on a copy of a sample project and speaks to it
// over stdio, decoding every answer as raw JSON (the library's types drop
// what they do not know, such as RenameFile).

// binary is the tent-tools binary the tests drive, built once by TestMain.
var binary string

func TestMain(m *testing.M) {
	testbin.Main(m, &binary, "../cmd/tent-tools", true, nil)
}

// shopDir is the sample project; tests act on copies of it.
const shopDir = "../testdata/projects/shop"

// copyShop copies the sample, as git tracks it, into a new folder.
func copyShop(t testing.TB) string {
	t.Helper()
	return sample.Copy(t, shopDir)
}

// rpcError is a JSON-RPC error answer.
type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("%d %s", e.Code, e.Message) }

// message is any JSON-RPC message.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// client is one session with the server.
type client struct {
	t    testing.TB
	dir  string // the project
	cmd  *exec.Cmd
	in   io.WriteCloser
	done chan struct{}

	mu      sync.Mutex
	next    int
	pending map[string]chan message
	notes   []message // notifications and requests from the server, in order
	changed chan struct{}
	// answer answers the server's requests (showMessageRequest, ...);
	// nil answers null.
	answer func(method string, params json.RawMessage) any
	stderr bytes.Buffer
	// patience is how long waitFor waits (0: 30 s); a benchmark that
	// indexes 10,000 tables on a loaded machine waits longer.
	patience time.Duration
}

// start starts the server on dir, with the flags args, without
// initializing it.
func start(t testing.TB, dir string, args ...string) *client {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"lsp"}, args...)...)
	cmd.Dir = t.TempDir() // the root comes from initialize, not the folder it runs in
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c := &client{t: t, dir: dir, cmd: cmd, in: in, done: make(chan struct{}), pending: map[string]chan message{}, changed: make(chan struct{}, 1)}
	cmd.Stderr = &syncWriter{c: c}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go c.read(bufio.NewReader(out))
	t.Cleanup(func() {
		c.in.Close()
		select {
		case <-c.done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
		}
		cmd.Wait()
		// A race the server's detector reported fails the test, whatever
		// the status it exited with (the detector keeps a status of 1).
		c.mu.Lock()
		logged := c.stderr.String()
		c.mu.Unlock()
		if testbin.Race && strings.Contains(logged, "WARNING: DATA RACE") {
			t.Errorf("the server reported a data race:\n%s", logged)
		}
	})
	return c
}

type syncWriter struct{ c *client }

func (w *syncWriter) Write(p []byte) (int, error) {
	w.c.mu.Lock()
	defer w.c.mu.Unlock()
	return w.c.stderr.Write(p)
}

// read reads the server's messages until its output ends.
func (c *client) read(r *bufio.Reader) {
	defer close(c.done)
	for {
		var length int
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				length, _ = strconv.Atoi(v)
			}
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(r, body); err != nil {
			return
		}
		var m message
		if os.Getenv("LSP_TRACE") != "" {
			fmt.Fprintf(os.Stderr, "<- %s\n", body)
		}
		if err := json.Unmarshal(body, &m); err != nil {
			c.t.Errorf("the server wrote no JSON-RPC message: %s", body)
			return
		}
		switch {
		case m.Method != "" && m.ID != nil: // a request of the server
			c.mu.Lock()
			c.notes = append(c.notes, m)
			answer := c.answer
			c.mu.Unlock()
			go func() { // an answer may wait (a person thinking)
				var result any
				if answer != nil {
					result = answer(m.Method, m.Params)
				}
				c.send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
			}()
		case m.Method != "":
			c.mu.Lock()
			c.notes = append(c.notes, m)
			c.mu.Unlock()
		default:
			c.mu.Lock()
			ch := c.pending[string(m.ID)]
			delete(c.pending, string(m.ID))
			c.mu.Unlock()
			if ch != nil {
				ch <- m
			}
		}
		select {
		case c.changed <- struct{}{}:
		default:
		}
	}
}

// send writes one message.
func (c *client) send(v any) {
	data, err := json.Marshal(v)
	if err != nil {
		c.t.Error(err)
		return
	}
	if os.Getenv("LSP_TRACE") != "" {
		fmt.Fprintf(os.Stderr, "-> %s\n", data)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n%s", len(data), data)
}

// callAsync sends a request and returns its id and where its answer comes.
func (c *client) callAsync(method string, params any) (int, chan message) {
	c.mu.Lock()
	c.next++
	id := c.next
	ch := make(chan message, 1)
	c.pending[strconv.Itoa(id)] = ch
	c.mu.Unlock()
	c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return id, ch
}

// wait waits for an answer.
func (c *client) wait(method string, ch chan message) (json.RawMessage, *rpcError) {
	c.t.Helper()
	select {
	case m := <-ch:
		return m.Result, m.Error
	case <-time.After(30 * time.Second):
		c.mu.Lock()
		defer c.mu.Unlock()
		c.t.Fatalf("no answer to %s; the server said: %s", method, c.stderr.String())
	}
	return nil, nil
}

// call sends a request and waits for its answer.
func (c *client) call(method string, params any) (json.RawMessage, *rpcError) {
	c.t.Helper()
	_, ch := c.callAsync(method, params)
	return c.wait(method, ch)
}

// must is call that fails the test on an error answer.
func (c *client) must(method string, params any) json.RawMessage {
	c.t.Helper()
	res, err := c.call(method, params)
	if err != nil {
		c.t.Fatalf("%s: %v (data %s)", method, err, err.Data)
	}
	return res
}

func (c *client) notify(method string, params any) {
	c.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// waitFor waits for a message of the server (from the index from on)
// with the method that ok accepts, and returns it with the index after it.
func (c *client) waitFor(from int, method string, ok func(json.RawMessage) bool) (json.RawMessage, int) {
	c.t.Helper()
	patience := c.patience
	if patience == 0 {
		patience = 30 * time.Second
	}
	deadline := time.After(patience)
	for {
		c.mu.Lock()
		for i := from; i < len(c.notes); i++ {
			if c.notes[i].Method == method && (ok == nil || ok(c.notes[i].Params)) {
				p := c.notes[i].Params
				c.mu.Unlock()
				return p, i + 1
			}
		}
		c.mu.Unlock()
		select {
		case <-c.changed:
		case <-deadline:
			c.mu.Lock()
			var got []string
			for _, n := range c.notes[from:] {
				got = append(got, n.Method+" "+string(n.Params))
			}
			c.mu.Unlock()
			if os.Getenv("LSP_TRACE") != "" {
				c.cmd.Process.Signal(syscall.SIGQUIT)
				time.Sleep(time.Second)
			}
			c.mu.Lock()
			stderr := c.stderr.String()
			c.mu.Unlock()
			c.t.Fatalf("no %s came; the server sent:\n%s\nand said: %s", method, strings.Join(got, "\n"), stderr)
		}
	}
}

// mark is the index of the next message of the server.
func (c *client) mark() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.notes)
}

// uri is the URI of a project file.
func (c *client) uri(rel string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(c.dir, rel))}).String()
}

// read reads a project file.
func (c *client) file(rel string) string {
	c.t.Helper()
	data, err := os.ReadFile(filepath.Join(c.dir, rel))
	if err != nil {
		c.t.Fatal(err)
	}
	return string(data)
}

// capabilities a full client offers (LSP 3.17).
func fullCapabilities() map[string]any {
	return map[string]any{
		"general": map[string]any{"positionEncodings": []string{"utf-16"}},
		"workspace": map[string]any{
			"workspaceEdit": map[string]any{"documentChanges": true, "resourceOperations": []string{"create", "rename", "delete"}},
		},
		"textDocument": map[string]any{
			"publishDiagnostics": map[string]any{"relatedInformation": true, "versionSupport": true, "codeDescriptionSupport": true, "dataSupport": true},
			"codeAction":         map[string]any{"resolveSupport": map[string]any{"properties": []string{"edit"}}, "dataSupport": true},
		},
		"window": map[string]any{"showMessage": map[string]any{}, "workDoneProgress": true},
	}
}

// initialize initializes a session on the client's project.
func (c *client) initialize(caps map[string]any, opts map[string]any) json.RawMessage {
	c.t.Helper()
	params := map[string]any{"processId": nil, "rootUri": c.uri(""), "capabilities": caps}
	if opts != nil {
		params["initializationOptions"] = opts
	}
	res := c.must("initialize", params)
	c.notify("initialized", map[string]any{})
	return res
}

// open opens a project file as a document of version 1.
func (c *client) open(rel string) string {
	text := c.file(rel)
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": c.uri(rel), "languageId": "typescript", "version": 1, "text": text}})
	return text
}

// shutdown ends the session as a client does and waits for the process.
func (c *client) shutdown() int {
	c.t.Helper()
	c.must("shutdown", nil)
	c.notify("exit", nil)
	select {
	case <-c.done:
	case <-time.After(10 * time.Second):
		c.t.Fatal("the server did not exit")
	}
	c.cmd.Wait()
	return c.cmd.ProcessState.ExitCode()
}

// pos is a position as the client sends it.
func pos(line, char int) map[string]any { return map[string]any{"line": line, "character": char} }

// posOf finds the n-th (0-based) occurrence of needle in text and answers
// the position of its start plus shift characters (UTF-16 = bytes here).
func posOf(t testing.TB, text, needle string, n, shift int) map[string]any {
	t.Helper()
	off := -1
	for i := 0; i <= n; i++ {
		next := strings.Index(text[off+1:], needle)
		if next < 0 {
			t.Fatalf("%q occurs fewer than %d times", needle, n+1)
		}
		off += 1 + next
	}
	off += shift
	line := strings.Count(text[:off], "\n")
	col := off - (strings.LastIndex(text[:off], "\n") + 1)
	return pos(line, col)
}

// docPos is textDocument + position params.
func (c *client) docPos(rel string, p map[string]any) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": c.uri(rel)}, "position": p}
}

// rooted replaces the project's URI in JSON with $ROOT, for goldens.
func (c *client) rooted(data []byte) []byte {
	return bytes.ReplaceAll(data, []byte(c.uri("")), []byte("$ROOT"))
}
