package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestStaleQuickFix is the regression of the stale quick fix: a fix
// listed on version 2, a line added above it in version 3, resolved on
// version 3, is refused with T9126 in either mode of writing; the buffer
// and the disk keep their texts (before, the edit turned `columns: {`
// into `usersns: {`). Listed again on version 3, it resolves and fixes.
func TestStaleQuickFix(t *testing.T) {
	for _, writes := range []string{"client", "server"} {
		t.Run(writes, func(t *testing.T) {
			dir := copyShop(t)
			c := start(t, dir)
			c.initialize(fullCapabilities(), map[string]any{"writes": writes})
			text := c.open("tables/orders.ts")
			broken := strings.Replace(text, "ref('users')", "ref('userz')", 1)
			// In the server's mode the engine writes, and refuses to write
			// over unsaved changes (T9120): each version is saved.
			change := func(version int, text string) {
				if writes == "server" {
					if err := os.WriteFile(filepath.Join(dir, "tables", "orders.ts"), []byte(text), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				at := c.mark()
				c.notify("textDocument/didChange", map[string]any{
					"textDocument":   map[string]any{"uri": c.uri("tables/orders.ts"), "version": version},
					"contentChanges": []any{map[string]any{"text": text}},
				})
				c.diagnosticsOf(at, "tables/orders.ts", func(p published) bool {
					return p.Version != nil && *p.Version == version && slices.Contains(p.codes(), "T2003")
				})
			}
			quickFix := func(text string) *codeAction {
				p := posOf(t, text, "userz", 0, 1)
				res := c.must("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": c.uri("tables/orders.ts")},
					"range": map[string]any{"start": p, "end": p}, "context": map[string]any{"diagnostics": []any{}}})
				var actions []codeAction
				json.Unmarshal(res, &actions)
				for i := range actions {
					if actions[i].Kind == "quickfix" {
						return &actions[i]
					}
				}
				t.Fatalf("no quick fix at userz: %s", res)
				return nil
			}
			change(2, broken)
			listed := quickFix(broken)
			moved := "// a line added above\n" + broken
			change(3, moved)
			disk := c.file("tables/orders.ts")
			_, rerr := c.call("codeAction/resolve", listed)
			if rerr == nil || !strings.Contains(rerr.Message, "T9126") {
				t.Fatalf("the stale fix resolved: %v; want T9126", rerr)
			}
			if got := c.file("tables/orders.ts"); got != disk {
				t.Errorf("the refused fix wrote the disk:\n%s", got)
			}
			// Listed on the text as it is, the fix applies.
			res := c.must("codeAction/resolve", quickFix(moved))
			var r codeAction
			json.Unmarshal(res, &r)
			if r.Edit == nil || len(r.Edit.DocumentChanges) != 1 {
				t.Fatalf("the fresh fix: %s", res)
			}
			if writes == "server" && !strings.Contains(c.file("tables/orders.ts"), "ref('users')") {
				t.Errorf("the server's fix left the disk:\n%s", c.file("tables/orders.ts"))
			}
			if writes == "client" && !strings.Contains(string(res), `"newText":"users"`) {
				t.Errorf("the fix's edit: %s", res)
			}
			c.shutdown()
		})
	}
}
