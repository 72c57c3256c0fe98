package tools

import (
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/runner"
)

// TestRefactorsKeepData: a rename's undo, a rename back and a remove's
// undo leave the test database usable with its rows, those a run wrote
// between the steps too: check reports no T2011, rows and run work
// without a reset.
func TestRefactorsKeepData(t *testing.T) {
	review := `{"name":"addReview","as":"u3","input":{"product":"p1","rating":4,"body":"kept"}}`
	tests := []struct {
		name  string
		steps []string // tool:input, in order, after a first run
	}{
		{"rename then undo", []string{`rename:{"name":"reviews.body","to":"text"}`, `rows:{"table":"reviews"}`, `undo:{}`}},
		{"rename then rename back", []string{`rename:{"name":"reviews.body","to":"text"}`, `rows:{"table":"reviews"}`, `rename:{"name":"reviews.text","to":"body"}`}},
		{"rename table then undo", []string{`rename:{"name":"reviews","to":"opinions"}`, `rows:{"table":"opinions"}`, `undo:{}`}},
		{"remove then undo", []string{`remove:{"name":"reviews.body"}`, `rows:{"table":"reviews"}`, `undo:{}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, _ := openCopy(t, Options{})
			if _, err := call(w, "run", review); err != nil {
				t.Fatal(err)
			}
			for _, s := range tt.steps {
				tool, input, _ := strings.Cut(s, ":")
				if _, err := call(w, tool, input); err != nil {
					t.Fatalf("%s: %v", s, err)
				}
			}
			ans, err := call(w, "check", `{}`)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(ans.Text, "T2011") {
				t.Fatalf("check after %s:\n%s", tt.name, ans.Text)
			}
			if _, err := call(w, "run", review); err != nil {
				t.Fatalf("run after %s: %v", tt.name, err)
			}
			ans, err = call(w, "rows", `{"table":"reviews"}`)
			if err != nil {
				t.Fatal(err)
			}
			rows := ans.Data.(*runner.Rows)
			if rows.Total != 6 {
				t.Fatalf("reviews has %d rows, want the 4 of the test data and the 2 runs':\n%s", rows.Total, ans.Text)
			}
			kept := 0
			for _, r := range rows.Rows {
				if strings.Contains(string(r), `"body":"kept"`) {
					kept++
				}
			}
			if kept != 2 {
				t.Errorf("%d rows keep the body the runs wrote, want 2:\n%s", kept, ans.Text)
			}
		})
	}
}
