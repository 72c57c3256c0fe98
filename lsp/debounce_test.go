package lsp

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestDiagnosticsWaitForTheLastChange sends a burst of changes, each a
// new version, faster than the session's diagnostic delay: one
// publication comes, of the last version, with the findings of the last
// text (the ref it breaks); none of the versions before it.
func TestDiagnosticsWaitForTheLastChange(t *testing.T) {
	c := start(t, copyShop(t))
	c.initialize(fullCapabilities(), map[string]any{"diagnosticDelay": 400})
	const orders = "tables/orders.ts"
	text := c.open(orders)
	c.diagnosticsOf(0, orders, func(p published) bool { return p.Version != nil && *p.Version == 1 })
	from := c.mark()
	const burst = 10
	at := posOf(t, text, "ref('users')", 0, 9)
	for i := range burst {
		version := i + 2
		change := map[string]any{"range": map[string]any{"start": at, "end": at}, "text": "s"}
		if i == burst-1 { // the last one breaks the ref
			end := map[string]any{"line": at["line"], "character": at["character"].(int) + burst}
			change = map[string]any{"range": map[string]any{"start": at, "end": end}, "text": "z"}
		}
		c.notify("textDocument/didChange", map[string]any{
			"textDocument": map[string]any{"uri": c.uri(orders), "version": version}, "contentChanges": []any{change}})
	}
	last, _ := c.diagnosticsOf(from, orders, func(p published) bool { return p.Version != nil && *p.Version == burst+1 })
	if !slices.Contains(last.codes(), "T2003") {
		t.Errorf("the last version's diagnostics: %v, want T2003 for ref('userz')", last.codes())
	}
	// Its related information points at the definition it is about.
	want := posOf(t, text, "orders = table", 0, 0)
	for _, d := range last.Diagnostics {
		if d.Code != "T2003" {
			continue
		}
		var related []struct {
			Location struct {
				URI   string `json:"uri"`
				Range struct {
					Start struct{ Line, Character int } `json:"start"`
				} `json:"range"`
			} `json:"location"`
		}
		raw, _ := json.Marshal(d.RelatedInformation)
		json.Unmarshal(raw, &related)
		if len(related) != 1 || related[0].Location.URI != c.uri(orders) ||
			related[0].Location.Range.Start.Line != want["line"] || related[0].Location.Range.Start.Character != want["character"] {
			t.Errorf("T2003's related information: %s, want %s at %v", raw, c.uri(orders), want)
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, n := range c.notes[from:] {
		var p published
		if n.Method != "textDocument/publishDiagnostics" || json.Unmarshal(n.Params, &p) != nil || p.URI != c.uri(orders) {
			continue
		}
		if p.Version == nil || *p.Version != burst+1 {
			t.Errorf("a publication of an earlier version came: %s", n.Params)
		}
	}
}

// TestDiagnosticDelayBounds refuses a delay that is negative or too long.
func TestDiagnosticDelayBounds(t *testing.T) {
	for _, delay := range []int{-1, 10_001} {
		c := start(t, copyShop(t))
		params := map[string]any{"processId": nil, "rootUri": c.uri(""), "capabilities": fullCapabilities(),
			"initializationOptions": map[string]any{"diagnosticDelay": delay}}
		_, err := c.call("initialize", params)
		if err == nil || !strings.Contains(err.Message, "T9102") || !strings.Contains(err.Message, "diagnosticDelay") {
			t.Errorf("diagnosticDelay %d: %v, want T9102 naming diagnosticDelay", delay, err)
		}
	}
}
