package tools

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/runner"
)

// TestWriteLimitEveryTool: edit (one replacement or several) may not grow
// a file past 1 MB any more than write may; nothing is written. A file
// already larger may be edited where it does not grow.
func TestWriteLimitEveryTool(t *testing.T) {
	big := "// head\n" + strings.Repeat("// filler line of a large file\n", (MaxText+100)/31)
	w, dir := openFiles(t, map[string]string{
		"project.ts":   "export default project({ name: 'p' })\n",
		"lib/small.ts": "export const x = 1\n",
		"lib/large.ts": big,
	})
	grow := strings.Repeat("a", MaxText)
	input := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	for _, c := range []struct{ tool, input string }{
		{"edit", input(map[string]any{"path": "lib/small.ts", "find": "1", "with": grow})},
		{"edit", input(map[string]any{"path": "lib/small.ts", "edits": []map[string]string{{"find": "const", "with": grow[:MaxText/2]}, {"find": "1", "with": grow[:MaxText/2]}}})},
		{"edit", input(map[string]any{"path": "lib/large.ts", "find": "// head", "with": "// head, grown"})},
		{"write", input(map[string]any{"path": "lib/small.ts", "text": grow + "\n"})},
	} {
		_, err := call(w, c.tool, c.input)
		wantCode(t, err, diag.T9104)
	}
	if got := readFile(t, dir, "lib/small.ts"); got != "export const x = 1\n" {
		t.Errorf("lib/small.ts = %.40q", got)
	}
	if got := readFile(t, dir, "lib/large.ts"); got != big {
		t.Error("lib/large.ts changed")
	}
	// Within the limit, or not growing: written.
	mustCall(t, w, "edit", input(map[string]any{"path": "lib/small.ts", "find": "1", "with": grow[:MaxText/2]}))
	mustCall(t, w, "edit", input(map[string]any{"path": "lib/large.ts", "find": "// head", "with": "//h"}))
}

// TestBoundedAnswers: a write of a 1 MB line echoes a bounded part of it,
// saying how much was cut; the nearest lines of T9106 too; input larger
// than any tool takes is refused (T9104) before it is decoded.
func TestBoundedAnswers(t *testing.T) {
	w, _ := openFiles(t, map[string]string{"project.ts": "export default project({ name: 'p' })\n"})
	line := strings.Repeat("é", MaxText/2-10)
	ans := mustCall(t, w, "write", `{"path": "lib/long.ts", "text": "`+line+`\n"}`)
	if len(ans.Text) > 2*maxEchoedLine {
		t.Errorf("write echoed %d bytes", len(ans.Text))
	}
	if !strings.Contains(ans.Text, "more of this line not shown") {
		t.Errorf("write does not say what it cut:\n%.300s", ans.Text)
	}
	changed := ans.Data.(Changed).Changed
	if len(changed) != 1 || changed[0].Cut == 0 || len(changed[0].Text)+changed[0].Cut != len(line) || !utf8.ValidString(changed[0].Text) {
		t.Errorf("the data answer's line: %d bytes shown, %d cut", len(changed[0].Text), changed[0].Cut)
	}
	_, err := call(w, "edit", `{"path": "lib/long.ts", "find": "`+line[:2000]+`x", "with": "y"}`)
	if te := wantCode(t, err, diag.T9106); te != nil && len(te.Message) > 3*maxEchoedLine {
		t.Errorf("T9106 echoed %d bytes", len(te.Message))
	}
	huge := `{"path": "lib/x.ts", "text": "` + strings.Repeat("a", MaxInput) + `"}`
	_, err = call(w, "write", huge)
	wantCode(t, err, diag.T9104)
}

// TestRunResultBounded: a result larger than an answer holds is answered
// as null with its size (resultCut) and a note in the text, never printed
// whole; a small one is answered whole.
func TestRunResultBounded(t *testing.T) {
	w, _ := openFiles(t, map[string]string{
		"project.ts": "export default project({ name: 'p' })\n",
		"functions/big.ts": "import { fn } from 'tent'\n\n" +
			"export const big = fn({ run: () => 'x'.repeat(3 * 1024 * 1024) })\n" +
			"export const small = fn({ run: () => ({ n: 1 }) })\n",
	})
	ans := mustCall(t, w, "run", `{"name": "big"}`)
	res := ans.Data.(*runner.Result)
	if string(res.Result) != "null" || res.ResultCut != 3*1024*1024+2 {
		t.Errorf("result %.40s, cut %d", res.Result, res.ResultCut)
	}
	if len(ans.Text) > 1000 || !strings.Contains(ans.Text, "not shown: it is 3.0 MB") {
		t.Errorf("text (%d bytes): %.300s", len(ans.Text), ans.Text)
	}
	ans = mustCall(t, w, "run", `{"name": "small"}`)
	if res := ans.Data.(*runner.Result); string(res.Result) != `{"n":1}` || res.ResultCut != 0 {
		t.Errorf("small: %s, cut %d", res.Result, res.ResultCut)
	}
}
