package tools

import (
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/diag"
)

// TestDuplicateNotUsed is the attack of a second users table, without its
// private column, written where the policy lets an agent write
// (functions/**): rows, run and reset refuse with T2001 naming both
// files, so the first by path never silently wins; once the duplicate is
// removed they work again.
func TestDuplicateNotUsed(t *testing.T) {
	w, _ := openCopy(t, Options{Policy: &Policy{Allow: []string{"functions/**"}}})
	second := "import { table, text } from 'tent'\n\nexport const users = table({ columns: { email: text(), passwordHash: text() } })\n"
	mustCall(t, w, "write", `{"path": "functions/aaa.ts", "text": `+quoteJSON(second)+`}`)
	for _, c := range []struct{ tool, input string }{
		{"rows", `{"table": "users"}`},
		{"run", `{"name": "listProducts"}`},
		{"reset", `{}`},
	} {
		_, err := call(w, c.tool, c.input)
		if te := wantCode(t, err, diag.T2001); te != nil && !containsAll(te.Message, "users", "tables/users.ts", "functions/aaa.ts") {
			t.Errorf("%s: %s", c.tool, te.Message)
		}
	}
	mustCall(t, w, "write", `{"path": "functions/aaa.ts", "text": "export const nothing = 1\n"}`)
	if ans := mustCall(t, w, "rows", `{"table": "users"}`); !strings.HasPrefix(ans.Text, "users: ") {
		t.Errorf("rows after the fix: %s", ans.Text)
	}
}

func quoteJSON(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
