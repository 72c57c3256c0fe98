package tools

import (
	"encoding/json"
	"maps"
	"path/filepath"
	"testing"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/policy"
)

// TestHostilePaths runs every tool that takes a path with every kind of
// hostile path, and checks that each is refused with T9105 and that nothing
// outside the project (nor inside it) was written.
func TestHostilePaths(t *testing.T) {
	proj, outside := hostileTree(t)
	w, err := Open(proj, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	base := filepath.Dir(proj)
	before := snapshot(t, base)

	paths := []string{
		"../x", "../outside/secret.txt", "/etc/passwd", filepath.Join(outside, "secret.txt"),
		"a/../../x", "lib/../../outside/secret.txt", "lib/\x00util.ts", `lib\util.ts`,
		".tent/state.txt", ".TENT/state.txt", "state/state.txt", ".git/config",
		"out/secret.txt", "out/new.txt", "lib/up", "lib/deep/esc/secret.txt", "abs", "absin", "loop",
	}
	writeOnly := []string{"Tent.D.ts", "tent.clash.ts", "MCP.LOCK.JSON", "engine.ts", "ENGINE.ts", "eng"}

	type use struct {
		tool  string
		input func(p string) any
		write bool
	}
	uses := []use{
		{"read", func(p string) any { return map[string]any{"path": p} }, false},
		{"read", func(p string) any { return map[string]any{"path": p, "from": 1, "to": 1} }, false},
		{"search", func(p string) any { return map[string]any{"text": "secret", "in": p} }, false},
		{"list", func(p string) any { return map[string]any{"path": p} }, false},
		{"write", func(p string) any { return map[string]any{"path": p, "text": "pwned\n"} }, true},
		{"edit", func(p string) any { return map[string]any{"path": p, "find": "secret", "with": "pwned"} }, true},
		{"edit", func(p string) any {
			return map[string]any{"path": p, "edits": []map[string]string{{"find": "secret", "with": "pwned"}}}
		}, true},
	}
	for _, u := range uses {
		list := paths
		if u.write {
			list = append(append([]string{}, paths...), writeOnly...)
		}
		for _, p := range list {
			input, _ := json.Marshal(u.input(p))
			t.Run(u.tool+" "+p, func(t *testing.T) {
				ans, err := call(w, u.tool, string(input))
				te := wantCode(t, err, diag.T9105)
				if te.Data["path"] != p {
					t.Errorf("the error's path is %v; want %q", te.Data["path"], p)
				}
				if ans.Data != nil || ans.Text != "" {
					t.Errorf("a refused call answered %+v", ans)
				}
			})
		}
	}
	if after := snapshot(t, base); !maps.Equal(before, after) {
		for k, v := range after {
			if before[k] != v {
				t.Errorf("%s changed: %q -> %q", k, before[k], v)
			}
		}
		for k := range before {
			if _, ok := after[k]; !ok {
				t.Errorf("%s was removed", k)
			}
		}
	}
}

// TestInsideLinks checks that links which stay inside the project work,
// and that a write through one lands on its target and keeps the link.
func TestInsideLinks(t *testing.T) {
	proj, _ := hostileTree(t)
	w, err := Open(proj, Options{Policy: &Policy{Also: []string{policy.AlsoEngine}}})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ans, err := call(w, "read", `{"path": "inside/util.ts"}`)
	if err != nil || ans.Data.(ReadAnswer).Path != "lib/util.ts" {
		t.Fatalf("read through an inside link: %+v, %v", ans.Data, err)
	}
	if _, err := call(w, "edit", `{"path": "lib/again", "find": "orders = 1", "with": "orders = 2"}`); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, proj, "tables/orders.ts"); got != "export const orders = 2\n" {
		t.Errorf("tables/orders.ts = %q", got)
	}
	snap := snapshot(t, proj)
	if snap["lib/again"] != "link -> ../tables/orders.ts" {
		t.Errorf("the link was replaced: %q", snap["lib/again"])
	}
	// With also: engine, engine.ts may be written, also through a link.
	if _, err := call(w, "write", `{"path": "eng", "text": "export default engine({})\n"}`); err != nil {
		t.Fatal(err)
	}
}
