package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/change/changetest"
	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/remove"
	"github.com/tent-tools/tent-tools/rename"
)

// refactorDir is the sample project of the refactor tests.
const refactorDir = "../testdata/projects/refactor-basic"

// openRefactor opens a workspace over a copy of refactor-basic and returns
// it with the copy's files as they were.
func openRefactor(t *testing.T) (*Workspace, string, map[string][]byte) {
	t.Helper()
	dir := copyProject(t, refactorDir)
	w, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w, dir, changetest.Load(t, dir)
}

// goldenAnswer returns the answer part of a golden of package rename or
// remove: the JSON after "=== answer".
func goldenAnswer(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, answer, ok := strings.Cut(string(b), "=== answer\n")
	if !ok {
		t.Fatalf("%s holds no answer", path)
	}
	return answer
}

// TestRefactorTools runs rename and remove through Call on a copy of the
// project, and checks that the disk ends as the planned set leaves the files
// in memory, and that the data answer is the one of the engine's golden:
// the tool and the Go API cannot drift apart.
func TestRefactorTools(t *testing.T) {
	tests := []struct {
		tool, input, golden string
	}{
		{"rename", `{"name": "orders", "to": "purchases"}`, "../rename/testdata/table-orders.golden"},
		{"rename", `{"name": "orders.buyer", "to": "customer"}`, "../rename/testdata/column-buyer.golden"},
		{"rename", `{"name": "orders.placedAt", "to": "created"}`, "../rename/testdata/column-back-to-was.golden"},
		{"remove", `{"name": "orders.buyer"}`, "../remove/testdata/column-buyer.golden"},
		{"remove", `{"name": "orders"}`, "../remove/testdata/table-own-file.golden"},
		{"remove", `{"name": "categories"}`, "../remove/testdata/table-neighbour.golden"},
		{"remove", `{"path": "tables/catalog.ts"}`, "../remove/testdata/file-two-tables.golden"},
	}
	for _, tt := range tests {
		t.Run(tt.tool+" "+tt.input, func(t *testing.T) {
			w, dir, before := openRefactor(t)
			ans, err := call(w, tt.tool, tt.input)
			if err != nil {
				t.Fatal(err)
			}
			got, err := JSON(ans.Data)
			if err != nil {
				t.Fatal(err)
			}
			// The engine's goldens plan without writing, so their point is
			// null; the tool records point 1.
			recorded := strings.Replace(string(got), "\n  \"point\": 1\n}", "\n  \"point\": null\n}", 1)
			if recorded == string(got) {
				t.Errorf("the answer records no point 1:\n%s", got)
			}
			got = []byte(recorded)
			if want := goldenAnswer(t, tt.golden); string(got) != want {
				t.Errorf("answer differs from %s\n--- got\n%s--- want\n%s", tt.golden, got, want)
			}
			if ans.Text == "" {
				t.Error("no text answer")
			}
			// The disk holds what the plan on the same files leaves in memory.
			ix := definitions.FromFiles(context.Background(), before)
			var in struct{ Name, To, Path string }
			json.Unmarshal([]byte(tt.input), &in)
			var s *change.Set
			switch {
			case tt.tool == "rename":
				s, err = rename.Plan(context.Background(), ix, in.Name, in.To)
			default:
				s, err = planRemove(ix, in.Name, in.Path)
			}
			if err != nil {
				t.Fatal(err)
			}
			want, err := changetest.ApplyInMemory(before, s)
			if err != nil {
				t.Fatal(err)
			}
			sameFiles(t, changetest.Load(t, dir), want)
		})
	}
}

// sameFiles fails t where two file maps differ.
func sameFiles(t *testing.T, got, want map[string][]byte) {
	t.Helper()
	for p := range got { // the framework's state is no project file
		if strings.HasPrefix(p, ".tent/") {
			delete(got, p)
		}
	}
	for p, b := range want {
		if g, ok := got[p]; !ok {
			t.Errorf("%s is missing", p)
		} else if !bytes.Equal(g, b) {
			t.Errorf("%s differs:\n%s\nwant\n%s", p, g, b)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("%s should not be there", p)
		}
	}
}

func TestRemoveInput(t *testing.T) {
	w, dir, _ := openRefactor(t)
	_, err := call(w, "remove", `{}`)
	wantCode(t, err, diag.T9102)
	_, err = call(w, "remove", `{"name": "orders", "path": "tables/orders.ts"}`)
	wantCode(t, err, diag.T9102)
	_, err = call(w, "remove", `{"path": "tables/nothing.ts"}`)
	wantCode(t, err, diag.T9103)
	_, err = call(w, "remove", `{"path": "../outside.ts"}`)
	wantCode(t, err, diag.T9105)
	_, err = call(w, "remove", `{"path": "lib"}`)
	wantCode(t, err, diag.T9102)
	// A file the index does not read is simply deleted.
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("# x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ans, err := call(w, "remove", `{"path": "README.md"}`)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "README.md")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("README.md is still there: %v", err)
	}
	if got := ans.Data.(*remove.Answer).Deleted; len(got) != 1 || got[0] != "README.md" {
		t.Errorf("deleted %v", got)
	}
}

// planRemove plans a removal by name or by path.
func planRemove(ix *definitions.Index, name, path string) (*change.Set, error) {
	if path != "" {
		return remove.PlanFile(ix, path)
	}
	return remove.Plan(ix, name)
}
