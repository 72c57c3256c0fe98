package tools

import (
	"fmt"
	"strings"

	"github.com/tent-tools/tent-tools/diag"
)

// This file keeps an agent's answers within their budgets: where the
// view is Bounded (an agent's face: MCP, Options.Bounded), each list of
// an answer holds at most its budget of items, and what it leaves out is
// counted with how to ask for it (diag.More, in the answer's "more" and
// on the text's last lines). The budgets are counts of items, the same
// for every project: one answer stays a few tens of KB at most whatever
// the project's size (docs/pages/mcp.md, "Budgets").

// The budgets of the lists of a bounded answer.
const (
	// budgetLines bounds the changed lines of a refactor's answer
	// (rename, remove, move, change, check's fix).
	budgetLines = 200
	// budgetSites bounds the code sites a refactor left.
	budgetSites = 100
	// budgetFindings bounds check's findings (from asks for the next).
	budgetFindings = 100
	// budgetPointItems bounds the files and the definition changes of
	// each point of history's answer.
	budgetPointItems = 20
	// budgetLogs bounds logs' entries (from asks for the older ones).
	budgetLogs = 50
)

// bound keeps the items of list from index from on, at most budget of
// them where bounded (the view is: Options.Bounded; all of them
// otherwise), and adds to
// more what it left out: name is the answer's field, rest how to ask for
// the rest, paged whether the tool's from input asks for the next items
// (the More's From). A from past the end keeps none.
func bound[T any](bounded bool, more *[]diag.More, name string, list []T, from, budget int, rest string, paged bool) []T {
	if from > len(list) {
		from = len(list)
	}
	list = list[from:]
	if !bounded || len(list) <= budget {
		return list
	}
	m := diag.More{List: name, Shown: budget, Cut: len(list) - budget, Rest: rest}
	if paged {
		m.From = from + budget
	}
	*more = append(*more, m)
	return list[:budget:budget]
}

// writeMore ends a text answer with what its lists left out.
func writeMore(b *strings.Builder, more []diag.More) {
	for _, m := range more {
		fmt.Fprintf(b, "… %s: %d more not shown (%d shown); %s\n", m.List, m.Cut, m.Shown, m.Rest)
	}
}
