package lsp

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
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
	if compact(t, out) != compact(t, first) {
		t.Errorf("call model differs from tent/model:\n%s\n%s", out, first)
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
	c.shutdown()
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
