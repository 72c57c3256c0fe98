package tools

import (
	"fmt"
	"strings"
	"testing"
)

// TestHistoryTextFolds checks that a point touching many files and
// definitions stays short in the history's text, while its data lists
// everything.
func TestHistoryTextFolds(t *testing.T) {
	files := map[string]string{
		"project.ts":     "import { project } from 'tent'\nexport default project({ name: 'wide' })\n",
		"tables/hub.ts":  "import { table, text } from 'tent'\nexport const hub = table({ columns: { name: text() } })\n",
		"testdata/.keep": "",
	}
	const n = 15
	for i := range n {
		files[fmt.Sprintf("tables/t%d.ts", i)] = fmt.Sprintf(
			"import { table, ref } from 'tent'\nexport const t%d = table({ columns: { a: ref('hub'), b: ref('hub') } })\n", i)
	}
	w, _ := openFiles(t, files)
	mustCall(t, w, "rename", `{"name": "hub", "to": "center"}`)
	ans := mustCall(t, w, "history", `{}`)
	data := ans.Data.(HistoryAnswer)
	if got := len(data.Points[0].Files); got != n+1 {
		t.Fatalf("the point's data lists %d files, want %d", got, n+1)
	}
	if !strings.Contains(ans.Text, fmt.Sprintf(" and %d more\n", n+1-textFilesShown)) {
		t.Errorf("the files line is not folded:\n%s", ans.Text)
	}
	if !strings.Contains(ans.Text, "more changes (the data answer has them all)") {
		t.Errorf("the changes are not folded:\n%s", ans.Text)
	}
	if lines := strings.Count(ans.Text, "\n"); lines > 2+textChangesShown+1 {
		t.Errorf("the text has %d lines, want at most %d:\n%s", lines, 2+textChangesShown+1, ans.Text)
	}
}
