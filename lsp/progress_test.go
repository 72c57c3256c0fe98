package lsp

import (
	"encoding/json"
	"strings"
	"testing"
)

// progressNote is one $/progress notification.
type progressNote struct {
	Token json.RawMessage `json:"token"`
	Value struct {
		Kind       string `json:"kind"`
		Title      string `json:"title"`
		Message    string `json:"message"`
		Percentage *int   `json:"percentage"`
	} `json:"value"`
}

// progressOf lists the $/progress notifications of token from the index
// from on.
func (c *client) progressOf(from int, token json.RawMessage) []progressNote {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []progressNote
	for _, n := range c.notes[from:] {
		var p progressNote
		if n.Method == "$/progress" && json.Unmarshal(n.Params, &p) == nil && string(p.Token) == string(token) {
			out = append(out, p)
		}
	}
	return out
}

// TestProgressOfLongWork: the first index of a project without .tent/
// reports its percentage on the token of "Indexing the project", rising
// to 100; the first build of the test database (a run of app code through
// tent/call) comes with a token of its own, begun and ended.
func TestProgressOfLongWork(t *testing.T) {
	c := start(t, copyShop(t))
	c.initialize(fullCapabilities(), nil)
	create, at := c.waitFor(0, "window/workDoneProgress/create", nil)
	var made struct {
		Token json.RawMessage `json:"token"`
	}
	json.Unmarshal(create, &made)
	c.waitFor(at, "$/progress", func(raw json.RawMessage) bool {
		var p progressNote
		json.Unmarshal(raw, &p)
		return string(p.Token) == string(made.Token) && p.Value.Kind == "end"
	})
	notes := c.progressOf(at, made.Token)
	if len(notes) < 3 || notes[0].Value.Kind != "begin" || notes[0].Value.Title != "Indexing the project" {
		t.Fatalf("the first index's progress: %+v", notes)
	}
	last := -1
	for _, n := range notes[1 : len(notes)-1] {
		if n.Value.Kind != "report" || n.Value.Percentage == nil || *n.Value.Percentage < last || !strings.Contains(n.Value.Message, "files") {
			t.Fatalf("a report of the first index: %+v", n.Value)
		}
		last = *n.Value.Percentage
	}
	if last != 100 {
		t.Errorf("the first index's reports end at %d%%, want 100", last)
	}

	from := c.mark()
	c.must("tent/call", map[string]any{"tool": "run", "input": map[string]any{"name": "listProducts", "input": map[string]any{}}})
	c.mu.Lock()
	var token json.RawMessage
	for _, n := range c.notes[from:] {
		if n.Method == "window/workDoneProgress/create" {
			json.Unmarshal(n.Params, &made)
			token = made.Token
		}
	}
	c.mu.Unlock()
	if token == nil {
		t.Fatal("the first build of the test database made no progress token")
	}
	notes = c.progressOf(from, token)
	if len(notes) != 2 || notes[0].Value.Kind != "begin" || !strings.Contains(notes[0].Value.Title, "test database") || notes[1].Value.Kind != "end" {
		t.Errorf("the test database's progress: %+v", notes)
	}
	c.shutdown()
}
