package tools

import (
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/diag"
)

// TestDuplicateNotUsed is the attack of a second users table, without its
// private column, written where the policy lets an agent write
// (functions/**): the write is refused (adding a table needs a change
// rule); a duplicate that stands all the same makes rows, run and reset
// refuse with T2001 naming both files, so the first by path never
// silently wins; once the duplicate is removed they work again.
func TestDuplicateNotUsed(t *testing.T) {
	w, _ := openCopy(t, Options{Policy: &Policy{Allow: []string{"functions/**"}}})
	second := "import { table, text } from 'tent'\n\nexport const users = table({ columns: { email: text(), passwordHash: text() } })\n"
	// The policy refuses the second table (add:table needs a change rule)...
	_, err := call(w, "write", `{"path": "functions/aaa.ts", "text": `+quoteJSON(second)+`}`)
	wantCode(t, err, diag.T9105)
	// ...and where one stands all the same (written by a broader policy, or
	// by hand), it is used by nothing.
	w = w.With(Options{Policy: &Policy{Allow: []string{"**"}}})
	mustCall(t, w, "write", `{"path": "functions/aaa.ts", "text": `+quoteJSON(second)+`}`)
	for _, c := range []struct{ tool, input string }{
		{"rows", `{"table": "users"}`},
		{"run", `{"name": "listProducts"}`},
		{"reset", `{}`},
	} {
		_, err = call(w, c.tool, c.input)
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

// TestAddTableNeedsChangeRule: under an allow of some paths only, a change
// that adds a table is refused wherever the table is declared; a change
// rule (or ask) lets it.
func TestAddTableNeedsChangeRule(t *testing.T) {
	second := quoteJSON("import { table, text } from 'tent'\n\nexport const extra = table({ columns: { email: text() } })\n")
	for _, where := range []string{"functions/aaa.ts", "tables/extra.ts"} {
		w, dir := openCopy(t, Options{Policy: &Policy{Allow: []string{"functions/**", "tables/**"}}})
		before := snapshot(t, dir)
		_, err := call(w, "write", `{"path": "`+where+`", "text": `+second+`}`)
		if te := wantCode(t, err, diag.T9105); te != nil && !strings.Contains(te.Message, "add:table extra") {
			t.Errorf("%s: %s", where, te.Message)
		}
		assertSame(t, before, snapshot(t, dir))
		w2 := w.With(Options{Policy: &Policy{Allow: []string{"functions/**", "tables/**", "add:table", "add:fn", "change:*"}}})
		mustCall(t, w2, "write", `{"path": "`+where+`", "text": `+second+`}`)
	}
	// A function added under the same policy is written.
	w, _ := openCopy(t, Options{Policy: &Policy{Allow: []string{"functions/**"}}})
	mustCall(t, w, "write", `{"path": "functions/aaa.ts", "text": "import { fn } from 'tent'\n\nexport const hello = fn({ run: () => 1 })\n"}`)
}
