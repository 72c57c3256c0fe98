package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/check"
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
