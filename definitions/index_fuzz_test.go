package definitions

import (
	"context"
	"strings"
	"testing"
)

// FuzzIndexFile reads any text as a TypeScript file of the project (a
// table's, a function's, a screen's) and as test data: reading never
// panics, and every finding and definition stands inside the file. The
// time and memory of a read are linear in the text (the parser's tree,
// about 140 bytes a byte of dense code at most); BenchmarkBuild and
// BenchmarkUpdate measure them.
//
//	go test ./definitions -run '^$' -fuzz FuzzIndexFile -fuzztime 20s
func FuzzIndexFile(f *testing.F) {
	for _, seed := range []string{
		"import { table, text } from 'tent'\nexport const users = table({ columns: { email: text({ private: true }) } })\n",
		"export const f = fn({ run: async (ctx) => ctx.db.users.list({ where: { id: 'u1' } }) })\n",
		"export default project({ name: 'p', removed: ['coupons'] })\n",
		"export const s = screen({ path: '/x', view: () => <div>{'a'}</div> })\n",
		strings.Repeat("x = x + 1; ", 200), strings.Repeat("(", 500), "\ufeff\r\n\x00", "export const t = table({ columns: { a: ref('t', { was: 'b' }) } })",
		"[{\"id\": \"a\", \"n\": 1}, {\"id\": \"a\"}]",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		for _, p := range []string{"tables/x.ts", "functions/x.ts", "screens/x.tsx", "testdata/x.json"} {
			ix := FromFiles(context.Background(), map[string][]byte{p: []byte(src)})
			file := ix.File(p)
			if file == nil {
				t.Fatalf("%s not indexed", p)
			}
			for _, fd := range file.Findings {
				if fd.Start < 0 || fd.End < fd.Start || fd.End > len(src) {
					t.Fatalf("%s: finding %s at [%d, %d) of %d bytes", p, fd.Code, fd.Start, fd.End, len(src))
				}
			}
			for _, d := range file.Definitions {
				if d.NameSpan.Start < 0 || d.NameSpan.End > len(src) || d.NameSpan.End < d.NameSpan.Start {
					t.Fatalf("%s: %s at [%d, %d) of %d bytes", p, d.Name, d.NameSpan.Start, d.NameSpan.End, len(src))
				}
			}
		}
	})
}
