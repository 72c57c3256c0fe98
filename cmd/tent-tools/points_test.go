package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// jsonOut runs the binary with --json and decodes what it printed.
func jsonOut(t *testing.T, dir string, args ...string) map[string]any {
	t.Helper()
	r := tentTools(t, dir, "", append([]string{"--json"}, args...)...)
	if r.exit != 0 {
		t.Fatalf("%v: exit %d: %s", args, r.exit, r.stderr)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &m); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, r.stdout)
	}
	return m
}

// TestPointCommands runs the history commands through the binary: each
// call a new process, so the history lives only in .tent/.
func TestPointCommands(t *testing.T) {
	dir := shop(t)
	run := func(args ...string) result {
		t.Helper()
		r := tentTools(t, dir, "", args...)
		if r.exit != 0 {
			t.Fatalf("%v: exit %d: %s", args, r.exit, r.stderr)
		}
		return r
	}
	run("--caller", "ann", "edit", "tables/orders.ts", "--find", "total: money()", "--with", "total: int()")
	run("--caller", "bob", "rename", "orders.total", "amount")
	// A change made with no tool is found at the next call.
	p := filepath.Join(dir, "lib", "format.ts")
	src, _ := os.ReadFile(p)
	os.WriteFile(p, append(src, "// by hand\n"...), 0o644)

	h := jsonOut(t, dir, "history")
	points := h["points"].([]any)
	if len(points) != 3 {
		t.Fatalf("points: %v", points)
	}
	kinds := ""
	for _, pt := range points {
		m := pt.(map[string]any)
		kinds += fmt.Sprintf("%v:%v:%v ", m["point"], m["kind"], m["who"])
	}
	if kinds != "3:outside: 2:command:bob 1:command:ann " {
		t.Errorf("points: %s", kinds)
	}
	if r := run("history", "--newest", "1"); !strings.Contains(r.stdout, "point 3") || strings.Contains(r.stdout, "point 2") {
		t.Errorf("history --newest 1:\n%s", r.stdout)
	}
	c := jsonOut(t, dir, "compare", "0", "2", "--name", "orders.total")
	if b, _ := json.Marshal(c["changes"]); !strings.Contains(string(b), `"action":"rename"`) || !strings.Contains(string(b), `"to":"orders.amount"`) ||
		!strings.Contains(string(b), `"path":"columns.amount.name"`) {
		t.Errorf("compare: %s", b)
	}
	cb := jsonOut(t, dir, "changed-by", "orders", "--path", "columns.amount.type")
	if cb["point"] != 1.0 || cb["who"] != "ann" {
		t.Errorf("changed-by: %v", cb)
	}
	// Either spelling of a name, and TO as --to, give the same answers.
	if c2 := jsonOut(t, dir, "compare", "0", "--to", "2", "--name", "orders.total"); fmt.Sprint(c2) != fmt.Sprint(c) {
		t.Errorf("compare 0 --to 2: %v\nwant %v", c2, c)
	}
	if cb2 := jsonOut(t, dir, "changedBy", "orders", "--path", "columns.amount.type"); fmt.Sprint(cb2) != fmt.Sprint(cb) {
		t.Errorf("changedBy: %v\nwant %v", cb2, cb)
	}
	if cb3 := jsonOut(t, dir, "call", "changed-by", `{"name": "orders", "path": "columns.amount.type"}`); fmt.Sprint(cb3) != fmt.Sprint(cb) {
		t.Errorf("call changed-by: %v\nwant %v", cb3, cb)
	}
	u := jsonOut(t, dir, "undo", "--to", "2")
	if fmt.Sprint(u["undid"]) != "[2 3]" || u["point"] != 4.0 {
		t.Errorf("undo --to 2: %v", u)
	}
	if got, _ := os.ReadFile(p); string(got) != string(src) {
		t.Error("undo --to 2 left the outside change")
	}
	jsonOut(t, dir, "undo")
	if got, _ := os.ReadFile(filepath.Join(dir, "tables", "orders.ts")); !strings.Contains(string(got), "total: money()") {
		t.Errorf("two undos leave:\n%s", got)
	}
	run("move", "lib/format.ts", "lib/text/format.ts")
	if got, _ := os.ReadFile(filepath.Join(dir, "screens", "order.tsx")); !strings.Contains(string(got), "from '../lib/text/format'") {
		t.Errorf("move left the import:\n%s", got)
	}
	run("remember", "todo", "refunds")
	if r := run("recall", "todo"); r.stdout != "refunds\n" {
		t.Errorf("recall: %q", r.stdout)
	}
	if r := run("keys", "to"); r.stdout != "todo\n" {
		t.Errorf("keys: %q", r.stdout)
	}

	for _, bad := range [][]string{{"compare"}, {"compare", "x"}, {"undo", "--to", "0"}, {"undo", "3"}, {"move", "a"}, {"recall"}, {"keys", "a", "b"}, {"changed-by"}} {
		if r := tentTools(t, dir, "", bad...); r.exit != 2 {
			t.Errorf("%v: exit %d; want 2", bad, r.exit)
		}
	}
	if r := tentTools(t, dir, "", "undo", "--to", "99"); r.exit != 1 || !strings.Contains(r.stderr, "T9109") {
		t.Errorf("undo --to 99: %d %s", r.exit, r.stderr)
	}
}

// TestPolicyFlags holds the CLI's writes to --policy, with the person's
// answer from the terminal: none here (stdin is no terminal), so no,
// unless --yes.
func TestPolicyFlags(t *testing.T) {
	dir := shop(t)
	os.WriteFile(filepath.Join(dir, "agent.json"), []byte(`{"ask": ["tables/**"], "deny": ["remove:*"]}`), 0o644)
	orders := filepath.Join(dir, "tables", "orders.ts")
	before, _ := os.ReadFile(orders)
	edit := []string{"--policy", "agent.json", "edit", "tables/orders.ts", "--find", "total: money()", "--with", "total: int()"}
	if r := tentTools(t, dir, "", edit...); r.exit != 1 || !strings.Contains(r.stderr, "T3103") {
		t.Errorf("ask without a terminal: exit %d, %s", r.exit, r.stderr)
	}
	if got, _ := os.ReadFile(orders); string(got) != string(before) {
		t.Error("a no wrote the file")
	}
	if r := tentTools(t, dir, "", append(edit, "--yes")...); r.exit != 0 {
		t.Errorf("ask with --yes: exit %d, %s", r.exit, r.stderr)
	}
	if r := tentTools(t, dir, "", "--policy", "agent.json", "--yes", "remove", "reviews"); r.exit != 1 || !strings.Contains(r.stderr, "T9105") {
		t.Errorf("deny: exit %d, %s", r.exit, r.stderr)
	}
}

// TestConcurrentProcesses edits 16 distinct lines of one file from 16
// processes of the CLI at once: every edit lands, each as its own point.
func TestConcurrentProcesses(t *testing.T) {
	dir := t.TempDir()
	var lines []string
	for i := range 16 {
		lines = append(lines, fmt.Sprintf("export const v%02d = 0", i))
	}
	os.MkdirAll(filepath.Join(dir, "lib"), 0o755)
	os.WriteFile(filepath.Join(dir, "lib", "values.ts"), []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	tentTools(t, dir, "", "history") // the starting state
	var wg sync.WaitGroup
	results := make([]result, 16)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = tentTools(t, dir, "", "edit", "lib/values.ts", "--find", fmt.Sprintf("v%02d = 0", i), "--with", fmt.Sprintf("v%02d = %d", i, i+1))
		}()
	}
	wg.Wait()
	for i, r := range results {
		if r.exit != 0 {
			t.Errorf("process %d: exit %d: %s", i, r.exit, r.stderr)
		}
	}
	got, _ := os.ReadFile(filepath.Join(dir, "lib", "values.ts"))
	for i := range 16 {
		if !strings.Contains(string(got), fmt.Sprintf("v%02d = %d\n", i, i+1)) {
			t.Errorf("the edit of process %d was lost:\n%s", i, got)
		}
	}
	h := jsonOut(t, dir, "history", "--newest", "50")
	if n := len(h["points"].([]any)); n != 16 {
		t.Errorf("%d points; want 16", n)
	}
}
