package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/diag"
)

// TestToolFacts: every tool states its answer's type on its registration
// (MCP's output schema, the typed calls), has its typed call (typed.go),
// and no tool that writes says it is read-only.
func TestToolFacts(t *testing.T) {
	ws := reflect.TypeOf(&Workspace{})
	for _, tool := range All() {
		if _, ok := ws.MethodByName(strings.ToUpper(tool.Name[:1]) + tool.Name[1:]); !ok {
			t.Errorf("tool %s has no typed call on Workspace (typed.go)", tool.Name)
		}
		if tool.Answer == nil {
			t.Errorf("tool %s states no answer type (Tool.Answer)", tool.Name)
		}
		if tool.Writes && tool.ReadOnly {
			t.Errorf("tool %s writes and says it is read-only", tool.Name)
		}
	}
}

// TestTypedAnswersCall: a typed call answers the data Call answers, as
// the same JSON.
func TestTypedAnswersCall(t *testing.T) {
	w, _ := openCopy(t, Options{})
	ctx := context.Background()
	tests := []struct {
		tool, input string
		typed       func() (any, error)
	}{
		{"read", `{"path": "tables/orders.ts", "from": 1, "to": 3}`, func() (any, error) {
			return w.Read(ctx, ReadInput{Path: "tables/orders.ts", From: 1, To: 3})
		}},
		{"search", `{"text": "buyer"}`, func() (any, error) { return w.Search(ctx, SearchInput{Text: "buyer"}) }},
		{"list", `{"path": "tables"}`, func() (any, error) { return w.List(ctx, ListInput{Path: "tables"}) }},
		{"map", `{}`, func() (any, error) { return w.Map(ctx, MapInput{}) }},
		{"check", `{}`, func() (any, error) { return w.Check(ctx, CheckInput{}) }},
		{"docs", `{"topic": "fix"}`, func() (any, error) { return w.Docs(ctx, DocsInput{Topic: "fix"}) }},
	}
	for _, tt := range tests {
		ans, err := call(w, tt.tool, tt.input)
		if err != nil {
			t.Fatalf("%s: %v", tt.tool, err)
		}
		data, err := tt.typed()
		if err != nil {
			t.Fatalf("typed %s: %v", tt.tool, err)
		}
		want, _ := json.Marshal(ans.Data)
		got, _ := json.Marshal(data)
		if string(got) != string(want) {
			t.Errorf("typed %s answers\n%s\nCall answers\n%s", tt.tool, got, want)
		}
	}
}

// TestTypedCallsEnter: a typed call enters the workspace as Call does: a
// write settles it first (the change made outside is recorded as its own
// point before the tool's), and a refusal is the tool's coded error.
func TestTypedCallsEnter(t *testing.T) {
	w, dir := openCopy(t, Options{})
	ctx := context.Background()
	if _, err := w.Write(ctx, WriteInput{Path: "lib/first.ts", Text: "export const first = 1\n"}); err != nil {
		t.Fatal(err) // the history's first point: what follows is told from it
	}
	if err := os.WriteFile(filepath.Join(dir, "lib", "outside.ts"), []byte("export const outside = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ed, err := w.Edit(ctx, EditInput{Path: "project.ts", Find: ptr("The shop:"), With: ptr("The store:")})
	if err != nil {
		t.Fatal(err)
	}
	if ed.Point == nil {
		t.Fatalf("edit recorded no point: %+v", ed)
	}
	h, err := w.History(ctx, HistoryInput{Newest: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Points) != 2 || h.Points[0].Tool != "edit" || h.Points[1].Kind != "outside" {
		t.Errorf("points, newest first: %+v; want edit after the outside change", h.Points)
	}
	_, err = w.Write(ctx, WriteInput{Path: "../x.ts", Text: "x"})
	wantCode(t, err, diag.T9105)
}

// TestFixRefusesMovedText is the stale quick fix: a fix listed on one
// text, applied after a line was added above it, is refused (T9126) and
// writes nothing; applied as the check offers it now, it fixes.
func TestFixRefusesMovedText(t *testing.T) {
	w, dir := openCopy(t, Options{})
	ctx := context.Background()
	if _, err := w.Edit(ctx, EditInput{Path: "tables/orders.ts", Find: ptr("ref('users')"), With: ptr("ref('userz')")}); err != nil {
		t.Fatal(err)
	}
	listed := fixOf(t, w, "T2003")
	if _, err := w.Edit(ctx, EditInput{Path: "tables/orders.ts", Find: ptr("import "), With: ptr("// a line above\nimport ")}); err != nil {
		t.Fatal(err)
	}
	before := readFile(t, dir, "tables/orders.ts")
	_, err := w.Fix(ctx, listed)
	wantCode(t, err, diag.T9126)
	if after := readFile(t, dir, "tables/orders.ts"); after != before {
		t.Fatalf("a refused fix changed the file:\n%s", after)
	}
	// The finding gone is refused the same, where the text still stands.
	gone := listed
	gone.Code = "T2001"
	now := fixOf(t, w, "T2003")
	gone.Start, gone.End, gone.Old = now.Start, now.End, now.Old
	_, err = w.Fix(ctx, gone)
	wantCode(t, err, diag.T9126)
	ans, err := w.Fix(ctx, now)
	if err != nil {
		t.Fatal(err)
	}
	if ans.Point == nil || len(ans.Changed) == 0 || ans.Code != "T2003" {
		t.Errorf("fix answered %+v", ans)
	}
	if got := readFile(t, dir, "tables/orders.ts"); !strings.Contains(got, "ref('users')") || !strings.Contains(got, "// a line above\n") {
		t.Errorf("the fix left:\n%s", got)
	}
	// Again: its text is gone, so nothing more changes.
	_, err = w.Fix(ctx, now)
	wantCode(t, err, diag.T9126)
}

// fixOf is the fix input of the first finding of code with a fix.
func fixOf(t *testing.T, w *Workspace, code string) FixInput {
	t.Helper()
	ctx := context.Background()
	ix, err := w.Index(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ans, err := w.Check(ctx, CheckInput{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ans.Findings {
		if f.Code == code && f.Fix != nil {
			src := ix.File(f.Fix.Path).Src
			return FixInput{Code: code, Path: f.Fix.Path, Start: f.Fix.Start, End: f.Fix.End, Old: string(src[f.Fix.Start:f.Fix.End])}
		}
	}
	t.Fatalf("no %s with a fix", code)
	return FixInput{}
}
