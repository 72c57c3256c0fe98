package tools

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/runner"
)

// TestWarmRunnerFollowsChanges runs through one workspace's kept runner
// while the code changes, outside the tools and through them: every run
// runs the code as it is now, and Close closes the runner.
func TestWarmRunnerFollowsChanges(t *testing.T) {
	w, dir := openCopy(t, Options{})
	const in = `{"name":"listProducts"}`
	count := func(step string) int {
		t.Helper()
		ans, err := call(w, "run", in)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		var got []any
		if err := json.Unmarshal(ans.Data.(*runner.Result).Result, &got); err != nil {
			t.Fatalf("%s: result %s: %v", step, ans.Data.(*runner.Result).Result, err)
		}
		return len(got)
	}
	all := count("first run")
	if all < 3 {
		t.Fatalf("first run: %d products, want 3 or more", all)
	}
	first := w.run
	if first == nil {
		t.Fatal("no runner kept after a run")
	}

	file := filepath.Join(dir, "functions", "catalogue.ts")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	const from = "    return rows\n      .filter"
	if !strings.Contains(string(src), from) {
		t.Fatalf("catalogue.ts lacks %q", from)
	}
	outside := strings.Replace(string(src), from, "    return rows.slice(0, 1)\n      .filter", 1)
	if err := os.WriteFile(file, []byte(outside), 0o644); err != nil {
		t.Fatal(err)
	}
	if n := count("after a change outside"); n != 1 {
		t.Errorf("after a change outside: %d products, want 1", n)
	}

	edit, _ := json.Marshal(EditInput{Path: "functions/catalogue.ts", Find: ptr("rows.slice(0, 1)"), With: ptr("rows.slice(0, 2)")})
	if _, err := call(w, "edit", string(edit)); err != nil {
		t.Fatal(err)
	}
	if n := count("after an edit"); n != 2 {
		t.Errorf("after an edit: %d products, want 2", n)
	}
	if w.run != first {
		t.Error("the runner was made again; want one kept for the workspace")
	}
	if _, err := call(w, "reset", `{}`); err != nil {
		t.Fatal(err)
	}
	if _, err := call(w, "rows", `{"table":"products"}`); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if w.run != nil {
		t.Error("Close kept the runner")
	}
}

func ptr(s string) *string { return &s }
