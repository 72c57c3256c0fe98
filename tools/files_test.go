package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/diag"
)

// bigFile returns about n bytes of numbered text lines.
func bigFile(n int) string {
	var b strings.Builder
	for i := 1; b.Len() < n; i++ {
		b.WriteString("export const value")
		b.WriteString(strings.Repeat("x", i%50))
		b.WriteString(" = 1\n")
	}
	return b.String()
}

func TestReadBrokenInput(t *testing.T) {
	big := bigFile(5 << 20)
	w, _ := openFiles(t, map[string]string{
		"big.ts":    big,
		"image.png": "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
		"latin1.ts": "// caf\xe9\nexport const a = 1\n",
		"empty.ts":  "",
		"crlf.ts":   "a\r\nb\r\n",
		"last.ts":   "a\nb",
	})
	t.Run("5 MB whole", func(t *testing.T) {
		_, err := call(w, "read", `{"path": "big.ts"}`)
		te := wantCode(t, err, diag.T9104)
		if !strings.Contains(te.Message, "give from and to") {
			t.Errorf("message %q does not say how to read it", te.Message)
		}
	})
	t.Run("5 MB by lines", func(t *testing.T) {
		ans, err := call(w, "read", `{"path": "big.ts", "from": 100000, "to": 100001}`)
		if err != nil {
			t.Fatal(err)
		}
		d := ans.Data.(ReadAnswer)
		if d.From != 100000 || d.To != 100001 || d.Lines != strings.Count(big, "\n") || strings.Count(d.Text, "\n") != 2 {
			t.Errorf("got %+v", d)
		}
	})
	t.Run("binary", func(t *testing.T) {
		_, err := call(w, "read", `{"path": "image.png"}`)
		te := wantCode(t, err, diag.T1003)
		if !strings.Contains(te.Message, "binary") {
			t.Errorf("message %q", te.Message)
		}
	})
	t.Run("not UTF-8", func(t *testing.T) {
		_, err := call(w, "read", `{"path": "latin1.ts"}`)
		te := wantCode(t, err, diag.T1003)
		if te.Data["line"] != 1 {
			t.Errorf("line %v; want 1", te.Data["line"])
		}
	})
	tests := []struct {
		input string
		want  ReadAnswer
		text  string
	}{
		{`{"path": "empty.ts"}`, ReadAnswer{Path: "empty.ts"}, "empty.ts is empty\n"},
		{`{"path": "crlf.ts", "from": 2}`, ReadAnswer{Path: "crlf.ts", From: 2, To: 2, Lines: 2, Text: "b\r\n"}, "crlf.ts (lines 2-2 of 2)\n2  b\n"},
		{`{"path": "last.ts", "to": 9}`, ReadAnswer{Path: "last.ts", From: 1, To: 2, Lines: 2, Text: "a\nb"}, "last.ts (2 lines)\n1  a\n2  b\n"},
	}
	for _, tt := range tests {
		t.Run(tt.input, func(t *testing.T) {
			ans, err := call(w, "read", tt.input)
			if err != nil {
				t.Fatal(err)
			}
			if ans.Data.(ReadAnswer) != tt.want || ans.Text != tt.text {
				t.Errorf("got %+v %q; want %+v %q", ans.Data, ans.Text, tt.want, tt.text)
			}
		})
	}
	for _, bad := range []string{`{"path": "crlf.ts", "from": 3}`, `{"path": "crlf.ts", "from": 2, "to": 1}`, `{"path": "crlf.ts", "from": -1}`} {
		_, err := call(w, "read", bad)
		wantCode(t, err, diag.T9102)
	}
}

func TestWrite(t *testing.T) {
	w, dir := openFiles(t, map[string]string{"a.ts": "a\n"})
	ans, err := call(w, "write", `{"path": "deep/new/folder/b.ts", "text": "b\n"}`)
	if err != nil {
		t.Fatal(err)
	}
	if !ans.Data.(Changed).Created || readFile(t, dir, "deep/new/folder/b.ts") != "b\n" {
		t.Errorf("got %+v", ans.Data)
	}
	_, err = call(w, "write", `{"path": "deep", "text": "b\n"}`)
	wantCode(t, err, diag.T9102)
	_, err = call(w, "write", `{"path": "", "text": "b\n"}`)
	wantCode(t, err, diag.T9102)

	big, _ := JSON(map[string]string{"path": "a.ts", "text": strings.Repeat("x", MaxText+1)})
	_, err = call(w, "write", string(big))
	wantCode(t, err, diag.T9104)
	if readFile(t, dir, "a.ts") != "a\n" {
		t.Error("a refused write changed the file")
	}
	exact, _ := JSON(map[string]string{"path": "a.ts", "text": strings.Repeat("x", MaxText)})
	if _, err = call(w, "write", string(exact)); err != nil {
		t.Errorf("a write of exactly 1 MB: %v", err)
	}

	ans, err = call(w, "write", `{"path": "a.ts", "text": "`+strings.Repeat(`line\n`, 100)+`"}`)
	if err != nil {
		t.Fatal(err)
	}
	if d := ans.Data.(Changed); len(d.Changed) != maxShownLines || d.Cut != 100-maxShownLines {
		t.Errorf("a long write answered %d lines, cut %d", len(d.Changed), d.Cut)
	}
}

func TestEmptyFolder(t *testing.T) {
	w, _ := openFiles(t, nil)
	ans, err := call(w, "list", `{}`)
	if err != nil || ans.Text != "the project's root is empty\n" || len(ans.Data.(ListAnswer).Entries) != 0 {
		t.Errorf("list: %q %+v %v", ans.Text, ans.Data, err)
	}
	ans, err = call(w, "search", `{"text": "x"}`)
	if err != nil || len(ans.Data.(SearchAnswer).Hits) != 0 {
		t.Errorf("search: %+v %v", ans.Data, err)
	}
	_, err = call(w, "read", `{"path": "project.ts"}`)
	wantCode(t, err, diag.T9103)
}

func TestSearchLeavesOut(t *testing.T) {
	w, dir := openFiles(t, map[string]string{
		".gitignore":          "*.log\nbuild/\n",
		"lib/.gitignore":      "generated.ts\n",
		"lib/a.ts":            "needle\nneedle needle\n",
		"lib/generated.ts":    "needle\n",
		"app.log":             "needle\n",
		"build/out.js":        "needle\n",
		"node_modules/x/i.js": "needle\n",
		"dist/app.js":         "needle\n",
		"lib/dist/app.js":     "needle\n",
		".tent/memory.json":   "needle\n",
		"tent.d.ts":           "needle\n",
		"image.bin":           "needle\x00\n",
		"long.ts":             strings.Repeat("a", 1000) + "needle" + strings.Repeat("b", 1000) + "\n",
		"multi.ts":            "one\nneedle\nend\n",
		"functions/needle.ts": "no hit in the name\n",
	})
	if err := os.Symlink("lib/a.ts", filepath.Join(dir, "link.ts")); err != nil {
		t.Fatal(err)
	}
	ans, err := call(w, "search", `{"text": "needle"}`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range ans.Data.(SearchAnswer).Hits {
		got = append(got, h.Path+":"+string(rune('0'+h.Line)))
		if h.Path == "long.ts" && (len(h.Text) > maxHitText+len("……") || !strings.Contains(h.Text, "needle") || !strings.HasPrefix(h.Text, "…")) {
			t.Errorf("long line shown as %q", h.Text)
		}
	}
	want := "lib/a.ts:1 lib/a.ts:2 long.ts:1 multi.ts:2"
	if strings.Join(got, " ") != want {
		t.Errorf("hits %v; want %s", got, want)
	}
	// A text across lines counts where it starts; a file named by in is
	// searched whatever .gitignore says.
	ans, _ = call(w, "search", `{"text": "one\nneedle"}`)
	if hits := ans.Data.(SearchAnswer).Hits; len(hits) != 1 || hits[0].Line != 1 {
		t.Errorf("multi-line hits %+v", hits)
	}
	ans, _ = call(w, "search", `{"text": "needle", "in": "app.log"}`)
	if hits := ans.Data.(SearchAnswer).Hits; len(hits) != 1 {
		t.Errorf("search in an ignored file: %+v", hits)
	}
	for _, folder := range []string{"build", "node_modules", "lib/dist"} {
		ans, _ = call(w, "search", `{"text": "needle", "in": "`+folder+`"}`)
		if hits := ans.Data.(SearchAnswer).Hits; len(hits) != 1 {
			t.Errorf("search in the ignored folder %s: %+v", folder, hits)
		}
	}
	_, err = call(w, "search", `{"text": "needle", "in": "lib/a.ts/x"}`)
	wantCode(t, err, diag.T9103)
	_, err = call(w, "search", `{"text": "needle", "in": "image.bin"}`)
	wantCode(t, err, diag.T1003)
	_, err = call(w, "search", `{"text": ""}`)
	wantCode(t, err, diag.T9102)
	_, err = call(w, "search", `{"text": "x", "in": "nothing"}`)
	wantCode(t, err, diag.T9103)
}

func TestList(t *testing.T) {
	w, dir := openFiles(t, map[string]string{
		".gitignore":        "*.log\n",
		"a/b/c/d.ts":        "",
		"a/b/e.ts":          "",
		"a/x.log":           "",
		"node_modules/m.js": "",
	})
	if err := os.Symlink("a/b", filepath.Join(dir, "ln")); err != nil {
		t.Fatal(err)
	}
	ans, err := call(w, "list", `{"depth": 2}`)
	if err != nil {
		t.Fatal(err)
	}
	want := "the project's root (3 entries)\na/\n  b/ (2 entries)\nln -> a/b\n"
	if ans.Text != want {
		t.Errorf("got\n%s\nwant\n%s", ans.Text, want)
	}
	ans, _ = call(w, "list", `{"depth": 2, "hidden": true}`)
	if want := "the project's root (4 entries)\n.gitignore\na/\n  b/ (2 entries)\nln -> a/b\n"; ans.Text != want {
		t.Errorf("hidden: got\n%s\nwant\n%s", ans.Text, want)
	}
	ans, _ = call(w, "list", `{"path": "a", "glob": "**/*.ts"}`)
	if want := "a/ (2 entries)\nb/c/d.ts\nb/e.ts\n"; ans.Text != want {
		t.Errorf("glob: got\n%s\nwant\n%s", ans.Text, want)
	}
	for _, bad := range []string{`{"glob": "a/[b"}`, `{"depth": -1}`, `{"path": "a/b/e.ts"}`} {
		_, err := call(w, "list", bad)
		wantCode(t, err, diag.T9102)
	}
}
