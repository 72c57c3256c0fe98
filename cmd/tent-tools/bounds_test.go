package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/internal/projectgen"
	"github.com/tent-tools/tent-tools/internal/sample"
)

// TestWholeLists: the lists an agent's answer (MCP) cuts are whole
// through the binary, on a project of 600 tables: the hub rename's dry
// run diff (every file), compare's changes, changed-by's fields, list's
// entries, model's tables, undo's files; no answer says more.
func TestWholeLists(t *testing.T) {
	texts := map[string]string{}
	for p, src := range projectgen.Generate(projectgen.Options{Tables: 600, Seed: 1}) {
		texts[p] = string(src)
	}
	dir := t.TempDir()
	sample.Write(t, dir, texts)
	rename := `{"ops": [{"op": "rename", "name": "accounts", "to": "members"}]`
	dry := jsonOut(t, dir, "call", "change", rename+`, "dryRun": true}`)
	diff, _ := dry["diff"].(string)
	if files := strings.Count(diff, "\n+++ "); files < 289 || strings.Count(diff, "\n") < 2000 {
		t.Errorf("the dry run's diff: %d files, %d lines; want every file of the rename's", files, strings.Count(diff, "\n"))
	}
	if changed, _ := dry["changed"].([]any); len(changed) <= 200 {
		t.Errorf("the dry run's changed: %d lines", len(changed))
	}
	jsonOut(t, dir, "call", "change", rename+"}")
	var cols []string
	for i := range 57 {
		cols = append(cols, fmt.Sprintf(`"c%02d": {"type": "text"}`, i))
	}
	jsonOut(t, dir, "call", "change", `{"ops": [{"op": "addTable", "name": "wide", "columns": {`+strings.Join(cols, ", ")+`}}]}`)
	answers := map[string]map[string]any{
		"dry run":    dry,
		"compare":    jsonOut(t, dir, "compare", "0", "1"),
		"changed-by": jsonOut(t, dir, "changed-by", "wide"),
		"list":       jsonOut(t, dir, "list", "tables"),
		"model":      jsonOut(t, dir, "call", "model"),
	}
	answers["undo"] = jsonOut(t, dir, "undo", "--to", "1")
	if tables, _ := answers["model"]["tables"].([]any); len(tables) != 601 {
		t.Errorf("model: %d tables, want 601", len(tables))
	}
	if files, _ := answers["undo"]["files"].([]any); len(files) != 291 {
		t.Errorf("undo 1: %d files, want the 291 files both changes wrote", len(files))
	}
	if changes, _ := answers["compare"]["changes"].([]any); len(changes) != 393 {
		t.Errorf("compare: %d changes, want the 393 of the rename", len(changes))
	}
	change, _ := answers["changed-by"]["change"].(map[string]any)
	if fields, _ := change["fields"].([]any); len(fields) != 57 {
		t.Errorf("changed-by: %d fields, want 57", len(fields))
	}
	if entries, _ := answers["list"]["entries"].([]any); len(entries) != 602 || answers["list"]["cut"] != 0.0 {
		t.Errorf("list tables: %d entries, cut %v; want 602, 0", len(entries), answers["list"]["cut"])
	}
	for name, a := range answers {
		if a["more"] != nil {
			t.Errorf("%s through the binary says more: %v", name, a["more"])
		}
	}
}
