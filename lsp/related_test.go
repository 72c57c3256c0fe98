package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRelatedInformationFollowsItsDefinition: a test data file's finding
// points at its table's definition in another file. A keystroke that
// moves the definition (a line put above it) publishes the test data
// file's diagnostics again with the definition's new place, though the
// test data file and its findings did not change; a keystroke that moves
// nothing they point to publishes nothing of it.
func TestRelatedInformationFollowsItsDefinition(t *testing.T) {
	dir := copyShop(t)
	const data, table = "testdata/categories.json", "tables/categories.ts"
	path := filepath.Join(dir, filepath.FromSlash(data))
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(src), `"slug": "kitchen",`, `"slug": "kitchen", "colour": "red",`, 1)
	if bad == string(src) {
		t.Fatal("the test data changed: no kitchen row")
	}
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	c := start(t, dir)
	c.initialize(fullCapabilities(), map[string]any{"diagnosticDelay": 0})
	relatedLine := func(p published) int {
		for _, d := range p.Diagnostics {
			for _, raw := range d.RelatedInformation {
				var r struct {
					Location struct {
						URI   string `json:"uri"`
						Range struct {
							Start struct{ Line int } `json:"start"`
						} `json:"range"`
					} `json:"location"`
				}
				if json.Unmarshal(raw, &r) == nil && r.Location.URI == c.uri(table) {
					return r.Location.Range.Start.Line
				}
			}
		}
		return -1
	}
	first, _ := c.diagnosticsOf(0, data, func(p published) bool { return relatedLine(p) >= 0 })
	line := relatedLine(first)
	text := c.open(table)
	c.diagnosticsOf(0, table, func(p published) bool { return p.Version != nil && *p.Version == 1 })
	// A line put above the definition moves it: the test data file's
	// related information follows.
	from := c.mark()
	top := map[string]any{"start": pos(0, 0), "end": pos(0, 0)}
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": c.uri(table), "version": 2},
		"contentChanges": []any{map[string]any{"range": top, "text": "// the categories\n"}}})
	moved, _ := c.diagnosticsOf(from, data, func(p published) bool { return relatedLine(p) >= 0 })
	if got := relatedLine(moved); got != line+1 {
		t.Errorf("after a line above the table, the related information is at line %d, want %d", got, line+1)
	}
	_ = text
}
