package tools

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/internal/golden"
)

// TestHistoryUndoLinks: an undo point names the points it put back, and a
// point put back names the undo that did, until a redo brings it back in
// effect; in the text and in the data (golden testdata/history/undo.golden,
// its times masked).
func TestHistoryUndoLinks(t *testing.T) {
	w, _ := openFiles(t, map[string]string{
		"project.ts": "import { project } from 'tent'\nexport default project({ name: 'undo' })\n",
	})
	mustCall(t, w, "write", `{"path": "lib/a.ts", "text": "export const a = 1\n"}`) // 1
	mustCall(t, w, "write", `{"path": "lib/b.ts", "text": "export const b = 2\n"}`) // 2
	mustCall(t, w, "undo", `{}`)                                                    // 3 undid 2
	mustCall(t, w, "write", `{"path": "lib/c.ts", "text": "export const c = 3\n"}`) // 4
	mustCall(t, w, "undo", `{"point": 4}`)                                          // 5 undid 4
	mustCall(t, w, "undo", `{"point": 5}`)                                          // 6 undid 5: 4 back
	// After the redo: 2 stays undone by 3, 4 is in effect again, 5 is
	// undone by 6.
	undoneBy(t, mustCall(t, w, "history", `{}`), map[int]int{1: 0, 2: 3, 3: 0, 4: 0, 5: 6, 6: 0})
	mustCall(t, w, "undo", `{"point": 1}`) // 7 undid 1..6
	ans := mustCall(t, w, "history", `{}`)
	undoneBy(t, ans, map[int]int{1: 7, 2: 7, 3: 7, 4: 7, 5: 7, 6: 7, 7: 0})
	data, err := json.MarshalIndent(ans.Data, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	out := ans.Text + "\n" + string(data) + "\n"
	out = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`).ReplaceAllString(out, "TIME")
	golden.Check(t, filepath.Join("testdata", "history", "undo.golden"), []byte(out))
}

// undoneBy checks each point's undoneBy in a history answer, in its data
// and in its text.
func undoneBy(t *testing.T, ans Answer, want map[int]int) {
	t.Helper()
	got := map[int]int{}
	for _, p := range ans.Data.(HistoryAnswer).Points {
		got[p.Point] = p.UndoneBy
	}
	for n, u := range want {
		if got[n] != u {
			t.Errorf("point %d undone by %d; want %d", n, got[n], u)
		}
	}
	if n := strings.Count(ans.Text, "  undone by point "); n != len(want)-countZero(want) {
		t.Errorf("the text says %d points are undone; want %d:\n%s", n, len(want)-countZero(want), ans.Text)
	}
}

func countZero(m map[int]int) int {
	n := 0
	for _, v := range m {
		if v == 0 {
			n++
		}
	}
	return n
}

func TestPointRuns(t *testing.T) {
	for _, c := range []struct {
		in   []int
		want string
	}{
		{[]int{3}, "3"},
		{[]int{2, 1}, "1, 2"},
		{[]int{6, 5, 4, 3, 2, 1}, "1 to 6"},
		{[]int{1, 2, 3, 5, 7, 8, 9, 10, 12, 13}, "1 to 3, 5, 7 to 10, 12, 13"},
	} {
		if got := pointRuns(c.in); got != c.want {
			t.Errorf("pointRuns(%v) = %q; want %q", c.in, got, c.want)
		}
	}
}
