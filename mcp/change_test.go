package mcp_test

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// files reads a project's files, .tent/ left out.
func files(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() && rel == ".tent" {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[filepath.ToSlash(rel)] = string(data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestChangeSameBytes: the change tool through MCP writes the very bytes
// `tent-tools call change` writes for the same operations.
func TestChangeSameBytes(t *testing.T) {
	input := `{"ops": [{"op": "addTable", "name": "tags", "columns": {"label": {"type": "text"}}},
	 {"op": "addColumn", "table": "orders", "name": "tip", "type": "money", "optional": true, "after": "buyer"},
	 {"op": "addRow", "table": "tags", "row": {"label": "sale"}},
	 {"op": "setColumn", "column": "orders.shipTo", "optional": true}]}`
	mcpDir, cliDir := copyProject(t, "shop"), copyProject(t, "shop")
	cs := connect(t, mcpDir, nil, nil)
	if res := call(t, cs, "change", input); res.IsError {
		t.Fatalf("change: %s", text(res))
	}
	if out, err := exec.Command(bin, "-C", cliDir, "call", "change", input).CombinedOutput(); err != nil {
		t.Fatalf("call change: %v: %s", err, out)
	}
	got, want := files(t, mcpDir), files(t, cliDir)
	if !reflect.DeepEqual(got, want) {
		for p := range want {
			if got[p] != want[p] {
				t.Errorf("%s differs between MCP change and call change", p)
			}
		}
	}
	if !strings.Contains(got["tables/tags.ts"], "export const tags = table({") {
		t.Errorf("tables/tags.ts: %q", got["tables/tags.ts"])
	}
}
