package mcp_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tent-tools/tent-tools/internal/chromiumtest"
	"github.com/tent-tools/tent-tools/internal/golden"
	"github.com/tent-tools/tent-tools/shot"
	"github.com/tent-tools/tent-tools/tools"
)

// TestListTools lists the tools over stdio: every tool of the registry,
// with the registry's own input schema (which compiles, so it fits the
// JSON Schema meta-schema), an output schema that compiles where there is
// one, a description, and annotations that are true.
func TestListTools(t *testing.T) {
	cs := connect(t, copyProject(t, "shop"), nil, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]*sdk.Tool{}
	for _, tool := range res.Tools {
		listed[tool.Name] = tool
	}
	for _, rt := range tools.All() {
		tool, ok := listed[rt.Name]
		if !ok {
			t.Errorf("tool %s is not listed", rt.Name)
			continue
		}
		compile(t, "input:"+rt.Name, tool.InputSchema)
		want := rt.InputSchema()
		delete(want, "description")
		wantJSON, _ := json.Marshal(want)
		gotJSON, _ := json.Marshal(tool.InputSchema)
		if !sameJSON(wantJSON, gotJSON) {
			t.Errorf("%s: input schema\n%s\nis not the registry's\n%s", rt.Name, gotJSON, wantJSON)
		}
		if tool.OutputSchema != nil {
			compile(t, "output:"+rt.Name, tool.OutputSchema)
		}
		if !strings.HasPrefix(tool.Description, rt.Summary) || rt.Summary == "" {
			t.Errorf("%s: description %q does not hold its summary", rt.Name, tool.Description)
		}
		a := tool.Annotations
		if a == nil || a.OpenWorldHint == nil {
			t.Fatalf("%s: annotations %+v", rt.Name, a)
		}
		if rt.Writes && a.ReadOnlyHint {
			t.Errorf("%s writes files but says it is read-only", rt.Name)
		}
		if *a.OpenWorldHint != (rt.Name == "run" || rt.Name == "shell") {
			t.Errorf("%s: openWorldHint %v", rt.Name, *a.OpenWorldHint)
		}
	}
	if len(res.Tools) != len(tools.All()) {
		t.Errorf("%d tools listed, the registry has %d", len(res.Tools), len(tools.All()))
	}
	// The hints of each kind of tool, as docs/pages/mcp.md lists them.
	tests := []struct {
		tool                              string
		readOnly, destructive, idempotent bool
	}{
		{"read", true, false, true},
		{"map", true, false, true},
		{"history", true, false, true},
		{"edit", false, false, false},
		{"rename", false, false, true},
		{"write", false, true, true},
		{"remove", false, true, true},
		{"move", false, true, true},
		{"undo", false, true, false},
		{"run", false, false, false},
		{"remember", false, false, true},
		{"reset", false, true, true},
		{"shell", false, true, false},
		{"fix", false, false, true},
	}
	for _, tt := range tests {
		a := listed[tt.tool].Annotations
		destructive := a.DestructiveHint == nil || *a.DestructiveHint // the protocol's default is true
		if a.ReadOnlyHint != tt.readOnly || (!tt.readOnly && destructive != tt.destructive) || a.IdempotentHint != tt.idempotent {
			t.Errorf("%s: readOnly %v destructive %v idempotent %v, want %v %v %v", tt.tool,
				a.ReadOnlyHint, destructive, a.IdempotentHint, tt.readOnly, tt.destructive, tt.idempotent)
		}
	}
}

// TestEveryTool calls every tool of the registry over stdio on a copy of
// shop: each answers text and a structuredContent that fits its output
// schema, and the writes are recorded as points by the caller and the
// client as agent.
func TestEveryTool(t *testing.T) {
	dir := copyProject(t, "shop")
	cs := connect(t, dir, nil, nil, "--caller", "ann")
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	schemas := map[string]any{}
	for _, tool := range list.Tools {
		if tool.OutputSchema != nil {
			schemas[tool.Name] = tool.OutputSchema
		}
	}
	calls := []struct{ tool, input string }{
		{"map", `{}`},
		{"model", `{}`},
		{"read", `{"path": "tables/orders.ts", "from": 2, "to": 4}`},
		{"search", `{"text": "buyer", "limit": 3}`},
		{"list", `{"path": "tables"}`},
		{"docs", `{"topic": "edit"}`},
		{"check", `{}`},
		{"rows", `{"table": "products", "limit": 2}`},
		{"run", `{"name": "listProducts", "input": {}}`},
		{"logs", `{}`},
		{"remember", `{"key": "plan", "value": "rename the note"}`},
		{"recall", `{"key": "plan"}`},
		{"keys", `{}`},
		{"edit", `{"path": "tables/orders.ts", "find": "shipTo: text({ private: true }),", "with": "shipTo: text({ private: true }), // the address"}`},
		{"write", `{"path": "lib/extra.ts", "text": "export const extra = 1\n"}`},
		{"move", `{"path": "lib/extra.ts", "to": "lib/more.ts"}`},
		{"rename", `{"name": "orders.note", "to": "remark"}`},
		{"change", `{"ops": [{"op": "setColumn", "column": "orders.shipTo", "optional": true}]}`},
		{"remove", `{"path": "lib/more.ts"}`},
		{"history", `{}`},
		{"compare", `{"from": 1}`},
		{"changedBy", `{"name": "orders"}`},
		{"undo", `{}`},
		{"reset", `{}`},
	}
	called := map[string]bool{}
	for _, c := range calls {
		res := call(t, cs, c.tool, c.input)
		called[c.tool] = true
		if res.IsError {
			t.Errorf("%s %s: %s", c.tool, c.input, text(res))
			continue
		}
		if text(res) == "" || res.StructuredContent == nil {
			t.Errorf("%s: no text or no structuredContent", c.tool)
		}
		if s, ok := schemas[c.tool]; ok {
			validate(t, c.tool+"'s answer", compile(t, "output:"+c.tool, s), res.StructuredContent)
		}
	}
	// fix: the certain fix of a finding, named as check answers it, on a
	// text broken for it (an edit makes the finding, fix undoes it).
	call(t, cs, "edit", `{"path": "tables/orders.ts", "find": "ref('users')", "with": "ref('userz')"}`)
	src, err := os.ReadFile(filepath.Join(dir, "tables", "orders.ts"))
	if err != nil {
		t.Fatal(err)
	}
	var fixIn string
	for _, f := range structured(t, call(t, cs, "check", `{}`))["findings"].([]any) {
		f := f.(map[string]any)
		if fx, ok := f["fix"].(map[string]any); ok && f["code"] == "T2003" {
			start, end := int(fx["start"].(float64)), int(fx["end"].(float64))
			in, _ := json.Marshal(map[string]any{"code": "T2003", "path": fx["path"], "start": start, "end": end, "old": string(src[start:end])})
			fixIn = string(in)
		}
	}
	if fixIn == "" {
		t.Fatal("check found no T2003 with a fix after ref('userz')")
	}
	res := call(t, cs, "fix", fixIn)
	called["fix"] = true
	if res.IsError {
		t.Errorf("fix %s: %s", fixIn, text(res))
	} else {
		validate(t, "fix's answer", compile(t, "output:fix", schemas["fix"]), res.StructuredContent)
	}
	if fixed, _ := os.ReadFile(filepath.Join(dir, "tables", "orders.ts")); !strings.Contains(string(fixed), "ref('users')") {
		t.Errorf("the fix left orders.ts:\n%s", fixed)
	}
	for _, rt := range tools.All() {
		if !called[rt.Name] && rt.Name != "shot" && rt.Name != "shell" { // TestShot calls shot, TestShell shell
			t.Errorf("tool %s has no call in this test", rt.Name)
		}
	}
	// The points of the writes, by ann through the client "test-agent".
	h := structured(t, call(t, cs, "history", `{"newest": 10}`))
	points, _ := h["points"].([]any)
	var tools []string
	for _, p := range points {
		p := p.(map[string]any)
		if p["kind"] != "command" {
			continue
		}
		tools = append(tools, p["tool"].(string))
		if p["who"] != "ann" || p["agent"] != "test-agent" {
			t.Errorf("point %v: who %v agent %v, want ann test-agent", p["point"], p["who"], p["agent"])
		}
	}
	if want := []string{"rename", "move", "write", "edit"}; !slices.Equal(tools[len(tools)-4:], want) {
		t.Errorf("points by tool, newest first: %v, want ... %v", tools, want)
	}
}

// TestErrors: a tool's error is a result with isError, its text starting
// with the code, and {"error": {...}} as structuredContent; never a
// protocol error.
func TestErrors(t *testing.T) {
	cs := connect(t, copyProject(t, "shop"), nil, nil)
	tests := []struct{ tool, input, code string }{
		{"read", `{"path": "nope.ts"}`, "T9103"},
		{"read", `{}`, "T9102"},
		{"read", `{"path": "tables/orders.ts", "line": 2}`, "T9102"},
		{"read", `{"path": "../../etc/passwd"}`, "T9105"},
		{"write", `{"path": ".tent/history.db", "text": "x"}`, "T9105"},
		{"edit", `{"path": "tables/orders.ts", "find": "nothing like this", "with": "x"}`, "T9106"},
		{"rename", `{"name": "orders", "to": "users"}`, "T9107"},
		{"docs", `{"topic": "nope"}`, "T9108"},
		{"undo", `{"point": 99}`, "T9109"},
		{"run", `{"name": "placeOrder", "input": {}, "as": "system"}`, "T3102"},
		// An unknown tool is a tool's error like the others, not the
		// SDK's protocol error (-32602) with no code.
		{"raed", `{"path": "project.ts"}`, "T9101"},
	}
	for _, tt := range tests {
		res := call(t, cs, tt.tool, tt.input)
		if got := errorCode(t, res); got != tt.code {
			t.Errorf("%s %s: code %q (%s), want %s", tt.tool, tt.input, got, text(res), tt.code)
		}
	}
}

// TestSameAsGoAPI runs the Go API's golden calls (tools/testdata/calls.json)
// through MCP: the text and the data answer (structuredContent, or the
// error's JSON) are the very ones of the tools package's golden files, as
// they are for the CLI (cmd/tent-tools's TestSameAsGoAPI).
func TestSameAsGoAPI(t *testing.T) {
	cases := golden.Calls(t, "../tools/testdata/calls.json")
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			g, err := os.ReadFile("../tools/testdata/calls/" + c.Name + ".golden")
			if err != nil {
				t.Fatal(err)
			}
			wantText, wantData := sections(string(g))
			cs := connect(t, copyProject(t, "shop"), nil, nil)
			res := call(t, cs, c.Tool, string(c.Input))
			gotData, err := json.Marshal(res.StructuredContent)
			if err != nil {
				t.Fatal(err)
			}
			if !sameJSON(gotData, []byte(wantData)) {
				t.Errorf("structuredContent\n%s\nwant\n%s", gotData, wantData)
			}
			if res.IsError != strings.HasPrefix(wantData, "{\n  \"error\"") {
				t.Errorf("isError %v", res.IsError)
			}
			if strings.TrimSuffix(text(res), "\n") != strings.TrimSuffix(wantText, "\n") {
				t.Errorf("text\n%s\nwant\n%s", text(res), wantText)
			}
		})
	}
}

// sections splits a golden file of the tools package into its text and
// json sections.
func sections(g string) (text, data string) {
	_, rest, _ := strings.Cut(g, "-- text --\n")
	text, rest, _ = strings.Cut(rest, "-- json --\n")
	data, _, _ = strings.Cut(rest, "\n-- ")
	return text, data
}

// TestElicitation: a write that the policy's ask names is asked of the
// person through MCP elicitation, in both ways the protocol has (multi
// round-trip on the newest version, elicitation/create on older ones);
// yes writes it, no is T3103 and writes nothing; a client that cannot ask
// gets a no; --yes says yes.
func TestElicitation(t *testing.T) {
	policy := filepath.Join(t.TempDir(), "policy.json")
	if err := os.WriteFile(policy, []byte(`{"allow": ["**"], "ask": ["tables/**"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	const edit = `{"path": "tables/orders.ts", "find": "total: money(),", "with": "total: money(), // in cents"}`
	answer := func(action string, yes bool, asked *[]string) *sdk.ClientOptions {
		return &sdk.ClientOptions{ElicitationHandler: func(ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			*asked = append(*asked, req.Params.Message)
			return &sdk.ElicitResult{Action: action, Content: map[string]any{"approve": yes}}, nil
		}}
	}
	tests := []struct {
		name     string
		action   string
		yes      bool
		noAsk    bool   // the client has no elicitation capability
		flag     string // --yes
		protocol string
		wantCode string
		wantText string // the error's text holds it
	}{
		{name: "yes", action: "accept", yes: true},
		{name: "no", action: "accept", yes: false, wantCode: "T3103", wantText: "the person said no"},
		{name: "decline", action: "decline", wantCode: "T3103", wantText: "the person said no"},
		{name: "yes-2025", action: "accept", yes: true, protocol: "2025-11-25"},
		{name: "no-2025", action: "accept", yes: false, protocol: "2025-11-25", wantCode: "T3103"},
		// Nobody was asked, and the text says why, not that they said no.
		{name: "cannot-ask", noAsk: true, wantCode: "T3103", wantText: "nobody was asked whether to edit tables/orders.ts"},
		{name: "cannot-ask-yes-flag", noAsk: true, flag: "--yes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := copyProject(t, "shop")
			before, _ := os.ReadFile(filepath.Join(dir, "tables/orders.ts"))
			var asked []string
			opts := answer(tt.action, tt.yes, &asked)
			if tt.noAsk {
				opts = nil
			}
			var session *sdk.ClientSessionOptions
			if tt.protocol != "" {
				session = &sdk.ClientSessionOptions{ProtocolVersion: tt.protocol}
			}
			args := []string{"--policy", policy, "--caller", "ann"}
			if tt.flag != "" {
				args = append(args, tt.flag)
			}
			cs := connect(t, dir, opts, session, args...)
			res := call(t, cs, "edit", edit)
			if got := errorCode(t, res); got != tt.wantCode {
				t.Fatalf("code %q (%s), want %q", got, text(res), tt.wantCode)
			}
			if !strings.Contains(text(res), tt.wantText) {
				t.Errorf("error %q, want it to say %q", text(res), tt.wantText)
			}
			after, _ := os.ReadFile(filepath.Join(dir, "tables/orders.ts"))
			if changed := string(after) != string(before); changed != (tt.wantCode == "") {
				t.Errorf("file changed: %v", changed)
			}
			if !tt.noAsk {
				if len(asked) != 1 || !strings.Contains(asked[0], "tables/orders.ts") || !strings.Contains(asked[0], "ann") {
					t.Errorf("asked %q, want one question naming ann and tables/orders.ts", asked)
				}
			}
			h := structured(t, call(t, cs, "history", `{}`))
			points, _ := h["points"].([]any)
			recorded := len(points) > 0 && points[0].(map[string]any)["tool"] == "edit"
			if recorded != (tt.wantCode == "") {
				t.Errorf("a point of the edit recorded: %v (%v)", recorded, points)
			}
		})
	}
}

// TestCancel: a call cancelled by the client (notifications/cancelled)
// stops: a run that would spin until its time limit (5 s) is stopped at
// once, and its row is not kept.
func TestCancel(t *testing.T) {
	cs := connect(t, copyProject(t, "run-limits"), nil, nil)
	// A first run opens the run log. (A run cancelled before any other
	// run of the process is not logged: the runner opens its log with the
	// run's context.)
	if res := call(t, cs, "run", `{"name": "positive", "input": {"n": 1}}`); res.IsError {
		t.Fatal(text(res))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 700*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "run", Arguments: json.RawMessage(`{"name": "spin"}`)})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("the cancelled call answered %v", err)
	}
	// The server stopped the run: its log says so, well before the limit.
	var entry map[string]any
	for time.Since(start) < 4*time.Second {
		logs := structured(t, call(t, cs, "logs", `{}`))
		if entries, _ := logs["entries"].([]any); len(entries) > 1 {
			entry = entries[0].(map[string]any)
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if entry == nil {
		t.Fatal("no log entry of the cancelled run within 4 s (the time limit is 5 s)")
	}
	if e, _ := json.Marshal(entry["error"]); !strings.Contains(string(e), "stopped") && !strings.Contains(string(e), "cancel") || entry["ms"].(float64) > 3000 {
		t.Errorf("the cancelled run's log entry: %v", entry)
	}
	rows := structured(t, call(t, cs, "rows", `{"table": "notes"}`))
	if total, _ := rows["total"].(float64); total != 0 {
		t.Errorf("the cancelled run left %v rows: %v", total, rows)
	}
}

// TestProgress: a client that sends a progress token hears of a call
// that works for longer than a moment.
func TestProgress(t *testing.T) {
	var heard []string
	opts := &sdk.ClientOptions{ProgressNotificationHandler: func(ctx context.Context, req *sdk.ProgressNotificationClientRequest) {
		heard = append(heard, req.Params.Message)
	}}
	cs := connect(t, copyProject(t, "run-limits"), opts, nil)
	params := &sdk.CallToolParams{Name: "run", Arguments: json.RawMessage(`{"name": "spin"}`)}
	params.SetProgressToken("p1")
	ctx, cancel := context.WithTimeout(context.Background(), 1300*time.Millisecond)
	defer cancel()
	cs.CallTool(ctx, params)
	if len(heard) < 1 || !strings.HasPrefix(heard[0], "run: working for") {
		t.Errorf("progress heard: %q", heard)
	}
}

// TestResources reads the docs pages and the map as resources.
func TestResources(t *testing.T) {
	cs := connect(t, copyProject(t, "shop"), nil, nil)
	list, err := cs.ListResources(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	uris := map[string]bool{}
	for _, r := range list.Resources {
		uris[r.URI] = true
	}
	for _, want := range []string{"tent://map", "tent://docs/edit", "tent://docs/format", "tent://docs/mcp"} {
		if !uris[want] {
			t.Errorf("resource %s is not listed", want)
		}
	}
	read := func(uri string) string {
		res, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatalf("read %s: %v", uri, err)
		}
		return res.Contents[0].Text
	}
	if m := read("tent://map"); m != text(call(t, cs, "map", `{}`)) {
		t.Errorf("tent://map is not the map tool's answer:\n%s", m)
	}
	if d := read("tent://docs/edit"); d != text(call(t, cs, "docs", `{"topic": "edit"}`)) {
		t.Errorf("tent://docs/edit is not the docs tool's answer")
	}
	if _, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: "tent://docs/nope"}); err == nil {
		t.Error("an unknown page was read")
	}
}

// TestShot: shot's picture comes as image content (image/png) beside its
// data answer, which fits its output schema; with html, the page.
func TestShot(t *testing.T) {
	chromiumtest.Need(t, shot.Find)
	marked := t.TempDir()
	cmd := exec.Command(bin, "mcp", "-C", copyProject(t, "shop"))
	cmd.Env = append(os.Environ(), "TMPDIR="+marked) // the browser's profile, to find its processes
	cs := connectCmd(t, cmd, nil, nil)
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var schema any
	for _, tool := range list.Tools {
		if tool.Name == "shot" {
			schema = tool.OutputSchema
		}
	}
	out := compile(t, "output:shot", schema)
	res := call(t, cs, "shot", `{"path": "/orders/o2", "as": "chen@example.com", "size": "phone"}`)
	if res.IsError {
		t.Fatal(text(res))
	}
	validate(t, "shot's answer", out, res.StructuredContent)
	var pic []byte
	for _, c := range res.Content {
		if img, ok := c.(*sdk.ImageContent); ok && img.MIMEType == "image/png" {
			pic = img.Data
		}
	}
	img, err := png.Decode(bytes.NewReader(pic))
	if err != nil || img.Bounds().Dx() != 390 {
		t.Fatalf("image content: %v %v, want a PNG 390 wide", err, img)
	}
	if b64, _ := structured(t, res)["png"].(string); b64 != base64.StdEncoding.EncodeToString(pic) {
		t.Error("the image content is not the answer's png")
	}
	page := call(t, cs, "shot", `{"path": "/admin", "as": "u2", "html": true}`)
	validate(t, "shot's page", out, page.StructuredContent)
	for _, c := range page.Content {
		if _, ok := c.(*sdk.ImageContent); ok {
			t.Error("the html answer has a picture")
		}
	}
	cs.Close()
	if live := chromiumtest.Live(marked); len(live) > 0 {
		t.Errorf("the server left Chromium running:\n%s", strings.Join(live, "\n"))
	}
}

// TestRunThatSends: a run whose function sends data out is asked of the
// person through elicitation: yes runs it (the mail captured), no is
// T3103 and runs nothing.
func TestRunThatSends(t *testing.T) {
	const run = `{"name": "placeOrder", "as": "alice@example.com", "input": {"buyer": "u1", "items": [{"product": "p1", "quantity": 1}], "shipTo": "12 Rue des Lilas"}}`
	for _, yes := range []bool{true, false} {
		var asked []string
		opts := &sdk.ClientOptions{ElicitationHandler: func(ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			asked = append(asked, req.Params.Message)
			return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"approve": yes}}, nil
		}}
		cs := connect(t, copyProject(t, "shop"), opts, nil)
		res := call(t, cs, "run", run)
		if len(asked) != 1 || !strings.Contains(asked[0], "placeOrder") || !strings.Contains(asked[0], "mail") {
			t.Errorf("asked %q", asked)
		}
		rows := structured(t, call(t, cs, "rows", `{"table": "orders"}`))
		total, _ := rows["total"].(float64)
		if yes {
			sent, _ := structured(t, res)["sent"].([]any)
			if res.IsError || len(sent) != 1 || total != 5 {
				t.Errorf("yes: %s, sent %v, %v orders", text(res), sent, total)
			}
		} else if code := errorCode(t, res); code != "T3103" || total != 4 || !strings.Contains(text(res), "the person did not let placeOrder send data out (mail)") {
			t.Errorf("no: code %q (%s), %v orders", code, text(res), total)
		}
	}
	// A client without elicitation: nobody was asked, the text says why
	// and what the agent's side can do, and no command-line flag.
	cs := connect(t, copyProject(t, "shop"), nil, nil)
	res := call(t, cs, "run", run)
	msg := text(res)
	if code := errorCode(t, res); code != "T3103" || !strings.Contains(msg, "nobody was asked") || !strings.Contains(msg, "no elicitation") ||
		!strings.Contains(msg, `trust: ["run"]`) || strings.Contains(msg, "--yes") || strings.Contains(msg, "command line") {
		t.Errorf("a client that cannot ask: code %q, %q", code, msg)
	}
}

// TestSameHistory: the CLI's points and MCP's are one history: MCP sees
// and undoes a write of the CLI, and the CLI sees MCP's undo.
func TestSameHistory(t *testing.T) {
	dir := copyProject(t, "shop")
	cli := func(args ...string) string {
		out, err := exec.Command(bin, append([]string{"-C", dir}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tent-tools %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	cli("call", "write", `{"path": "lib/fromCLI.ts", "text": "export const fromCLI = 1\n"}`, "--caller", "cli-user")
	cs := connect(t, dir, nil, nil, "--caller", "ann")
	h := structured(t, call(t, cs, "history", `{}`))
	p := h["points"].([]any)[0].(map[string]any)
	if p["who"] != "cli-user" || p["tool"] != "write" {
		t.Errorf("MCP's history does not start with the CLI's write: %v", p)
	}
	if res := call(t, cs, "undo", `{}`); res.IsError {
		t.Fatal(text(res))
	}
	if _, err := os.Stat(filepath.Join(dir, "lib", "fromCLI.ts")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("MCP's undo left the CLI's file: %v", err)
	}
	var ans struct {
		Points []struct {
			Who, Agent, Kind string
		}
	}
	if err := json.Unmarshal([]byte(cli("history", "--json")), &ans); err != nil {
		t.Fatal(err)
	}
	if len(ans.Points) != 2 || ans.Points[0].Kind != "undo" || ans.Points[0].Who != "ann" || ans.Points[0].Agent != "test-agent" {
		t.Errorf("the CLI's history: %+v", ans.Points)
	}
}
