package tools

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/diag"
)

// TestGitignoreBackDoor: a .gitignore that would hide tables/orders.ts is
// judged as the removal of the orders table: refused under a policy that
// denies remove:* (nothing written), and recorded as a remove where it is
// allowed.
func TestGitignoreBackDoor(t *testing.T) {
	for _, text := range []string{"tables/orders.ts\n", "tables/\n", "orders.ts\n"} {
		w, dir := openCopy(t, Options{Policy: &Policy{Allow: []string{"**"}, Deny: []string{"remove:*"}}})
		before := snapshot(t, dir)
		_, err := call(w, "write", `{"path": ".gitignore", "text": "`+strings.ReplaceAll(text, "\n", `\n`)+`"}`)
		if te := wantCode(t, err, diag.T9105); te != nil && !strings.Contains(te.Message, "the policy denies remove:") {
			t.Errorf("%q: %s", text, te.Message)
		}
		assertSame(t, before, snapshot(t, dir))
	}
	// Ignoring what holds no definition is no remove.
	w, _ := openCopy(t, Options{Policy: &Policy{Allow: []string{"**"}, Deny: []string{"remove:*"}}})
	mustCall(t, w, "write", `{"path": ".gitignore", "text": "dist/\n*.log\n"}`)
	// Allowed, the point says what it removed.
	w, _ = openCopy(t, Options{})
	ans := mustCall(t, w, "write", `{"path": "tables/.gitignore", "text": "orders.ts\n"}`)
	h := mustCall(t, w, "history", `{"newest": 1}`).Data.(HistoryAnswer)
	if len(h.Points) != 1 || !strings.Contains(fmt.Sprintf("%+v", h.Points[0].Changes), "orders") {
		t.Errorf("%s\npoint: %+v", ans.Text, h.Points)
	}
}
