package tools

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
	first, err := w.state.Runner()
	if err != nil {
		t.Fatal(err)
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
	if again, _ := w.state.Runner(); again != first {
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
}

func ptr(s string) *string { return &s }

// TestRunFromAppSnapshot runs in one workspace after another, as one
// command after another does: once the files are left alone, a run reads
// no index (the app snapshot in .tent/cache answers), and a change of any
// file sends the next run back to the index, so every run runs the code
// and the rules as they are now.
func TestRunFromAppSnapshot(t *testing.T) {
	dir := copyProject(t, shopDir)
	type step struct {
		label    string
		change   func()
		fromSnap bool
		want     int // products listed; -1 for T2001
	}
	catalogue := filepath.Join(dir, "functions", "catalogue.ts")
	src := readFile(t, dir, "functions/catalogue.ts")
	const from = "    return rows\n      .filter"
	if !strings.Contains(src, from) {
		t.Fatalf("catalogue.ts lacks %q", from)
	}
	write := func(name, text string) func() {
		return func() {
			if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	wait := func() { time.Sleep(2100 * time.Millisecond) } // out of the racy window
	steps := []step{
		{"first run: files just copied", nil, false, 3},
		{"files left alone, but stamped too soon after the copy", wait, false, 3},
		{"files left alone", nil, true, 3},
		{"again", nil, true, 3},
		{"the function changed", write(catalogue, strings.Replace(src, from, "    return rows.slice(0, 1)\n      .filter", 1)), false, 1},
		{"changed files left alone", wait, false, 1},
		{"from the snapshot again", nil, true, 1},
		{"a second definition of a name", write(filepath.Join(dir, "functions", "again.ts"), "import { fn } from 'tent'\nexport const listProducts = fn({ run: async () => [] })\n"), false, -1},
	}
	for _, s := range steps {
		if s.change != nil {
			s.change()
		}
		w, err := Open(dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		ans, err := call(w, "run", `{"name":"listProducts"}`)
		fromSnap := !w.state.HasIndex()
		w.Close()
		if s.want < 0 {
			wantCode(t, err, "T2001")
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", s.label, err)
		}
		var got []any
		if err := json.Unmarshal(ans.Data.(*runner.Result).Result, &got); err != nil {
			t.Fatalf("%s: %v", s.label, err)
		}
		if len(got) < s.want || s.want == 1 && len(got) != 1 {
			t.Errorf("%s: %d products, want %d", s.label, len(got), s.want)
		}
		if fromSnap != s.fromSnap {
			t.Errorf("%s: ran from the app snapshot = %v, want %v", s.label, fromSnap, s.fromSnap)
		}
		if !s.fromSnap {
			continue
		}
		// rows needs the schema too, not the index.
		w, err = Open(dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		ans, err = call(w, "rows", `{"table":"products","limit":2}`)
		fromSnap = !w.state.HasIndex()
		w.Close()
		if err != nil || len(ans.Data.(*runner.Rows).Rows) != 2 || !fromSnap {
			t.Errorf("%s: rows: %v, %v, from the app snapshot = %v", s.label, ans.Data, err, fromSnap)
		}
	}
}
