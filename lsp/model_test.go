package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/tools"
)

// modelOf decodes a tent/model answer's version and table names.
func modelOf(t *testing.T, raw json.RawMessage) (int, []string) {
	t.Helper()
	var m struct {
		Version int `json:"version"`
		Tables  []struct {
			Name string `json:"name"`
		} `json:"tables"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("tent/model: %v: %s", err, raw)
	}
	var names []string
	for _, tb := range m.Tables {
		names = append(names, tb.Name)
	}
	return m.Version, names
}

// TestModel: tent/model answers the model the CLI's `call model` gives
// (the same bytes), its version grows with a change made outside, and
// tent/changed carries the version the next tent/model answers.
func TestModel(t *testing.T) {
	dir := copyShop(t)
	c := start(t, dir)
	c.initialize(fullCapabilities(), nil)
	first := c.must("tent/model", map[string]any{})
	v0, tables := modelOf(t, first)
	if len(tables) != 7 || tables[0] != "categories" {
		t.Fatalf("tent/model tables %v", tables)
	}
	out, err := exec.Command(binary, "-C", dir, "--json", "call", "model").Output()
	if err != nil {
		t.Fatalf("call model: %v", err)
	}
	tag := tagOf(t, first)
	if compact(t, out) != compact(t, withoutTag(t, first)) {
		t.Errorf("call model differs from tent/model:\n%s\n%s", out, first)
	}
	// Asked again with the tag it answered: unchanged, and only that.
	same := c.must("tent/model", map[string]any{"since": tag})
	if want := fmt.Sprintf(`{"version":%d,"tag":%q,"unchanged":true}`, v0, tag); string(same) != want {
		t.Errorf("tent/model since its tag: %s, want %s", same, want)
	}
	if again := c.must("tent/model", map[string]any{"since": "0123"}); string(again) != string(first) {
		t.Errorf("tent/model since another tag: %.200s, want the whole model", again)
	}
	mark := c.mark()
	if out, err := exec.Command(binary, "-C", dir, "rename", "orders.note", "remark").CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	raw, _ := c.waitFor(mark, "tent/changed", func(raw json.RawMessage) bool {
		return strings.Contains(string(raw), "tables/orders.ts")
	})
	var ch tentChanged
	json.Unmarshal(raw, &ch)
	if ch.Version <= v0 {
		t.Errorf("tent/changed version %d, want more than %d", ch.Version, v0)
	}
	second := c.must("tent/model", nil)
	v1, _ := modelOf(t, second)
	if v1 < ch.Version {
		t.Errorf("tent/model version %d after tent/changed told %d", v1, ch.Version)
	}
	if !strings.Contains(string(second), `"name":"remark"`) || !strings.Contains(string(second), `"was":["note"]`) {
		t.Errorf("tent/model after the rename: %s", second)
	}
	if tagOf(t, second) == tag {
		t.Errorf("tent/model after the rename has the tag of before: %s", tag)
	}
	// Since the tag of before the rename: the whole new model.
	if third := c.must("tent/model", map[string]any{"since": tag}); string(third) != string(second) {
		t.Errorf("tent/model since the tag of before: %.200s", third)
	}
	// A buffer's edit moves ranges, not the version: a new tag.
	c.open("tables/orders.ts")
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": c.uri("tables/orders.ts"), "version": 2},
		"contentChanges": []any{map[string]any{"range": map[string]any{"start": map[string]any{"line": 0, "character": 0},
			"end": map[string]any{"line": 0, "character": 0}}, "text": "\n\n"}}})
	edited := c.must("tent/model", map[string]any{"since": tagOf(t, second)})
	if v2, _ := modelOf(t, edited); v2 != v1 || tagOf(t, edited) == tagOf(t, second) {
		t.Errorf("tent/model after a buffer's edit: version %d (before %d), tag %s (before %s)", v2, v1, tagOf(t, edited), tagOf(t, second))
	}
	if _, err := c.call("tent/model", map[string]any{"since": 3}); err == nil || err.Code != -32602 {
		t.Errorf("tent/model since a number: %v", err)
	}
	c.shutdown()
}

// tagOf is the tag of a tent/model answer.
func tagOf(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var m struct {
		Tag string `json:"tag"`
	}
	if err := json.Unmarshal(raw, &m); err != nil || len(m.Tag) != 32 {
		t.Fatalf("tent/model's tag: %v: %.200s", err, raw)
	}
	return m.Tag
}

// withoutTag is a tent/model answer without its tag, which comes first:
// the model tool's answer.
func withoutTag(t *testing.T, raw json.RawMessage) []byte {
	t.Helper()
	rest, ok := bytes.CutPrefix(raw, fmt.Appendf(nil, `{"tag":%q,`, tagOf(t, raw)))
	if !ok {
		t.Fatalf("tent/model's tag is not first: %.200s", raw)
	}
	return append([]byte("{"), rest...)
}

// compact is JSON without its layout.
func compact(t *testing.T, data []byte) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, data); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
	return b.String()
}

// applyOps are the operations the protocol tests apply: every kind of
// file change (a new table file, a new test data file, edits of a table
// and of test data, a flow's steps).
const applyOps = `{"ops": [
 {"op": "addTable", "name": "tags", "columns": {"label": {"type": "text"}}},
 {"op": "addColumn", "table": "orders", "name": "tip", "type": "money", "optional": true},
 {"op": "moveColumn", "column": "orders.tip", "after": "buyer"},
 {"op": "addRow", "table": "tags", "row": {"label": "sale"}},
 {"op": "setRow", "table": "orders", "id": "o1", "set": {"tip": 150}},
 {"op": "moveStep", "flow": "checkout", "from": 2, "to": 0}
]}`

// cliChange runs `tent-tools call change` on a fresh copy and answers its
// files.
func cliChange(t *testing.T, input string) map[string]string {
	t.Helper()
	dir := copyShop(t)
	if out, err := exec.Command(binary, "-C", dir, "call", "change", input).CombinedOutput(); err != nil {
		t.Fatalf("tent-tools call change: %v: %s", err, out)
	}
	return snapshot(t, dir)
}

// commandPoints are the points of a history that are no start.
func commandPoints(t *testing.T, dir string) []tools.PointAnswer {
	var out []tools.PointAnswer
	for _, p := range historyOf(t, dir) {
		if p.Kind != "start" {
			out = append(out, p)
		}
	}
	return out
}

// TestApplyServerMode: the engine writes the files (the bytes `call
// change` writes), one point, and the edit brings the open buffer along.
func TestApplyServerMode(t *testing.T) {
	dir := copyShop(t)
	c := start(t, dir)
	c.initialize(fullCapabilities(), map[string]any{"writes": "server", "caller": "ann"})
	c.open("tables/orders.ts")
	mark := c.mark()
	res := c.must("tent/apply", json.RawMessage(applyOps))
	var ans struct {
		Version int                     `json:"version"`
		Point   *int                    `json:"point"`
		Changed []struct{ Path string } `json:"changed"`
		Edit    json.RawMessage         `json:"edit"`
	}
	json.Unmarshal(res, &ans)
	if ans.Point == nil || len(ans.Changed) == 0 {
		t.Fatalf("tent/apply: %s", res)
	}
	if !strings.Contains(string(ans.Edit), c.uri("tables/orders.ts")) || strings.Contains(string(ans.Edit), "tags.ts") {
		t.Errorf("the edit brings along the open buffer only: %s", ans.Edit)
	}
	if got, want := snapshot(t, dir), cliChange(t, applyOps); !reflect.DeepEqual(got, want) {
		t.Errorf("tent/apply's files differ from call change's:\n%v", diffKeys(got, want))
	}
	points := commandPoints(t, dir)
	if len(points) != 1 || points[0].Tool != "change" || points[0].Who != "ann" {
		t.Errorf("history: %+v; want one point of change by ann", points)
	}
	raw, _ := c.waitFor(mark, "tent/changed", func(raw json.RawMessage) bool { return strings.Contains(string(raw), "tables/tags.ts") })
	var ch tentChanged
	json.Unmarshal(raw, &ch)
	if ch.Version != ans.Version || ch.Point == nil || *ch.Point != *ans.Point {
		t.Errorf("tent/changed %s after tent/apply %s", raw, res)
	}
	c.shutdown()
}

// TestApplyClientMode: the answer is the edit; the engine writes nothing,
// and once the client applied and saved it the saves are one point of
// the kind command, with the bytes `call change` writes.
func TestApplyClientMode(t *testing.T) {
	dir := copyShop(t)
	c := start(t, dir)
	c.initialize(fullCapabilities(), map[string]any{"caller": "ann", "agent": "studio"})
	c.open("tables/orders.ts")
	before := snapshot(t, dir)
	res := c.must("tent/apply", json.RawMessage(applyOps))
	if !reflect.DeepEqual(before, snapshot(t, dir)) {
		t.Fatal("a client-mode tent/apply wrote files")
	}
	var ans struct {
		Point *int            `json:"point"`
		Edit  json.RawMessage `json:"edit"`
	}
	json.Unmarshal(res, &ans)
	if ans.Point != nil || !strings.Contains(string(ans.Edit), `"kind":"create"`) {
		t.Fatalf("client mode's answer: %s; want no point and an edit that creates the new files", res)
	}
	at := c.mark()
	applyEdit(t, dir, ans.Edit)
	c.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": c.uri("tables/orders.ts")}})
	c.waitFor(at, "tent/changed", func(raw json.RawMessage) bool {
		var ch tentChanged
		json.Unmarshal(raw, &ch)
		return ch.Point != nil
	})
	if got, want := snapshot(t, dir), cliChange(t, applyOps); !reflect.DeepEqual(got, want) {
		t.Errorf("the saved files differ from call change's:\n%v", diffKeys(got, want))
	}
	points := commandPoints(t, dir)
	if len(points) != 1 || points[0].Kind != "command" || points[0].Who != "ann" || points[0].Agent != "studio" {
		t.Errorf("history after the saves: %+v; want one point of kind command by ann through studio", points)
	}
	c.shutdown()
}

// TestApplyRefusals: a refusal is the tool's error, with the op's index,
// in both modes; a dry run answers the edit; nothing is written.
func TestApplyRefusals(t *testing.T) {
	for _, writes := range []string{"client", "server"} {
		t.Run(writes, func(t *testing.T) {
			dir := copyShop(t)
			c := start(t, dir)
			c.initialize(fullCapabilities(), map[string]any{"writes": writes, "policy": map[string]any{"deny": []string{"add:table"}}})
			before := snapshot(t, dir)
			for _, tc := range []struct {
				input, code string
				op          int
			}{
				{`{"ops": [{"op": "addColumn", "table": "orders", "name": "a", "type": "text", "colour": 1}]}`, "T9102", 0},
				{`{"ops": [{"op": "addColumn", "table": "orders", "name": "a", "type": "text", "optional": true}, {"op": "setColumn", "column": "patients.nope", "optional": true}]}`, "T9103", 1},
				{`{"ops": [{"op": "addColumn", "table": "orders", "name": "total", "type": "text"}]}`, "T9107", 0},
				{`{"ops": [{"op": "addColumn", "table": "orders", "name": "c", "type": "ref", "ref": "nope"}]}`, "T2003", 0},
				{`{"ops": [{"op": "addRow", "table": "orders", "row": {"total": 1}}]}`, "T2604", 0},
				{`{"ops": [{"op": "addTable", "name": "tags", "columns": {}}]}`, "T9105", -1},
				{`{"ops": [], "extra": 1}`, "T9102", -1},
			} {
				_, err := c.call("tent/apply", json.RawMessage(tc.input))
				wantToolError(t, err, tc.code)
				if tc.op >= 0 && err != nil && !strings.Contains(string(err.Data), fmt.Sprintf(`"op":%d`, tc.op)) {
					t.Errorf("%s: the error's data names no op %d: %s", tc.input, tc.op, err.Data)
				}
			}
			res := c.must("tent/apply", json.RawMessage(`{"ops": [{"op": "setColumn", "column": "orders.shipTo", "optional": true}], "dryRun": true}`))
			if !strings.Contains(string(res), "optional: true") || strings.Contains(string(res), `"point":1`) {
				t.Errorf("a dry run: %s", res)
			}
			if !reflect.DeepEqual(before, snapshot(t, dir)) {
				t.Error("a refused or dry tent/apply wrote files")
			}
			if points := commandPoints(t, dir); len(points) != 0 {
				t.Errorf("points after refusals and a dry run: %+v", points)
			}
			c.shutdown()
		})
	}
}

// diffKeys names the files that differ between two snapshots.
func diffKeys(a, b map[string]string) []string {
	var out []string
	for k, v := range a {
		if b[k] != v {
			out = append(out, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	return out
}

// TestApplyAsks: where ask names what the operations do, the person is
// asked once (window/showMessageRequest) with the change named, in both
// write modes; a yes applies them, a no refuses them (T3103).
func TestApplyAsks(t *testing.T) {
	for _, writes := range []string{"client", "server"} {
		for _, answer := range []string{"Yes", "No"} {
			t.Run(writes+" "+answer, func(t *testing.T) {
				dir := copyShop(t)
				c := start(t, dir)
				asked := make(chan string, 4)
				c.answer = func(method string, params json.RawMessage) any {
					if method == "window/showMessageRequest" {
						asked <- string(params)
						return map[string]any{"title": answer}
					}
					return nil
				}
				c.initialize(fullCapabilities(), map[string]any{"writes": writes, "policy": map[string]any{"ask": []string{"add:column"}}})
				res, err := c.call("tent/apply", json.RawMessage(`{"ops": [{"op": "addColumn", "table": "orders", "name": "tip", "type": "money", "optional": true}]}`))
				if answer == "No" {
					wantToolError(t, err, "T3103")
				} else if err != nil || !strings.Contains(string(res), "tip: money({ optional: true })") && writes == "client" {
					t.Fatalf("tent/apply: %s %v", res, err)
				}
				select {
				case q := <-asked:
					if !strings.Contains(q, "add:column orders.tip") {
						t.Errorf("the question does not name the change: %s", q)
					}
				default:
					t.Error("the person was not asked")
				}
				if len(asked) > 0 {
					t.Errorf("asked more than once")
				}
				c.shutdown()
			})
		}
	}
}

// TestModelOverWebSocket: over the WebSocket, tent/model answers the
// bytes stdio answers (the kept JSON written into its frame), and since
// its tag, unchanged.
func TestModelOverWebSocket(t *testing.T) {
	dir := copyShop(t)
	stdio := start(t, dir)
	stdio.initialize(fullCapabilities(), nil)
	want := stdio.must("tent/model", nil)
	c := dialClient(t, listen(t, "--root", dir), dir)
	c.initialize(fullCapabilities(), nil)
	got := c.must("tent/model", nil)
	if string(got) != string(want) {
		t.Errorf("tent/model over the WebSocket:\n%.300s\nover stdio:\n%.300s", got, want)
	}
	v, _ := modelOf(t, got)
	tag := tagOf(t, got)
	if same := c.must("tent/model", map[string]any{"since": tag}); string(same) != fmt.Sprintf(`{"version":%d,"tag":%q,"unchanged":true}`, v, tag) {
		t.Errorf("tent/model since its tag over the WebSocket: %s", same)
	}
	stdio.shutdown()
}
