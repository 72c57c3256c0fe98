package tools

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/defchange"
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
	// budgetEntries bounds list's entries (from asks for the next).
	budgetEntries = 500
	// budgetModelItems bounds each list of model (tables, functions,
	// flows, screens; from asks for the next of each).
	budgetModelItems = 10
	// budgetUndo bounds undo's files and the points it undid.
	budgetUndo = 200
	// budgetKeys bounds keys' keys (from asks for the next).
	budgetKeys = 200
	// budgetDiffLines bounds the lines of a dry run's diff: whole files
	// while they fit, from asks for the next files.
	budgetDiffLines = 400
	// budgetChanges bounds compare's definition changes (skip asks for
	// the next).
	budgetChanges = 100
	// budgetFields bounds the fields of each definition change that
	// compare and changedBy answer.
	budgetFields = 50
	// budgetFieldText bounds the bytes of each field's old and new text
	// (code: a function's run, a screen's view).
	budgetFieldText = 2000
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

// boundDiff is the unified diff of set's files (its edits, then its
// deletions, in order) from the from-th file on; deleted gives a
// deleted file's text. Where bounded it holds whole files while they fit
// in budgetDiffLines (a page's first file longer than that is cut at a
// hunk's start, and said in more as "diff of PATH"), and more says the
// files left out ("diff", counted in files) with next, the rest's words
// for the from of the next page; paged whether the tool's from input
// asks for it (the More's From).
func boundDiff(bounded bool, more *[]diag.More, set *change.Set, deleted func(path string) []byte, from int, next func(from int) string, whole string, paged bool) (string, error) {
	total := len(set.Files) + len(set.Deletes)
	var b strings.Builder
	lines, shown := 0, 0
	for i := min(from, total); i < total; i++ {
		one := &change.Set{}
		path := ""
		if i < len(set.Files) {
			one.Files, path = set.Files[i:i+1], set.Files[i].NewPath()
		} else {
			path = set.Deletes[i-len(set.Files)]
			one.Deletes = []string{path}
		}
		text, err := one.Diff(deleted)
		if err != nil {
			return "", err
		}
		n := strings.Count(text, "\n")
		switch {
		case !bounded || lines+n <= budgetDiffLines:
		case shown > 0:
			m := diag.More{List: "diff", Shown: shown, Cut: total - i, Rest: next(i)}
			if paged {
				m.From = i
			}
			*more = append(*more, m)
			return b.String(), nil
		default:
			// The page's first file is longer than the whole budget.
			text = cutDiff(text, budgetDiffLines)
			kept := strings.Count(text, "\n")
			*more = append(*more, diag.More{List: "diff of " + path, Shown: kept, Cut: n - kept, Rest: whole})
			n = kept
		}
		b.WriteString(text)
		lines += n
		shown++
	}
	return b.String(), nil
}

// cutDiff keeps at most max lines of one file's diff, ending before a
// hunk where one starts past its header within them.
func cutDiff(text string, max int) string {
	end, lastHunk := 0, 0
	for n := 0; n < max; n++ {
		i := strings.IndexByte(text[end:], '\n')
		if i < 0 {
			return text
		}
		if n > 2 && strings.HasPrefix(text[end:], "@@") { // a hunk after the first
			lastHunk = end
		}
		end += i + 1
	}
	if end < len(text) && strings.HasPrefix(text[end:], "@@") {
		return text[:end]
	}
	if lastHunk > 0 {
		return text[:lastHunk]
	}
	return text[:end]
}

// boundFields keeps, where bounded, at most budgetFields fields of each
// change and budgetFieldText bytes of each field's texts (cut at a
// character, and marked where cut: "… (N more bytes)"), and adds to more
// what it left out ("fields", "field texts"), rest saying how to ask for
// it. The changes given are not changed: the cut ones are copies.
func boundFields(bounded bool, more *[]diag.More, changes []defchange.DefChange, rest string) []defchange.DefChange {
	if !bounded {
		return changes
	}
	out := make([]defchange.DefChange, len(changes))
	var fieldsShown, fieldsCut, textsWhole, textsCut int
	for i, c := range changes {
		if len(c.Fields) > budgetFields {
			fieldsCut += len(c.Fields) - budgetFields
			c.Fields = c.Fields[:budgetFields]
		}
		fieldsShown += len(c.Fields)
		fields := make([]defchange.Field, len(c.Fields))
		for j, f := range c.Fields {
			var cut bool
			f.Old, cut = cutText(f.Old)
			if cut {
				textsCut++
			}
			f.New, cut = cutText(f.New)
			if cut {
				textsCut++
			}
			fields[j] = f
		}
		textsWhole += 2 * len(fields)
		c.Fields = fields
		out[i] = c
	}
	if fieldsCut > 0 {
		*more = append(*more, diag.More{List: "fields", Shown: fieldsShown, Cut: fieldsCut, Rest: rest})
	}
	if textsCut > 0 {
		*more = append(*more, diag.More{List: "field texts", Shown: textsWhole - textsCut, Cut: textsCut, Rest: rest})
	}
	return out
}

// cutText keeps at most budgetFieldText bytes of s, ending at a whole
// character, and says how many bytes it cut.
func cutText(s string) (string, bool) {
	if len(s) <= budgetFieldText {
		return s, false
	}
	end := budgetFieldText
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return fmt.Sprintf("%s… (%d more bytes)", s[:end], len(s)-end), true
}
