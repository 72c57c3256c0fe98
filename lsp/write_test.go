package lsp

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/tools"
)

// historyOf answers the project's points through the CLI, newest first.
func historyOf(t *testing.T, dir string) []tools.PointAnswer {
	t.Helper()
	out, err := exec.Command(binary, "-C", dir, "history", "--json").Output()
	if err != nil {
		t.Fatalf("history: %v", err)
	}
	var h tools.HistoryAnswer
	if err := json.Unmarshal(out, &h); err != nil {
		t.Fatalf("history: %v: %s", err, out)
	}
	return h.Points
}

// cliRename runs `tent-tools rename` on a fresh copy and answers its files.
func cliRename(t *testing.T, name, to string) map[string]string {
	t.Helper()
	dir := copyShop(t)
	if out, err := exec.Command(binary, "-C", dir, "rename", name, to).CombinedOutput(); err != nil {
		t.Fatalf("tent-tools rename: %v: %s", err, out)
	}
	return snapshot(t, dir)
}

func TestRenameClientMode(t *testing.T) {
	for _, tc := range []struct {
		name, open, at, to, target string
		shift                      int
	}{
		{"a column, its table open", "tables/orders.ts", "buyer:", "customer", "orders.buyer", 1},
		{"a table with its test data file, one file open", "tables/orders.ts", "orders = table", "purchases", "orders", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyShop(t)
			c := start(t, dir)
			c.initialize(fullCapabilities(), map[string]any{"caller": "ann", "agent": "nvim"})
			text := c.open(tc.open)
			before := snapshot(t, dir)
			res := c.must("textDocument/rename", map[string]any{
				"textDocument": map[string]any{"uri": c.uri(tc.open)}, "position": posOf(t, text, tc.at, 0, tc.shift), "newName": tc.to})
			if !reflect.DeepEqual(before, snapshot(t, dir)) {
				t.Fatal("a client-mode rename wrote files")
			}
			var edit struct {
				DocumentChanges []struct {
					Kind         string `json:"kind"`
					OldURI       string `json:"oldUri"`
					TextDocument struct {
						URI     string `json:"uri"`
						Version *int   `json:"version"`
					} `json:"textDocument"`
				} `json:"documentChanges"`
			}
			json.Unmarshal(res, &edit)
			renames := 0
			for _, dc := range edit.DocumentChanges {
				if dc.Kind == "rename" {
					renames++
				}
				if dc.TextDocument.URI == c.uri(tc.open) && (dc.TextDocument.Version == nil || *dc.TextDocument.Version != 1) {
					t.Errorf("the open document's edit has version %v, want 1", dc.TextDocument.Version)
				}
			}
			if tc.target == "orders" && renames != 1 {
				t.Errorf("a table's rename: %d RenameFile operations, want 1 (its test data file)", renames)
			}
			// The editor applies the edit and saves; the engine hears of it.
			at := c.mark()
			applyEdit(t, dir, res)
			c.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": c.uri(tc.open)}})
			c.waitFor(at, "tent/changed", func(raw json.RawMessage) bool {
				var ch tentChanged
				json.Unmarshal(raw, &ch)
				return ch.Point != nil
			})
			if got, want := snapshot(t, dir), cliRename(t, tc.target, tc.to); !reflect.DeepEqual(got, want) {
				for p := range want {
					if got[p] != want[p] {
						t.Errorf("%s differs from tent-tools rename's", p)
					}
				}
				for p := range got {
					if _, ok := want[p]; !ok {
						t.Errorf("%s is left; tent-tools rename leaves none", p)
					}
				}
			}
			points := historyOf(t, dir)
			var commands []tools.PointAnswer
			for _, p := range points {
				if p.Kind != "start" {
					commands = append(commands, p)
				}
			}
			if len(commands) != 1 || commands[0].Kind != "command" || commands[0].Who != "ann" || commands[0].Agent != "nvim" {
				t.Errorf("history after the saves: %+v; want one point of kind command by ann through nvim", commands)
			}
			c.shutdown()
		})
	}
}

func TestRenameClientModeWithoutResourceOperations(t *testing.T) {
	dir := copyShop(t)
	c := start(t, dir)
	caps := fullCapabilities()
	caps["workspace"] = map[string]any{"workspaceEdit": map[string]any{"documentChanges": true}}
	c.initialize(caps, nil)
	text := c.open("tables/orders.ts")
	at := c.mark()
	res := c.must("textDocument/rename", map[string]any{
		"textDocument": map[string]any{"uri": c.uri("tables/orders.ts")}, "position": posOf(t, text, "orders = table", 0, 1), "newName": "purchases"})
	if strings.Contains(string(res), `"rename"`) {
		t.Errorf("a client without resource operations got a RenameFile: %s", res)
	}
	msg, _ := c.waitFor(at, "window/showMessage", nil)
	if !strings.Contains(string(msg), "testdata/orders.json") || !strings.Contains(string(msg), "testdata/purchases.json") {
		t.Errorf("the message does not name the move the client must make: %s", msg)
	}
	c.shutdown()
}

func TestRenameServerMode(t *testing.T) {
	dir := copyShop(t)
	c := start(t, dir)
	c.initialize(fullCapabilities(), map[string]any{"writes": "server"})
	orders := c.open("tables/orders.ts")
	rename := map[string]any{"textDocument": map[string]any{"uri": c.uri("tables/orders.ts")}, "position": posOf(t, orders, "buyer:", 0, 1), "newName": "customer"}

	// A dirty touched buffer refuses before anything is written.
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": c.uri("tables/orders.ts"), "version": 2},
		"contentChanges": []any{map[string]any{"text": orders + "// not saved\n"}},
	})
	before := snapshot(t, dir)
	_, err := c.call("textDocument/rename", rename)
	wantToolError(t, err, "T9120")
	if !strings.Contains(err.Message, "tables/orders.ts") {
		t.Errorf("the refusal does not name the file: %s", err.Message)
	}
	if !reflect.DeepEqual(before, snapshot(t, dir)) {
		t.Fatal("a refused rename wrote files")
	}
	// Clean again: the engine writes, the edit covers the open buffer only.
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": c.uri("tables/orders.ts"), "version": 3},
		"contentChanges": []any{map[string]any{"text": orders}},
	})
	res := c.must("textDocument/rename", rename)
	var edit struct {
		DocumentChanges []struct {
			TextDocument struct {
				URI     string `json:"uri"`
				Version int    `json:"version"`
			} `json:"textDocument"`
			Edits []textEdit `json:"edits"`
		} `json:"documentChanges"`
	}
	json.Unmarshal(res, &edit)
	if len(edit.DocumentChanges) != 1 || edit.DocumentChanges[0].TextDocument.URI != c.uri("tables/orders.ts") || edit.DocumentChanges[0].TextDocument.Version != 3 {
		t.Fatalf("server mode's edit: %s; want one versioned edit of the open tables/orders.ts", res)
	}
	if got := edit.DocumentChanges[0].Edits[0].NewText; got != c.file("tables/orders.ts") {
		t.Errorf("the edit does not bring the buffer to the disk's new text")
	}
	if want := cliRename(t, "orders.buyer", "customer"); !reflect.DeepEqual(snapshot(t, dir), want) {
		t.Errorf("the engine's writes differ from tent-tools rename's")
	}
	points := historyOf(t, dir)
	if len(points) == 0 || points[0].Kind != "command" || points[0].Tool != "rename" {
		t.Errorf("newest point: %+v", points)
	}
	c.shutdown()
}

func TestAskPolicy(t *testing.T) {
	for _, tc := range []struct {
		name     string
		answer   any
		caps     bool // the client supports showMessageRequest
		yes      bool
		wantCode string
	}{
		{"yes", map[string]any{"title": "Yes"}, true, false, ""},
		{"no", map[string]any{"title": "No"}, true, false, "T3103"},
		{"no answer (null)", nil, true, false, "T3103"},
		{"a client that cannot ask", nil, false, false, "T3103"},
		{"a client that cannot ask, yes set", nil, false, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyShop(t)
			c := start(t, dir)
			asked := make(chan string, 1)
			c.answer = func(method string, params json.RawMessage) any {
				if method == "window/showMessageRequest" {
					asked <- string(params)
					return tc.answer
				}
				return nil
			}
			caps := fullCapabilities()
			if !tc.caps {
				delete(caps, "window")
			}
			c.initialize(caps, map[string]any{"policy": map[string]any{"ask": []string{"rename:column"}}, "yes": tc.yes})
			text := c.open("tables/orders.ts")
			_, err := c.call("textDocument/rename", map[string]any{
				"textDocument": map[string]any{"uri": c.uri("tables/orders.ts")}, "position": posOf(t, text, "buyer:", 0, 1), "newName": "customer"})
			if tc.wantCode != "" {
				wantToolError(t, err, tc.wantCode)
			} else if err != nil {
				t.Fatalf("rename: %v", err)
			}
			select {
			case q := <-asked:
				if !tc.caps || tc.yes {
					t.Errorf("asked where it must not: %s", q)
				}
				if !strings.Contains(q, "rename:column orders.buyer") || !strings.Contains(q, `"Yes"`) {
					t.Errorf("the question does not name the change and the rule: %s", q)
				}
			default:
				if tc.caps && !tc.yes {
					t.Error("the person was not asked")
				}
			}
			c.shutdown()
		})
	}
}

func TestCancelByNumericID(t *testing.T) {
	dir := copyShop(t)
	c := start(t, dir)
	release := make(chan any)
	asked := make(chan struct{}, 1)
	c.answer = func(method string, params json.RawMessage) any {
		if method == "window/showMessageRequest" {
			asked <- struct{}{}
			return <-release
		}
		return nil
	}
	c.initialize(fullCapabilities(), map[string]any{"policy": map[string]any{"ask": []string{"rename:column"}}})
	text := c.open("tables/orders.ts")
	// A rename waits for the person; a hover queued behind it is
	// cancelled before it runs, then the rename itself while it asks.
	renameID, renamed := c.callAsync("textDocument/rename", map[string]any{
		"textDocument": map[string]any{"uri": c.uri("tables/orders.ts")}, "position": posOf(t, text, "buyer:", 0, 1), "newName": "customer"})
	<-asked
	hoverID, hovered := c.callAsync("textDocument/hover", c.docPos("tables/orders.ts", posOf(t, text, "total", 0, 1)))
	c.notify("$/cancelRequest", map[string]any{"id": hoverID})
	c.notify("$/cancelRequest", map[string]any{"id": renameID})
	if _, err := c.wait("rename", renamed); err == nil || err.Code != -32800 {
		t.Errorf("the cancelled rename answered %v; want -32800", err)
	}
	close(release) // the client's late answer to the question is ignored
	if _, err := c.wait("hover", hovered); err == nil || err.Code != -32800 {
		t.Errorf("the cancelled hover answered %v; want -32800", err)
	}
	// The session goes on.
	if _, err := c.call("textDocument/hover", c.docPos("tables/orders.ts", posOf(t, text, "total", 0, 1))); err != nil {
		t.Errorf("hover after the cancels: %v", err)
	}
	if h := historyOf(t, dir); len(h) > 1 {
		t.Errorf("a cancelled rename was recorded: %+v", h)
	}
	c.shutdown()
}

// TestCallMatchesTheGoAPI runs tools through tent/call and through
// tools.Call on two copies and compares the data.
func TestCallMatchesTheGoAPI(t *testing.T) {
	calls := []struct{ tool, input string }{
		{"map", `{}`},
		{"check", `{}`},
		{"read", `{"path": "tables/orders.ts", "from": 3, "to": 6}`},
		{"list", `{"path": "tables"}`},
		{"search", `{"text": "buyer"}`},
		{"schema", `{"name": "orders"}`},
		{"docs", `{"topic": "rename"}`},
		{"rename", `{"name": "orders.note", "to": "remark"}`},
		{"history", `{}`},
		{"compare", `{"from": 1}`},
		{"changedBy", `{"point": 2}`},
		{"undo", `{}`},
		{"nosuchtool", `{}`},
		{"read", `{"path": "../etc/passwd"}`},
		{"rename", `{"name": "orders.buyer"}`},
	}
	apiDir, lspDir := copyShop(t), copyShop(t)
	ws, err := tools.Open(apiDir, tools.Options{Caller: "ann"})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	c := start(t, lspDir)
	c.initialize(fullCapabilities(), map[string]any{"caller": "ann"})
	normal := func(data []byte, dir string) string {
		s := strings.ReplaceAll(string(data), dir, "$ROOT")
		var v any
		json.Unmarshal([]byte(s), &v)
		stripTimes(v)
		out, _ := json.Marshal(v)
		return string(out)
	}
	for i, call := range calls {
		ans, apiErr := tools.Call(context.Background(), ws, call.tool, json.RawMessage(call.input))
		res, lspErr := c.call("tent/call", map[string]any{"tool": call.tool, "input": json.RawMessage(call.input)})
		if apiErr != nil {
			te, _ := json.Marshal(apiErr)
			if lspErr == nil || normal(lspErr.Data, lspDir) != normal(te, apiDir) {
				t.Errorf("%d %s: the Go API answers the error %s; tent/call %v", i, call.tool, te, lspErr)
			}
			continue
		}
		if lspErr != nil {
			t.Errorf("%d %s: tent/call answers %v; the Go API %s", i, call.tool, lspErr, ans.Text)
			continue
		}
		var got struct {
			Text string          `json:"text"`
			Data json.RawMessage `json:"data"`
		}
		json.Unmarshal(res, &got)
		want, _ := json.Marshal(ans.Data)
		if normal(got.Data, lspDir) != normal(want, apiDir) {
			t.Errorf("%d %s: tent/call's data differs from the Go API's:\n%s\n%s", i, call.tool, normal(got.Data, lspDir), normal(want, apiDir))
		}
		if got.Text == "" {
			t.Errorf("%d %s: no text", i, call.tool)
		}
	}
	// workspace/executeCommand tent.call is the same door.
	res, err2 := c.call("workspace/executeCommand", map[string]any{"command": "tent.call", "arguments": []any{"list", map[string]any{"path": "tables"}}})
	if err2 != nil || !strings.Contains(string(res), `"data"`) {
		t.Errorf("executeCommand tent.call: %s %v", res, err2)
	}
	_, err2 = c.call("workspace/executeCommand", map[string]any{"command": "tent.call", "arguments": []any{"nosuchtool", map[string]any{}}})
	wantToolError(t, err2, "T9101")
	c.shutdown()
}

// stripTimes drops the "time" fields (a point's clock) from decoded JSON.
func stripTimes(v any) {
	switch x := v.(type) {
	case map[string]any:
		delete(x, "time")
		for _, e := range x {
			stripTimes(e)
		}
	case []any:
		for _, e := range x {
			stripTimes(e)
		}
	}
}

func TestCodeActions(t *testing.T) {
	dir := copyShop(t)
	c := start(t, dir)
	c.initialize(fullCapabilities(), nil)
	text := c.open("tables/orders.ts")
	broken := strings.Replace(text, "ref('users')", "ref('userz')", 1)
	at := c.mark()
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": c.uri("tables/orders.ts"), "version": 2},
		"contentChanges": []any{map[string]any{"text": broken}},
	})
	c.diagnosticsOf(at, "tables/orders.ts", func(p published) bool { return slices.Contains(p.codes(), "T2003") })
	p := posOf(t, broken, "userz", 0, 1)
	res := c.must("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": c.uri("tables/orders.ts")},
		"range": map[string]any{"start": p, "end": p}, "context": map[string]any{"diagnostics": []any{}}})
	var actions []codeAction
	json.Unmarshal(res, &actions)
	p = posOf(t, broken, "buyer:", 0, 1)
	res = c.must("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": c.uri("tables/orders.ts")},
		"range": map[string]any{"start": p, "end": p}, "context": map[string]any{"diagnostics": []any{}, "only": []string{"refactor"}}})
	var refactors []codeAction
	json.Unmarshal(res, &refactors)
	var fix, remove *codeAction
	for i := range actions {
		if actions[i].Kind == "quickfix" {
			fix = &actions[i]
		}
	}
	for i := range refactors {
		if strings.HasPrefix(refactors[i].Title, "Remove column orders.buyer") {
			remove = &refactors[i]
		}
	}
	if fix == nil || !fix.IsPreferred || len(fix.Diagnostics) != 1 || fix.Diagnostics[0].Code != "T2003" || fix.Edit != nil {
		t.Fatalf("the quick fix: %+v (want preferred, tied to T2003, resolved lazily)", fix)
	}
	if remove == nil || remove.Edit != nil || remove.Kind != "refactor" {
		t.Fatalf("the remove refactor: %+v", remove)
	}
	resolved := c.must("codeAction/resolve", fix)
	var r codeAction
	json.Unmarshal(resolved, &r)
	if r.Edit == nil || len(r.Edit.DocumentChanges) != 1 {
		t.Fatalf("the resolved fix: %s", resolved)
	}
	resolved = c.must("codeAction/resolve", remove)
	if !strings.Contains(string(resolved), `"newText":", 'buyer'"`) {
		t.Errorf("the resolved remove does not state the column in removed: %s", resolved)
	}
	c.shutdown()
}

func TestProgressAndChanged(t *testing.T) {
	dir := copyShop(t)
	c := start(t, dir)
	c.initialize(fullCapabilities(), nil)
	create, at := c.waitFor(0, "window/workDoneProgress/create", nil)
	var token struct {
		Token json.RawMessage `json:"token"`
	}
	json.Unmarshal(create, &token)
	for _, kind := range []string{"begin", "end"} {
		c.waitFor(at, "$/progress", func(raw json.RawMessage) bool {
			var p struct {
				Token json.RawMessage `json:"token"`
				Value struct {
					Kind string `json:"kind"`
				} `json:"value"`
			}
			json.Unmarshal(raw, &p)
			return string(p.Token) == string(token.Token) && p.Value.Kind == kind
		})
	}
	// A change made outside (the CLI) is told with its point.
	mark := c.mark()
	if out, err := exec.Command(binary, "-C", dir, "rename", "orders.note", "remark").CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	raw, _ := c.waitFor(mark, "tent/changed", func(raw json.RawMessage) bool {
		return strings.Contains(string(raw), "tables/orders.ts")
	})
	var ch tentChanged
	json.Unmarshal(raw, &ch)
	if ch.Point == nil || *ch.Point < 1 {
		t.Errorf("tent/changed: %s; want a point", raw)
	}
	// A tool's call through tent/call is told too.
	mark = c.mark()
	c.must("tent/call", map[string]any{"tool": "undo", "input": map[string]any{}})
	c.waitFor(mark, "tent/changed", func(raw json.RawMessage) bool { return strings.Contains(string(raw), "tables/orders.ts") })
	c.shutdown()
	os.RemoveAll(dir)
}

// TestWatchedFilesThroughTheClient: a client that registers watched files
// dynamically is asked to, and its didChangeWatchedFiles brings the
// change made outside (the server then watches nothing itself).
func TestWatchedFilesThroughTheClient(t *testing.T) {
	dir := copyShop(t)
	c := start(t, dir)
	caps := fullCapabilities()
	caps["workspace"] = map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}
	c.initialize(caps, nil)
	reg, _ := c.waitFor(0, "client/registerCapability", nil)
	if !strings.Contains(string(reg), "workspace/didChangeWatchedFiles") {
		t.Fatalf("registration: %s", reg)
	}
	// The first index (and the history's starting state) is done.
	c.waitFor(0, "$/progress", func(raw json.RawMessage) bool { return strings.Contains(string(raw), `"end"`) })
	mark := c.mark()
	if err := os.WriteFile(dir+"/lib/extra.ts", []byte("export const x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": c.uri("lib/extra.ts"), "type": 1}}})
	raw, _ := c.waitFor(mark, "tent/changed", func(raw json.RawMessage) bool { return strings.Contains(string(raw), "lib/extra.ts") })
	var ch tentChanged
	json.Unmarshal(raw, &ch)
	if ch.Point == nil {
		t.Errorf("tent/changed without its point: %s", raw)
	}
	c.shutdown()
}

// TestCodeActionsWithoutResolve: a client that cannot resolve lazily gets
// the fix's edit at once, and the removal as the tent.call command.
func TestCodeActionsWithoutResolve(t *testing.T) {
	c := start(t, copyShop(t))
	caps := fullCapabilities()
	delete(caps, "textDocument")
	c.initialize(caps, nil)
	text := c.open("tables/orders.ts")
	broken := strings.Replace(text, "ref('users')", "ref('userz')", 1)
	c.notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": c.uri("tables/orders.ts"), "version": 2}, "contentChanges": []any{map[string]any{"text": broken}}})
	p := posOf(t, broken, "userz", 0, 1)
	raw := c.must("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": c.uri("tables/orders.ts")},
		"range": map[string]any{"start": p, "end": p}, "context": map[string]any{"diagnostics": []any{}}})
	var actions []struct {
		Kind string          `json:"kind"`
		Edit json.RawMessage `json:"edit"`
	}
	json.Unmarshal(raw, &actions)
	if len(actions) == 0 || actions[0].Kind != "quickfix" || !strings.Contains(string(actions[0].Edit), `"newText":"users"`) {
		t.Fatalf("the fix without resolve: %s", raw)
	}
	p = posOf(t, broken, "total:", 0, 1)
	var refactors []codeAction
	json.Unmarshal(c.must("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": c.uri("tables/orders.ts")},
		"range": map[string]any{"start": p, "end": p}, "context": map[string]any{"diagnostics": []any{}, "only": []string{"refactor"}}}), &refactors)
	if len(refactors) != 1 || refactors[0].Command == nil || refactors[0].Command.Command != "tent.call" || refactors[0].Edit != nil {
		t.Fatalf("the removal without resolve: %+v", refactors)
	}
	c.shutdown()
}
