package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/defchange"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/history"
)

// clock is a test clock: each reading is one second after the last.
func clock() func() time.Time {
	t := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	return func() time.Time {
		t = t.Add(time.Second)
		return t
	}
}

// mustCall runs a tool and fails t on an error.
func mustCall(t testing.TB, w *Workspace, name, input string) Answer {
	t.Helper()
	ans, err := call(w, name, input)
	if err != nil {
		t.Fatalf("%s %s: %v", name, input, err)
	}
	return ans
}

// asJSON marshals a data answer into a generic value, to read its fields.
func asJSON(t testing.TB, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func editInput(path, find, with string) string {
	b, _ := json.Marshal(map[string]string{"path": path, "find": find, "with": with})
	return string(b)
}

func TestHistoryOfCommandsAndOutside(t *testing.T) {
	w, dir := openCopy(t, Options{Caller: "ann", Agent: "builder", Now: clock()})
	// The first call records the starting state: no point.
	if ans := mustCall(t, w, "history", `{}`); len(ans.Data.(HistoryAnswer).Points) != 0 {
		t.Fatalf("points before any change: %+v", ans.Data)
	}
	ans := mustCall(t, w, "edit", editInput("tables/orders.ts", "total: money()", "total: int()"))
	if p := ans.Data.(Changed).Point; p == nil || *p != 1 {
		t.Fatalf("edit recorded point %v; want 1", p)
	}
	// check reads the index: the files' earlier texts, which the start
	// does not keep, come from it for the outside point's changes.
	mustCall(t, w, "check", `{}`)
	// A change made with no tool is noticed at the next call, as outside.
	p := filepath.Join(dir, "lib", "format.ts")
	src, _ := os.ReadFile(p)
	if err := os.WriteFile(p, append(src, []byte("// touched\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "flows", "fulfilment.ts")); err != nil {
		t.Fatal(err)
	}
	h := mustCall(t, w, "history", `{}`).Data.(HistoryAnswer)
	if len(h.Points) != 2 {
		t.Fatalf("points: %+v", h.Points)
	}
	out, cmd := h.Points[0], h.Points[1]
	if out.Kind != history.KindOutside || out.Point != 2 || out.Who != "" || strings.Join(out.Files, " ") != "flows/fulfilment.ts lib/format.ts" {
		t.Errorf("outside point: %+v", out)
	}
	if !hasChange(out.Changes, "remove", "flow", "fulfilment") {
		t.Errorf("the outside point does not say the flow went: %+v", out.Changes)
	}
	if cmd.Kind != history.KindCommand || cmd.Who != "ann" || cmd.Agent != "builder" || cmd.Tool != "edit" || cmd.Turn != nil ||
		cmd.Summary != "edit tables/orders.ts" || cmd.Time != "2026-03-01T10:00:01Z" {
		t.Errorf("command point: %+v", cmd)
	}
	if !hasChange(cmd.Changes, "change", "column", "orders.total") || !hasChange(cmd.Changes, "change", "table", "orders") {
		t.Errorf("command changes: %+v", cmd.Changes)
	}
	// Nothing changed since: nothing more is recorded; a touch without a
	// change of content is no point either.
	now := time.Now().Add(time.Hour)
	os.Chtimes(p, now, now)
	if h := mustCall(t, w, "history", `{"newest": 1}`).Data.(HistoryAnswer); len(h.Points) != 1 || h.Points[0].Point != 2 {
		t.Errorf("after a touch: %+v", h.Points)
	}
	_, err := call(w, "history", `{"newest": -1}`)
	wantCode(t, err, diag.T9102)
}

// hasChange reports whether a point's changes hold action:kind name.
func hasChange(cs []ChangeSummary, action defchange.Action, kind defchange.Kind, name string) bool {
	for _, c := range cs {
		if c.Action == action && c.Kind == kind && c.Definition == name {
			return true
		}
	}
	return false
}

// TestChangedByAndCompare edits a column's field in several turns of
// several agents, renames it, and asks who changed what.
func TestChangedByAndCompare(t *testing.T) {
	base, dir := openCopy(t, Options{Now: clock()})
	as := func(caller, agent string, turn int) *Workspace {
		return base.With(Options{Caller: caller, Agent: agent, Turn: turn, Now: base.Options().Now})
	}
	mustCall(t, as("ann", "builder", 1), "edit", editInput("tables/orders.ts", "note: text({ optional: true, private: true })", "note: text({ optional: true })"))
	mustCall(t, as("ann", "builder", 1), "edit", editInput("tables/orders.ts", "total: money()", "total: int()"))
	mustCall(t, as("bob", "styler", 2), "edit", editInput("flows/checkout.ts", "'placeOrder', ", ""))
	mustCall(t, as("ann", "builder", 3), "edit", editInput("tables/orders.ts", "note: text({ optional: true })", "note: json({ optional: true })"))
	mustCall(t, as("bob", "styler", 4), "rename", `{"name": "orders.note", "to": "remark"}`)
	_ = dir

	tests := []struct {
		input string
		point int
		who   string
		turn  int
	}{
		{`{"name": "orders.total"}`, 2, "ann", 1},
		{`{"name": "orders", "path": "columns.total.type"}`, 2, "ann", 1},
		{`{"name": "orders.remark"}`, 5, "bob", 4},                            // the rename itself
		{`{"name": "orders.remark", "path": "type"}`, 4, "ann", 3},            // followed back to note
		{`{"name": "orders", "path": "columns.remark.private"}`, 1, "ann", 1}, // back to note, first turn
		{`{"name": "orders.note", "path": "private"}`, 1, "ann", 1},           // by its old name
		{`{"name": "checkout", "path": "steps"}`, 3, "bob", 2},
		{`{"name": "orders"}`, 5, "bob", 4},
	}
	for _, tt := range tests {
		ans, err := call(base, "changedBy", tt.input)
		if err != nil {
			t.Errorf("changedBy %s: %v", tt.input, err)
			continue
		}
		a := ans.Data.(ChangedByAnswer)
		if a.Point != tt.point || a.Who != tt.who || a.Turn == nil || *a.Turn != tt.turn {
			t.Errorf("changedBy %s: point %d by %s turn %v; want %d by %s turn %d", tt.input, a.Point, a.Who, a.Turn, tt.point, tt.who, tt.turn)
		}
	}
	// Nothing found: for a name the project has, that alone; for a likely
	// typo, what there is instead.
	for _, tt := range []struct{ input, message string }{
		{`{"name": "users", "path": "columns.email"}`, "no point changed users columns.email (history lists the points)"},
		{`{"name": "userz"}`, "no point changed userz (history lists the points); no definition is named `userz`; did you mean `users`?"},
		{`{"name": "users.emial"}`, "no point changed users.emial (history lists the points); table `users` has no column `emial`; did you mean `users.email`?"},
	} {
		_, err := call(base, "changedBy", tt.input)
		if te := wantCode(t, err, diag.T9103); !strings.HasPrefix(te.Message, tt.message) {
			t.Errorf("changedBy %s: %q; want it to start %q", tt.input, te.Message, tt.message)
		}
	}

	// compare over a range: points 2 and 3 (after 1, up to 3).
	c := mustCall(t, base, "compare", `{"from": 1, "to": 3}`).Data.(CompareAnswer)
	got := showChanges(c.Changes)
	want := "change:flow checkout [steps: ['reserveStock', 'placeOrder', 'chargeCard'] -> ['reserveStock', 'chargeCard']]\n" +
		"change:table orders [columns.total.type: money -> int]\n" +
		"change:column orders.total [type: money -> int]\n"
	if got != want {
		t.Errorf("compare 1..3:\n%swant\n%s", got, want)
	}
	// The whole history of one column, renamed on the way: its private
	// went, its type changed, its name changed.
	c = mustCall(t, base, "compare", `{"from": 0, "name": "orders.note"}`).Data.(CompareAnswer)
	got = showChanges(c.Changes)
	want = "change:table orders [columns.note.private: true -> ; columns.note.type: text -> json; columns.remark.name: note -> remark; columns.remark.was:  -> 'note']\n" +
		"rename:column orders.note -> orders.remark [private: true -> ; type: text -> json; name: note -> remark; was:  -> 'note']\n"
	if got != want {
		t.Errorf("compare 0.. orders.note:\n%swant\n%s", got, want)
	}
	if c.From != 0 || c.To != 5 {
		t.Errorf("compare answers from %d to %d", c.From, c.To)
	}
	// A name no point changed: nothing, and for a likely typo what
	// there is instead.
	for _, tt := range []struct{ input, want string }{
		{`{"from": 0, "name": "userz"}`, "  nothing changed; no definition is named `userz`; did you mean `users`?\n"},
		{`{"from": 0, "name": "users"}`, "  nothing changed\n"},
	} {
		if got := mustCall(t, base, "compare", tt.input).Text; !strings.HasSuffix(got, tt.want) {
			t.Errorf("compare %s:\n%s\nwant it to end %q", tt.input, got, tt.want)
		}
	}
	_, err := call(base, "compare", `{"from": 9}`)
	wantCode(t, err, diag.T9109)
	_, err = call(base, "compare", `{"from": 3, "to": 2}`)
	wantCode(t, err, diag.T9102)
}

// showChanges writes composed changes one a line, for the tests.
func showChanges(cs []defchange.DefChange) string {
	var b strings.Builder
	for _, c := range cs {
		if c.Kind == defchange.KindFile {
			continue
		}
		fmt.Fprintf(&b, "%s:%s %s", c.Action, c.Kind, c.Definition)
		if c.To != "" {
			fmt.Fprintf(&b, " -> %s", c.To)
		}
		var fs []string
		for _, f := range c.Fields {
			fs = append(fs, fmt.Sprintf("%s: %s -> %s", f.Path, f.Old, f.New))
		}
		if len(fs) > 0 {
			fmt.Fprintf(&b, " [%s]", strings.Join(fs, "; "))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestUndoRedo undoes two changes, then redoes the second undo by undoing
// it, and checks the files and the points after each step.
func TestUndoRedo(t *testing.T) {
	w, dir := openCopy(t, Options{Caller: "ann"})
	start := snapshot(t, dir)
	mustCall(t, w, "edit", editInput("tables/orders.ts", "total: money()", "total: int()"))
	afterOne := snapshot(t, dir)
	mustCall(t, w, "rename", `{"name": "orders", "to": "purchases"}`) // many files, one moved
	afterTwo := snapshot(t, dir)

	undo := func(input string) UndoAnswer {
		t.Helper()
		return mustCall(t, w, "undo", input).Data.(UndoAnswer)
	}
	same := func(step string, want map[string]string) {
		t.Helper()
		got := snapshot(t, dir)
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s: %s differs", step, k)
			}
		}
		for k := range got {
			if _, ok := want[k]; !ok {
				t.Errorf("%s: %s should not be there", step, k)
			}
		}
	}
	a := undo(`{}`)
	if fmt.Sprint(a.Undid) != "[2]" || a.Point == nil || *a.Point != 3 {
		t.Errorf("first undo: %+v", a)
	}
	same("after the first undo", afterOne)
	a = undo(`{}`)
	if fmt.Sprint(a.Undid) != "[1]" || *a.Point != 4 {
		t.Errorf("second undo: %+v", a)
	}
	same("after the second undo", start)
	// Redo the edit by undoing the undo that undid it.
	a = undo(`{"point": 4}`)
	if fmt.Sprint(a.Undid) != "[4]" || *a.Point != 5 {
		t.Errorf("undo of the undo: %+v", a)
	}
	same("after the redo", afterOne)
	// The newest change in effect is the edit again (the rename stays undone).
	a = undo(`{}`)
	if fmt.Sprint(a.Undid) != "[1]" {
		t.Errorf("undo after the redo: %+v", a)
	}
	same("after undoing the redone edit", start)
	// Back to before point 2 from here: the rename was undone already; the
	// undos after it are undone, so the edit comes back.
	a = undo(`{"point": 2}`)
	same("back to before point 2", afterOne)
	h := mustCall(t, w, "history", `{"newest": 1}`).Data.(HistoryAnswer)
	if h.Points[0].Kind != history.KindUndo || h.Points[0].Summary != "undo back to before point 2 (5 points)" {
		t.Errorf("the newest point: %+v", h.Points[0])
	}
	_, err := call(w, "undo", `{"point": 99}`)
	wantCode(t, err, diag.T9109)
	_ = afterTwo
}

func TestUndoNothing(t *testing.T) {
	w, _ := openCopy(t, Options{})
	_, err := call(w, "undo", `{}`)
	wantCode(t, err, diag.T9109)
	mustCall(t, w, "write", `{"path": "lib/new.ts", "text": "export const x = 1\n"}`)
	mustCall(t, w, "undo", `{}`)
	if _, err := os.Stat(filepath.Join(w.Root(), "lib", "new.ts")); !os.IsNotExist(err) {
		t.Errorf("undo of a new file leaves it: %v", err)
	}
	_, err = call(w, "undo", `{}`)
	wantCode(t, err, diag.T9109) // the only change is undone; the undo itself is undone with {point}
}

func TestMove(t *testing.T) {
	w, dir := openCopy(t, Options{})
	ans := mustCall(t, w, "move", `{"path": "lib/money.ts", "to": "lib/currency/money.ts"}`)
	a := ans.Data.(MoveAnswer)
	if a.Point == nil || len(a.Changed) != 6 {
		t.Errorf("move answered %+v", a)
	}
	for _, f := range []string{"functions/catalogue.ts", "functions/orders.ts", "screens/products.tsx", "screens/product.tsx", "screens/order.tsx", "screens/dashboard.tsx"} {
		if !strings.Contains(readFile(t, dir, f), "from '../lib/currency/money'") {
			t.Errorf("%s does not import the moved file", f)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "lib", "money.ts")); !os.IsNotExist(err) {
		t.Error("the file is still at its old path")
	}
	// An index file named by its folder, and a file's own imports.
	mustCall(t, w, "move", `{"path": "tables/index.ts", "to": "lib/tables.ts"}`)
	if got := readFile(t, dir, "functions/users.ts"); !strings.Contains(got, "from '../lib/tables'") {
		t.Errorf("functions/users.ts:\n%s", got)
	}
	if got := readFile(t, dir, "lib/tables.ts"); !strings.Contains(got, "from '../tables/users'") || !strings.Contains(got, "from '../tables/products'") {
		t.Errorf("lib/tables.ts:\n%s", got)
	}
	// The check finds no import left unresolved.
	check := mustCall(t, w, "check", `{}`)
	if strings.Contains(check.Text, "T2503") {
		t.Errorf("unresolved imports after moves:\n%s", check.Text)
	}
	h := mustCall(t, w, "history", `{"newest": 1}`).Data.(HistoryAnswer)
	if !hasChange(h.Points[0].Changes, "rename", "file", "tables/index.ts") {
		t.Errorf("move point: %+v", h.Points[0])
	}
	_, err := call(w, "move", `{"path": "lib/format.ts", "to": "lib/mailer.ts"}`)
	wantCode(t, err, diag.T9107)
	_, err = call(w, "move", `{"path": "lib/nothing.ts", "to": "lib/x.ts"}`)
	wantCode(t, err, diag.T9103)
	_, err = call(w, "move", `{"path": "lib/format.ts", "to": "../x.ts"}`)
	wantCode(t, err, diag.T9105)
}

func TestNotes(t *testing.T) {
	w, dir := openCopy(t, Options{Now: clock()})
	before := snapshot(t, dir)
	mustCall(t, w, "remember", `{"key": "style.quotes", "value": "single"}`)
	mustCall(t, w, "remember", `{"key": "todo", "value": "refunds"}`)
	if a := mustCall(t, w, "remember", `{"key": "todo", "value": "refunds table"}`).Data.(RememberAnswer); a.Created {
		t.Error("a key written twice is new again")
	}
	if a := mustCall(t, w, "recall", `{"key": "todo"}`).Data.(RecallAnswer); a.Value != "refunds table" {
		t.Errorf("recall: %+v", a)
	}
	if a := mustCall(t, w, "keys", `{"prefix": "style."}`).Data.(KeysAnswer); len(a.Keys) != 1 || a.Keys[0].Key != "style.quotes" {
		t.Errorf("keys: %+v", a)
	}
	_, err := call(w, "recall", `{"key": "nothing"}`)
	wantCode(t, err, diag.T9103)
	_, err = call(w, "remember", `{"key": "", "value": "x"}`)
	wantCode(t, err, diag.T9102)
	// Notes are no project files and no points.
	if after := snapshot(t, dir); len(after) != len(before) {
		t.Errorf("notes changed the project's files")
	}
	if h := mustCall(t, w, "history", `{}`).Data.(HistoryAnswer); len(h.Points) != 0 {
		t.Errorf("notes recorded points: %+v", h.Points)
	}
	if _, err := os.Stat(filepath.Join(dir, ".tent", "notes.db")); err != nil {
		t.Error(err)
	}
}

// TestHistoryReadsNeverSeeState checks that the state files are no
// project files for any tool.
func TestStateIsNoProjectFile(t *testing.T) {
	w, _ := openCopy(t, Options{})
	mustCall(t, w, "remember", `{"key": "k", "value": "v"}`)
	mustCall(t, w, "edit", editInput("project.ts", "name: 'shop'", "name: 'store'"))
	for _, input := range []string{`{"path": ".tent/history.db"}`, `{"path": ".tent/notes.db"}`} {
		_, err := call(w, "read", input)
		wantCode(t, err, diag.T9105)
	}
	list := mustCall(t, w, "list", `{"depth": 1}`)
	if strings.Contains(list.Text, ".tent") {
		t.Errorf("list shows .tent:\n%s", list.Text)
	}
	_ = context.Background
}
