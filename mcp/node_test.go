package mcp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/host"
	"github.com/tent-tools/tent-tools/internal/testneed"
)

// needNode finds node and the npm client installed by `npm ci` in
// testclient/ (.ci/setup.d/30-mcp-node.sh). Under CI a missing one fails
// the test: the second SDK's agreement is part of what CI shows.
func needNode(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	missing := ""
	switch {
	case err != nil:
		missing = "node is not installed"
	case func() bool {
		_, err := os.Stat(filepath.Join("testclient", "node_modules", "@modelcontextprotocol", "sdk", "package.json"))
		return err != nil
	}():
		missing = "the npm client is not installed (run npm ci in mcp/testclient)"
	}
	if missing != "" {
		testneed.Missing(t, "%s; .ci/setup.d/30-mcp-node.sh installs it", missing)
	}
	return node
}

// nodeAnswer is what testclient/client.mjs prints.
type nodeAnswer struct {
	Tools []struct {
		Name     string `json:"name"`
		ReadOnly *bool  `json:"readOnly"`
		Output   bool   `json:"output"`
	} `json:"tools"`
	Write, Read, Bad struct {
		IsError    bool           `json:"isError"`
		Text       string         `json:"text"`
		Structured map[string]any `json:"structured"`
	}
}

// runNode runs the npm client with args and decodes its answer.
func runNode(t *testing.T, node string, args ...string) nodeAnswer {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{"client.mjs"}, args...)...)
	cmd.Dir = "testclient"
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node client.mjs %s: %v\n%s%s", args[0], err, stdout.String(), stderr.String())
	}
	var a nodeAnswer
	if err := json.Unmarshal(stdout.Bytes(), &a); err != nil {
		t.Fatalf("node's answer: %v\n%s", err, stdout.String())
	}
	return a
}

// checkNodeAnswer holds the npm client's view to ours: every tool, the
// write recorded as a point, the read of what it wrote, a refusal with
// its code.
func checkNodeAnswer(t *testing.T, a nodeAnswer, dir string) {
	t.Helper()
	names := map[string]bool{}
	for _, tool := range a.Tools {
		names[tool.Name] = true
		if tool.ReadOnly == nil {
			t.Errorf("%s: no readOnlyHint", tool.Name)
		}
	}
	for _, want := range []string{"map", "read", "edit", "write", "rename", "run", "undo"} {
		if !names[want] {
			t.Errorf("the npm client did not see %s among %v", want, names)
		}
	}
	if a.Write.IsError || a.Write.Structured["point"] == nil {
		t.Errorf("write: %+v", a.Write)
	}
	if a.Read.IsError || a.Read.Structured["text"] != "export const fromNode = 1\n" {
		t.Errorf("read: %+v", a.Read)
	}
	if e, _ := a.Bad.Structured["error"].(map[string]any); !a.Bad.IsError || e["code"] != "T9105" || !strings.HasPrefix(a.Bad.Text, "T9105: ") {
		t.Errorf("a path out: %+v", a.Bad)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "lib", "fromNode.ts")); err != nil || string(got) != "export const fromNode = 1\n" {
		t.Errorf("the file on disk: %q %v", got, err)
	}
}

// TestNodeClientStdio: the npm SDK's client over stdio.
func TestNodeClientStdio(t *testing.T) {
	node := needNode(t)
	dir := copyProject(t, "shop")
	checkNodeAnswer(t, runNode(t, node, "stdio", bin, dir), dir)
}

// TestNodeClientHTTP: the npm SDK's client over streamable HTTP, against
// the binary in host mode.
func TestNodeClientHTTP(t *testing.T) {
	node := needNode(t)
	host := startHost(t)
	checkNodeAnswer(t, runNode(t, node, "http", host.url, host.token), host.wsDir)
}

// runningHost is `tent-tools mcp --workspaces` running as its own process.
type runningHost struct {
	url, token, wsDir string
}

// startHost makes a workspaces folder with one workspace of ann (from
// shop) and a token for it through the agent builder, and starts the
// binary on 127.0.0.1, port 0.
func startHost(t *testing.T) runningHost {
	t.Helper()
	dir := t.TempDir()
	h, err := host.Open(filepath.Join(dir, "ws"), host.Config{})
	if err != nil {
		t.Fatal(err)
	}
	info, err := h.Create(context.Background(), "ann", filepath.Join("..", "testdata", "projects", "shop"))
	h.Close()
	if err != nil {
		t.Fatal(err)
	}
	const token = "ann-builder-0123456789abcdef"
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tokens := write("tokens.json", `{"`+token+`": {"caller": "ann", "workspace": "`+info.ID+`", "agent": "builder"}}`)
	policies := write("policies.json", `{"builder": {"allow": ["**"]}}`)
	cmd := exec.Command(bin, "mcp", "--workspaces", filepath.Join(dir, "ws"), "--listen", "127.0.0.1:0", "--tokens", tokens, "--policies", policies)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	})
	line, err := bufio.NewReader(stderr).ReadString('\n')
	if err != nil {
		t.Fatalf("the host printed %q: %v", line, err)
	}
	go io.Copy(io.Discard, stderr)
	_, url, ok := strings.Cut(strings.TrimSpace(line), " at ")
	if !ok || !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("the host printed %q", line)
	}
	return runningHost{url: url, token: token, wsDir: filepath.Join(dir, "ws", info.ID)}
}

// TestHostCommand: the binary's host mode answers 401 without a valid
// token, and refuses flags that would expose it or run an agent unbound.
func TestHostCommand(t *testing.T) {
	host := startHost(t)
	for _, auth := range []string{"", "Bearer nope", "Bearer " + host.token + "0", "Basic " + host.token} {
		req, _ := http.NewRequest("POST", host.url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
		req.Header.Set("Content-Type", "application/json")
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized || strings.Contains(string(body), host.token) {
			t.Errorf("Authorization %q: %d %s", auth, resp.StatusCode, body)
		}
	}

	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(text), 0o600)
		return p
	}
	tokens := write("tokens.json", `{"a-token-of-sixteen-chars": {"caller": "ann", "workspace": "x", "agent": "builder"}}`)
	policies := write("policies.json", `{"builder": {"allow": ["**"]}}`)
	ws := filepath.Join(dir, "ws")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--workspaces", ws, "--listen", "0.0.0.0:0", "--tokens", tokens, "--policies", policies}, "not a loopback address"},
		{[]string{"--workspaces", ws, "--listen", ":0", "--tokens", tokens, "--policies", policies}, "not a loopback address"},
		{[]string{"--workspaces", ws, "--listen", "0.0.0.0:0", "--public", "--tokens", tokens, "--policies", policies}, "--public needs --tls-cert"},
		{[]string{"--workspaces", ws, "--listen", "127.0.0.1:0", "--tokens", tokens}, `names the agent "builder", which --policies does not hold`},
		{[]string{"--workspaces", ws, "--listen", "127.0.0.1:0", "--tokens", write("short.json", `{"short": {"caller": "a", "workspace": "x", "agent": "builder"}}`), "--policies", policies}, "shorter than 16"},
		{[]string{"--workspaces", ws, "--listen", "127.0.0.1:0", "--tokens", write("noagent.json", `{"a-token-of-sixteen-chars": {"caller": "a", "workspace": "x"}}`), "--policies", policies}, "must name a caller, a workspace and an agent"},
		{[]string{"--workspaces", ws, "--listen", "127.0.0.1:0", "--tokens", write("typo.json", `{"a-token-of-sixteen-chars": {"caller": "a", "workspace": "x", "agent": "builder", "admin": true}}`), "--policies", policies}, "unknown field"},
		{[]string{"--workspaces", ws, "--listen", "127.0.0.1:0"}, "needs --workspaces, --listen and --tokens"},
		{[]string{"--workspaces", ws, "--listen", "127.0.0.1:0", "--tokens", tokens, "--policies", policies, "--caller", "eve"}, "--policy and --caller are for one project"},
	}
	tests = append(tests, struct {
		args []string
		want string
	}{[]string{"--workspaces", ws, "--new", "ann", "--listen", "127.0.0.1:0"}, "nothing of serving"})
	for _, tt := range tests {
		cmd := exec.Command(bin, append([]string{"mcp"}, tt.args...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		exit, _ := err.(*exec.ExitError)
		if exit == nil || exit.ExitCode() != 2 || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("mcp %s: %v\n%s\nwant exit 2 and %q", strings.Join(tt.args, " "), err, stderr.String(), tt.want)
		}
		if strings.Contains(stderr.String(), "a-token-of-sixteen-chars") {
			t.Errorf("a token was printed: %s", stderr.String())
		}
	}
}

// TestHostNewWorkspace: --new makes a workspace (a copy of --from) and
// prints its id, which a token then names.
func TestHostNewWorkspace(t *testing.T) {
	ws := filepath.Join(t.TempDir(), "ws")
	out, err := exec.Command(bin, "mcp", "--workspaces", ws, "--new", "ann", "--from", filepath.Join("..", "testdata", "projects", "shop")).Output()
	if err != nil {
		t.Fatal(err)
	}
	id := strings.TrimSpace(string(out))
	if len(id) != 26 {
		t.Fatalf("--new printed %q, want an id", out)
	}
	if _, err := os.Stat(filepath.Join(ws, id, "tables", "orders.ts")); err != nil {
		t.Errorf("the new workspace holds no copy of shop: %v", err)
	}
	h, err := host.Open(ws, host.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if _, err := h.Tool(context.Background(), id, "read", json.RawMessage(`{"path": "project.ts"}`), host.Call{Caller: "ann"}); err != nil {
		t.Errorf("its owner ann cannot read it: %v", err)
	}
}
