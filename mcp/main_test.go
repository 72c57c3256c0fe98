package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/tent-tools/tent-tools/internal/sample"
	"github.com/tent-tools/tent-tools/internal/testbin"
)

// bin is the tent-tools binary that TestMain builds: the tests talk to
// the server exactly as an MCP client that starts it does.
var bin string

func TestMain(m *testing.M) {
	testbin.Main(m, &bin, "../cmd/tent-tools", false, nil)
}

// copyProject copies a sample project, as git tracks it, into a new folder.
func copyProject(t testing.TB, name string) string {
	t.Helper()
	return sample.Copy(t, filepath.Join("..", "testdata", "projects", name))
}

// connect starts `tent-tools mcp` on the project dir with args and
// connects the Go SDK's client to it.
func connect(t testing.TB, dir string, opts *sdk.ClientOptions, session *sdk.ClientSessionOptions, args ...string) *sdk.ClientSession {
	t.Helper()
	return connectCmd(t, exec.Command(bin, append([]string{"mcp", "-C", dir}, args...)...), opts, session)
}

// connectCmd connects the Go SDK's client to the server that cmd starts.
func connectCmd(t testing.TB, cmd *exec.Cmd, opts *sdk.ClientOptions, session *sdk.ClientSessionOptions) *sdk.ClientSession {
	t.Helper()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	client := sdk.NewClient(&sdk.Implementation{Name: "test-agent", Version: "v1"}, opts)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, session)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	t.Cleanup(func() {
		if err := cs.Close(); err != nil {
			t.Errorf("close: %v\n%s", err, stderr.String())
		}
	})
	return cs
}

// call calls a tool with its input as JSON.
func call(t testing.TB, cs *sdk.ClientSession, tool, input string) *sdk.CallToolResult {
	t.Helper()
	var args any
	if input != "" {
		args = json.RawMessage(input)
	}
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s %s: %v", tool, input, err)
	}
	return res
}

// text is the text content of a result.
func text(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// structured decodes a result's structuredContent.
func structured(t testing.TB, res *sdk.CallToolResult) map[string]any {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("structuredContent %s: %v", b, err)
	}
	return m
}

// errorCode is the code of an isError result ("" where it is no error).
func errorCode(t testing.TB, res *sdk.CallToolResult) string {
	t.Helper()
	if !res.IsError {
		return ""
	}
	e, _ := structured(t, res)["error"].(map[string]any)
	code, _ := e["code"].(string)
	if !strings.HasPrefix(text(res), code+": ") {
		t.Errorf("error text %q does not start with its code %s", text(res), code)
	}
	return code
}

// compile compiles a JSON Schema (and so holds it to its meta-schema).
func compile(t testing.TB, name string, schema any) *jsonschema.Schema {
	t.Helper()
	b, err := json.Marshal(schema)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(name, doc); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	s, err := c.Compile(name)
	if err != nil {
		t.Fatalf("%s: the schema does not compile: %v\n%s", name, err, b)
	}
	return s
}

// validate holds a value to a compiled schema.
func validate(t testing.TB, what string, s *jsonschema.Schema, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(inst); err != nil {
		t.Errorf("%s does not fit its schema: %v\n%s", what, err, b)
	}
}

// sameJSON reports whether two JSON texts hold the same value.
func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
