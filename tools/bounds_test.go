package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tent-tools/tent-tools/check"
	"github.com/tent-tools/tent-tools/defchange"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/projectgen"
	"github.com/tent-tools/tent-tools/internal/sample"
	"github.com/tent-tools/tent-tools/rename"
)

// TestBound: a list within its budget is whole; beyond it, cut to the
// budget with the count left out; from skips, and a paged list says the
// from of the next items; an unbounded view keeps every item past from.
func TestBound(t *testing.T) {
	list := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	for _, tc := range []struct {
		name          string
		bounded       bool
		from, budget  int
		paged         bool
		want          []int
		wantCut, next int // next: the More's From
	}{
		{name: "within", bounded: true, budget: 10, want: list},
		{name: "cut", bounded: true, budget: 4, want: []int{0, 1, 2, 3}, wantCut: 6},
		{name: "paged", bounded: true, budget: 4, paged: true, want: []int{0, 1, 2, 3}, wantCut: 6, next: 4},
		{name: "from", bounded: true, from: 4, budget: 4, paged: true, want: []int{4, 5, 6, 7}, wantCut: 2, next: 8},
		{name: "last page", bounded: true, from: 8, budget: 4, paged: true, want: []int{8, 9}},
		{name: "past the end", bounded: true, from: 12, budget: 4, paged: true, want: []int{}},
		{name: "unbounded", from: 3, budget: 2, want: []int{3, 4, 5, 6, 7, 8, 9}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var more []diag.More
			got := bound(tc.bounded, &more, "items", list, tc.from, tc.budget, "ask again", tc.paged)
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("kept %v, want %v", got, tc.want)
			}
			switch {
			case tc.wantCut == 0 && len(more) > 0:
				t.Errorf("more %+v for a list within its budget", more)
			case tc.wantCut > 0 && (len(more) != 1 || more[0].Cut != tc.wantCut || more[0].From != tc.next || more[0].Shown != len(tc.want)):
				t.Errorf("more %+v, want cut %d, from %d, shown %d", more, tc.wantCut, tc.next, len(tc.want))
			}
		})
	}
}

// TestAgentAnswersWithinBudgets: an agent's view (Options.Bounded) answers the hub's
// rename, its point in history and a check with many findings within
// their budgets, each cut list counted with how to ask for the rest; the
// rest asked for (check's from) gives exactly the findings left out.
func TestAgentAnswersWithinBudgets(t *testing.T) {
	dir := t.TempDir()
	files := projectgen.Generate(projectgen.Options{Tables: 500, Seed: 1})
	texts := map[string]string{}
	for p, src := range files {
		texts[p] = string(src)
	}
	for i := range 130 {
		texts[fmt.Sprintf("lib/broken%03d.ts", i)] = "export const = ;\n"
	}
	sample.Write(t, dir, texts)
	whole, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer whole.Close()
	w := whole.With(Options{Bounded: true})
	ctx := context.Background()

	// The rename's whole answer, planned, beside the bounded one applied.
	ix, err := whole.Index(ctx)
	if err != nil {
		t.Fatal(err)
	}
	set, err := rename.Plan(ctx, ix, "accounts", "members")
	if err != nil {
		t.Fatal(err)
	}
	full, err := rename.NewAnswer(set)
	if err != nil {
		t.Fatal(err)
	}
	if len(full.Changed) <= budgetLines {
		t.Fatalf("the hub's rename changes %d lines: no test of the budget of %d", len(full.Changed), budgetLines)
	}
	ans, err := call(w, "rename", `{"name": "accounts", "to": "members"}`)
	if err != nil {
		t.Fatal(err)
	}
	a, err := dataOf[rename.Answer]("rename", ans.Data)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Changed) != budgetLines || len(a.Left) > budgetSites {
		t.Errorf("bounded rename: %d changed lines, %d sites left; budgets %d, %d", len(a.Changed), len(a.Left), budgetLines, budgetSites)
	}
	if m := findMore(a.More, "changed"); m == nil || m.Cut != len(full.Changed)-budgetLines || !strings.Contains(m.Rest, "compare") {
		t.Errorf("rename's more %+v, want changed cut by %d with how to ask", a.More, len(full.Changed)-budgetLines)
	}
	if !strings.Contains(ans.Text, "more not shown") {
		t.Errorf("the text says nothing of what it left out:\n%s", ans.Text)
	}
	data, _ := json.Marshal(a)
	if len(data) > 64<<10 {
		t.Errorf("the bounded rename's data is %d bytes", len(data))
	}

	// Its point in history: at most budgetPointItems files.
	ans, err = call(w, "history", `{"newest": 1}`)
	if err != nil {
		t.Fatal(err)
	}
	h, err := dataOf[HistoryAnswer]("history", ans.Data)
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Points) != 1 || len(h.Points[0].Files) != budgetPointItems || findMore(h.Points[0].More, "files") == nil {
		t.Errorf("history of the rename: %+v", h.Points)
	}

	// check: 100 findings, then the rest from 100; together the whole.
	wholeAns, err := call(whole, "check", `{}`)
	if err != nil {
		t.Fatal(err)
	}
	whole0, err := dataOf[check.Answer]("check", wholeAns.Data)
	if err != nil {
		t.Fatal(err)
	}
	all := whole0.Findings
	if len(all) <= budgetFindings {
		t.Fatalf("%d findings: no test of the budget", len(all))
	}
	var got []diag.Finding
	from := 0
	for page := 0; ; page++ {
		ans, err := call(w, "check", fmt.Sprintf(`{"from": %d}`, from))
		if err != nil {
			t.Fatal(err)
		}
		c, err := dataOf[check.Answer]("check", ans.Data)
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Findings) > budgetFindings {
			t.Fatalf("page %d holds %d findings", page, len(c.Findings))
		}
		got = append(got, c.Findings...)
		m := findMore(c.More, "findings")
		if m == nil {
			break
		}
		if m.From != from+len(c.Findings) || m.Cut != len(all)-m.From {
			t.Fatalf("page %d: more %+v", page, m)
		}
		from = m.From
	}
	if fmt.Sprint(got) != fmt.Sprint(all) {
		t.Errorf("the pages hold %d findings, the whole check %d, or in another order", len(got), len(all))
	}
}

// findMore is the More of the list name, or nil.
func findMore(more []diag.More, name string) *diag.More {
	for i := range more {
		if more[i].List == name {
			return &more[i]
		}
	}
	return nil
}

// TestDiffPages: a bounded dry run's diff holds whole files within
// budgetDiffLines and says the from of the next; its pages, asked for in
// turn, are the unbounded diff, file by file.
func TestDiffPages(t *testing.T) {
	dir := t.TempDir()
	texts := map[string]string{}
	for p, src := range projectgen.Generate(projectgen.Options{Tables: 300, Seed: 1}) {
		texts[p] = string(src)
	}
	sample.Write(t, dir, texts)
	whole, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer whole.Close()
	w := whole.With(Options{Bounded: true})
	const ops = `"ops": [{"op": "rename", "name": "accounts", "to": "members"}], "dryRun": true`
	ans, err := call(whole, "change", "{"+ops+"}")
	if err != nil {
		t.Fatal(err)
	}
	all, err := dataOf[ChangeAnswer]("change", ans.Data)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(all.Diff, "\n"); n <= 2*budgetDiffLines {
		t.Fatalf("the hub rename's diff is %d lines: no test of the budget of %d", n, budgetDiffLines)
	}
	var pages strings.Builder
	from := 0
	for page := 0; ; page++ {
		ans, err := call(w, "change", fmt.Sprintf(`{%s, "from": %d}`, ops, from))
		if err != nil {
			t.Fatal(err)
		}
		a, err := dataOf[ChangeAnswer]("change", ans.Data)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(a.Diff, "\n"); n > budgetDiffLines || n == 0 {
			t.Fatalf("page %d holds %d diff lines", page, n)
		}
		if !strings.Contains(ans.Text, a.Diff) {
			t.Fatalf("page %d: the text lacks the data's diff", page)
		}
		pages.WriteString(a.Diff)
		m := findMore(a.More, "diff")
		if m == nil {
			break
		}
		if m.From <= from || !strings.Contains(m.Rest, fmt.Sprintf("from %d", m.From)) || !strings.Contains(ans.Text, m.Rest) {
			t.Fatalf("page %d (from %d): more %+v", page, from, m)
		}
		from = m.From
	}
	if pages.String() != all.Diff {
		t.Errorf("the pages hold %d bytes of diff, the whole dry run %d, or others", pages.Len(), len(all.Diff))
	}
	_, err = call(w, "change", `{"ops": [{"op": "rename", "name": "accounts", "to": "members"}], "from": 3}`)
	wantCode(t, err, "T9102") // from pages a dry run only

}

// TestCutDiff: one file's diff longer than the budget is cut before a
// hunk where one starts within it, else at the budget.
func TestCutDiff(t *testing.T) {
	hunk := func(n int) string { return "@@ -1 +1 @@\n" + strings.Repeat("-a\n+b\n", n) }
	head := "--- x.ts\n+++ x.ts\n"
	for _, tc := range []struct {
		name, text string
		max        int
		want       string
	}{
		{"within", head + hunk(1), 10, head + hunk(1)},
		{"before a hunk", head + hunk(1) + hunk(3), 8, head + hunk(1)},
		{"at a hunk's start", head + hunk(1) + hunk(3), 5, head + hunk(1)},
		{"one long hunk", head + hunk(5), 6, head + "@@ -1 +1 @@\n-a\n+b\n-a\n"},
	} {
		if got := cutDiff(tc.text, tc.max); got != tc.want {
			t.Errorf("%s: cut to\n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
}

// TestHistoryAnswersBounded: after the hub's rename, an agent's compare
// holds budgetChanges changes and says the skip of the next (its pages
// are the whole compare); changedBy of a table added with many columns
// holds budgetFields fields; list holds budgetEntries entries and says
// the from of the next (its pages are the whole list). The CLI's view
// answers each whole.
func TestHistoryAnswersBounded(t *testing.T) {
	dir := t.TempDir()
	texts := map[string]string{}
	for p, src := range projectgen.Generate(projectgen.Options{Tables: 600, Seed: 1}) {
		texts[p] = string(src)
	}
	sample.Write(t, dir, texts)
	whole, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer whole.Close()
	w := whole.With(Options{Bounded: true})
	if _, err := call(w, "change", `{"ops": [{"op": "rename", "name": "accounts", "to": "members"}]}`); err != nil {
		t.Fatal(err)
	}
	columns := []string{}
	for i := range budgetFields + 7 {
		columns = append(columns, fmt.Sprintf(`"c%02d": {"type": "text"}`, i))
	}
	if _, err := call(w, "change", `{"ops": [{"op": "addTable", "name": "wide", "columns": {`+strings.Join(columns, ", ")+`}}]}`); err != nil {
		t.Fatal(err)
	}

	ans, err := call(whole, "compare", `{"from": 0, "to": 1}`)
	if err != nil {
		t.Fatal(err)
	}
	all, err := dataOf[CompareAnswer]("compare", ans.Data)
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Changes) <= budgetChanges || len(all.More) > 0 {
		t.Fatalf("the hub's rename changes %d definitions (more %+v): no test of the budget of %d", len(all.Changes), all.More, budgetChanges)
	}
	var pages []string
	for skip := 0; ; {
		ans, err := call(w, "compare", fmt.Sprintf(`{"from": 0, "to": 1, "skip": %d}`, skip))
		if err != nil {
			t.Fatal(err)
		}
		c, err := dataOf[CompareAnswer]("compare", ans.Data)
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Changes) > budgetChanges {
			t.Fatalf("skip %d: %d changes", skip, len(c.Changes))
		}
		for _, ch := range c.Changes {
			pages = append(pages, fmt.Sprint(ch))
		}
		m := findMore(c.More, "changes")
		if m == nil {
			break
		}
		skip += len(c.Changes)
		if m.Cut != len(all.Changes)-skip || !strings.Contains(m.Rest, fmt.Sprintf("skip %d", skip)) || !strings.Contains(ans.Text, m.Rest) {
			t.Fatalf("skip %d: more %+v", skip, m)
		}
	}
	var want []string
	for _, ch := range all.Changes {
		want = append(want, fmt.Sprint(ch))
	}
	if strings.Join(pages, "\n") != strings.Join(want, "\n") {
		t.Errorf("the pages hold %d changes, the whole compare %d, or others", len(pages), len(want))
	}

	ans, err = call(w, "changedBy", `{"name": "wide"}`)
	if err != nil {
		t.Fatal(err)
	}
	cb, err := dataOf[ChangedByAnswer]("changedBy", ans.Data)
	if err != nil {
		t.Fatal(err)
	}
	wholeCB, err := call(whole, "changedBy", `{"name": "wide"}`)
	if err != nil {
		t.Fatal(err)
	}
	wcb, _ := dataOf[ChangedByAnswer]("changedBy", wholeCB.Data)
	if len(wcb.Change.Fields) <= budgetFields {
		t.Fatalf("the wide table's change has %d fields: no test of the budget of %d", len(wcb.Change.Fields), budgetFields)
	}
	if m := findMore(cb.More, "fields"); len(cb.Change.Fields) != budgetFields || m == nil || m.Cut != len(wcb.Change.Fields)-budgetFields || !strings.Contains(ans.Text, m.Rest) {
		t.Errorf("changedBy: %d fields, more %+v", len(cb.Change.Fields), cb.More)
	}

	ans, err = call(whole, "list", `{"path": "tables"}`)
	if err != nil {
		t.Fatal(err)
	}
	wl, _ := dataOf[ListAnswer]("list", ans.Data)
	if len(wl.Entries) <= budgetEntries || wl.Cut != 0 {
		t.Fatalf("tables/ lists %d entries (cut %d): no test of the budget of %d", len(wl.Entries), wl.Cut, budgetEntries)
	}
	var listed []string
	for from := 0; ; {
		ans, err := call(w, "list", fmt.Sprintf(`{"path": "tables", "from": %d}`, from))
		if err != nil {
			t.Fatal(err)
		}
		l, _ := dataOf[ListAnswer]("list", ans.Data)
		if len(l.Entries) > budgetEntries {
			t.Fatalf("from %d: %d entries", from, len(l.Entries))
		}
		for _, e := range l.Entries {
			listed = append(listed, e.Path)
		}
		m := findMore(l.More, "entries")
		if m == nil {
			break
		}
		if m.From != from+len(l.Entries) || m.Cut != l.Cut || m.Cut != len(wl.Entries)-m.From || !strings.Contains(ans.Text, m.Rest) {
			t.Fatalf("from %d: more %+v, cut %d", from, m, l.Cut)
		}
		from = m.From
	}
	if len(listed) != len(wl.Entries) || listed[len(listed)-1] != wl.Entries[len(wl.Entries)-1].Path {
		t.Errorf("the pages list %d entries, the whole list %d", len(listed), len(wl.Entries))
	}
}

// TestBoundFields: a change's fields beyond budgetFields, and a field's
// text beyond budgetFieldText, are cut where bounded and counted; the
// changes given are left as they were; unbounded keeps all.
func TestBoundFields(t *testing.T) {
	long := strings.Repeat("é", budgetFieldText) // two bytes each
	var fields []defchange.Field
	for i := range budgetFields + 3 {
		fields = append(fields, defchange.Field{Path: fmt.Sprintf("f%d", i), Old: "a", New: "b"})
	}
	fields[0].New = long
	in := []defchange.DefChange{{Definition: "t", Kind: defchange.KindTable, Action: defchange.Change, Fields: fields}}
	var more []diag.More
	if got := boundFields(false, &more, in, "ask"); len(got[0].Fields) != budgetFields+3 || len(more) > 0 {
		t.Errorf("unbounded: %d fields, more %+v", len(got[0].Fields), more)
	}
	got := boundFields(true, &more, in, "ask")
	f := got[0].Fields
	if len(f) != budgetFields || len(f[0].New) > budgetFieldText+40 || !strings.HasSuffix(f[0].New, fmt.Sprintf("… (%d more bytes)", len(long)-budgetFieldText)) || !utf8.ValidString(f[0].New) {
		t.Errorf("bounded: %d fields, the long text cut to %d bytes: %.40q", len(f), len(f[0].New), f[0].New[len(f[0].New)-30:])
	}
	if m := findMore(more, "fields"); m == nil || m.Cut != 3 || m.Shown != budgetFields {
		t.Errorf("fields' more %+v", more)
	}
	if m := findMore(more, "field texts"); m == nil || m.Cut != 1 {
		t.Errorf("field texts' more %+v", more)
	}
	if in[0].Fields[0].New != long || len(in[0].Fields) != budgetFields+3 {
		t.Error("the changes given were changed")
	}
}

// TestModelAndUndoBounded: an agent's model holds budgetModelItems of
// each list and says the from of the next (its pages are the whole
// model's tables), name keeps to one definition; an undo of the hub's
// rename holds budgetUndo files. The unbounded view answers them whole.
func TestModelAndUndoBounded(t *testing.T) {
	dir := t.TempDir()
	texts := map[string]string{}
	for p, src := range projectgen.Generate(projectgen.Options{Tables: 600, Seed: 1}) {
		texts[p] = string(src)
	}
	sample.Write(t, dir, texts)
	whole, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer whole.Close()
	w := whole.With(Options{Bounded: true})
	ans, err := call(whole, "model", `{}`)
	if err != nil {
		t.Fatal(err)
	}
	all, _ := dataOf[ModelAnswer]("model", ans.Data)
	if len(all.Tables) <= budgetModelItems || len(all.Functions) <= budgetModelItems || len(all.More) > 0 {
		t.Fatalf("the model: %d tables, %d functions, more %+v: no test of the budget of %d", len(all.Tables), len(all.Functions), all.More, budgetModelItems)
	}
	var tables []string
	for from := 0; ; {
		ans, err := call(w, "model", fmt.Sprintf(`{"from": %d}`, from))
		if err != nil {
			t.Fatal(err)
		}
		m, _ := dataOf[ModelAnswer]("model", ans.Data)
		if len(m.Tables) > budgetModelItems || len(m.Functions) > budgetModelItems || len(m.Flows) > budgetModelItems || len(m.Screens) > budgetModelItems {
			t.Fatalf("from %d: %d tables, %d functions, %d flows, %d screens", from, len(m.Tables), len(m.Functions), len(m.Flows), len(m.Screens))
		}
		for _, tb := range m.Tables {
			tables = append(tables, tb.Name)
		}
		mt := findMore(m.More, "tables")
		if mt == nil {
			break
		}
		if mt.From != from+budgetModelItems || mt.Cut != len(all.Tables)-mt.From || !strings.Contains(ans.Text, mt.Rest) {
			t.Fatalf("from %d: more %+v", from, mt)
		}
		from = mt.From
	}
	if len(tables) != len(all.Tables) || tables[len(tables)-1] != all.Tables[len(all.Tables)-1].Name {
		t.Errorf("the pages hold %d tables, the whole model %d", len(tables), len(all.Tables))
	}
	ans, err = call(w, "model", `{"name": "accounts"}`)
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := dataOf[ModelAnswer]("model", ans.Data); len(m.Tables) != 1 || m.Tables[0].Name != "accounts" || len(m.Functions)+len(m.Flows)+len(m.Screens) != 0 || len(m.More) > 0 {
		t.Errorf("model of accounts: %+v", m)
	}

	if _, err := call(w, "change", `{"ops": [{"op": "rename", "name": "accounts", "to": "members"}]}`); err != nil {
		t.Fatal(err)
	}
	ans, err = call(w, "undo", `{}`)
	if err != nil {
		t.Fatal(err)
	}
	u, _ := dataOf[UndoAnswer]("undo", ans.Data)
	m := findMore(u.More, "files")
	if len(u.Files) != budgetUndo || m == nil || !strings.Contains(ans.Text, m.Rest) || strings.Count(ans.Text, ".ts") > budgetUndo+10 {
		t.Fatalf("the undo of the hub's rename: %d files, more %+v", len(u.Files), u.More)
	}
	if _, err := call(w, "undo", fmt.Sprintf(`{"point": %d}`, *u.Point)); err != nil { // the rename again
		t.Fatal(err)
	}
	ans, err = call(whole, "undo", `{}`)
	if err != nil {
		t.Fatal(err)
	}
	if u2, _ := dataOf[UndoAnswer]("undo", ans.Data); len(u2.Files) != len(u.Files)+m.Cut || len(u2.More) > 0 {
		t.Errorf("the whole undo: %d files, more %+v; want %d", len(u2.Files), u2.More, len(u.Files)+m.Cut)
	}
}

// TestKeysBounded: an agent's keys lists budgetKeys keys and says the
// from of the next; the pages are the whole list, which the unbounded
// view answers at once.
func TestKeysBounded(t *testing.T) {
	whole, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer whole.Close()
	w := whole.With(Options{Bounded: true})
	n := budgetKeys + 31
	for i := range n {
		if _, err := call(whole, "remember", fmt.Sprintf(`{"key": "k%04d", "value": "v"}`, i)); err != nil {
			t.Fatal(err)
		}
	}
	ans, err := call(whole, "keys", `{}`)
	if err != nil {
		t.Fatal(err)
	}
	if all, _ := dataOf[KeysAnswer]("keys", ans.Data); len(all.Keys) != n || len(all.More) > 0 {
		t.Fatalf("the whole keys: %d, more %+v; want %d", len(all.Keys), all.More, n)
	}
	var got []string
	for from := 0; ; {
		ans, err := call(w, "keys", fmt.Sprintf(`{"from": %d}`, from))
		if err != nil {
			t.Fatal(err)
		}
		k, _ := dataOf[KeysAnswer]("keys", ans.Data)
		if len(k.Keys) > budgetKeys {
			t.Fatalf("from %d: %d keys", from, len(k.Keys))
		}
		for _, key := range k.Keys {
			got = append(got, key.Key)
		}
		m := findMore(k.More, "keys")
		if m == nil {
			break
		}
		if m.From != from+len(k.Keys) || m.Cut != n-m.From || !strings.Contains(ans.Text, m.Rest) {
			t.Fatalf("from %d: more %+v", from, m)
		}
		from = m.From
	}
	if len(got) != n || got[0] != "k0000" || got[n-1] != fmt.Sprintf("k%04d", n-1) {
		t.Errorf("the pages hold %d keys, want %d in order", len(got), n)
	}
}
