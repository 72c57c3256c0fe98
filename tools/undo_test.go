package tools

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/internal/golden"
)

// TestUndoAndChangedByLinks: undo's own answer says which points it put
// back and which are in effect again (a redo), and changedBy says what an
// undo point undid and which undo put a point back, in the text and in the
// data, by history's rule (golden testdata/history/links.golden, its
// times masked).
func TestUndoAndChangedByLinks(t *testing.T) {
	const orders = "import { table, text, money } from 'tent'\n\nexport const orders = table({\n  columns: {\n    total: money(),\n  },\n})\n"
	w, _ := openFiles(t, map[string]string{
		"project.ts": "import { project } from 'tent'\nexport default project({ name: 'links' })\n",
	})
	var out strings.Builder
	show := func(tool, input string) Answer {
		t.Helper()
		ans := mustCall(t, w, tool, input)
		data, err := json.MarshalIndent(ans.Data, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		out.WriteString("-- " + tool + " " + input + " --\n" + ans.Text + string(data) + "\n")
		return ans
	}
	mustCall(t, w, "write", `{"path": "tables/orders.ts", "text": `+quoteJSON(orders)+`}`)                                     // 1
	mustCall(t, w, "edit", editInput("tables/orders.ts", "    total: money(),\n", "    total: money(),\n    tip: money(),\n")) // 2
	mustCall(t, w, "edit", editInput("tables/orders.ts", "    tip: money(),\n", ""))                                           // 3: as after 1
	// 4 puts back 2 and 3, whose change nets to nothing: it writes no
	// file and records no change, so the newest point that changed
	// orders.tip is 3, undone by 4.
	show("undo", `{"point": 2}`)
	a := show("changedBy", `{"name": "orders.tip"}`).Data.(ChangedByAnswer)
	if a.Point != 3 || a.UndoneBy != 4 {
		t.Errorf("changedBy orders.tip: point %d undone by %d; want 3 undone by 4", a.Point, a.UndoneBy)
	}
	mustCall(t, w, "edit", editInput("tables/orders.ts", "    total: money(),\n", "    total: money(),\n    note: text(),\n")) // 5
	show("undo", `{}`)                                                                                                         // 6 undid 5
	a = show("changedBy", `{"name": "orders.note"}`).Data.(ChangedByAnswer)
	if a.Point != 6 || len(a.Undid) != 1 || a.Undid[0] != 5 || a.UndoneBy != 0 {
		t.Errorf("changedBy orders.note after the undo: %+v", a)
	}
	u := show("undo", `{"point": 6}`).Data.(UndoAnswer) // 7: a redo, 5 in effect again
	if len(u.Undid) != 1 || u.Undid[0] != 6 || len(u.Redid) != 1 || u.Redid[0] != 5 {
		t.Errorf("the redo: %+v; want undid [6], redid [5]", u)
	}
	show("changedBy", `{"name": "orders.note"}`)
	// Back to before point 5 from here: 5, 6 and 7 put back; 6 was out of
	// effect already, and nothing comes back.
	u = show("undo", `{"point": 5}`).Data.(UndoAnswer)
	if len(u.Redid) != 0 {
		t.Errorf("undo back to before 5 redid %v; want none", u.Redid)
	}
	text := regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`).ReplaceAllString(out.String(), "TIME")
	golden.Check(t, filepath.Join("testdata", "history", "links.golden"), []byte(text))
}
