package tools

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"sync"
	"testing"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/docs"
)

func TestDecodeInput(t *testing.T) {
	w, _ := openFiles(t, map[string]string{"a.ts": "a\n"})
	tests := []struct {
		tool, input, code, field string
	}{
		{"grep", `{}`, diag.T9101, ""},
		{"read", `[]`, diag.T9102, ""},
		{"read", `"a.ts"`, diag.T9102, ""},
		{"read", `{"path": "a.ts"`, diag.T9102, ""},
		{"read", `{}`, diag.T9102, "path"},
		{"read", `{"path": null}`, diag.T9102, "path"},
		{"read", `{"Path": "a.ts"}`, diag.T9102, "Path"}, // no other capitals
		{"read", `{"path": "a.ts", "from": 1.5}`, diag.T9102, "from"},
		{"read", `{"path": 3}`, diag.T9102, "path"},
		{"edit", `{"path": "a.ts", "edits": [{"find": "a", "with": "b", "why": "x"}]}`, diag.T9102, "edits[0].why"},
		{"edit", `{"path": "a.ts", "edits": {"find": "a"}}`, diag.T9102, "edits"},
		{"edit", `{"path": "a.ts", "edits": [3]}`, diag.T9102, "edits[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.tool+" "+tt.input, func(t *testing.T) {
			_, err := call(w, tt.tool, tt.input)
			te := wantCode(t, err, tt.code)
			if tt.field != "" && te.Data["field"] != tt.field {
				t.Errorf("field %v; want %q (%s)", te.Data["field"], tt.field, te.Message)
			}
		})
	}
	// Empty input is {} for a tool whose fields are all optional.
	if _, err := Call(context.Background(), w, "list", nil); err != nil {
		t.Errorf("list with no input: %v", err)
	}
}

func TestCallRecoversPanics(t *testing.T) {
	panics := Tool{Name: "test-panics", NewInput: func() any { return new(struct{}) },
		Run: func(context.Context, *Workspace, any) (Answer, error) { panic("boom") }}
	var logged strings.Builder
	w, _ := openFiles(t, nil)
	w.log = &logged
	_, err := w.invoke(context.Background(), panics, new(struct{}))
	if te := wantCode(t, err, diag.T9114); te != nil && !containsAll(te.Message, "boom", "report") {
		t.Errorf("got %v", err)
	}
	// The stack names the function that panicked, for the report.
	if !containsAll(logged.String(), "internal error in tool test-panics: boom", "goroutine", "registry_test.go") {
		t.Errorf("stderr got %q; want the panic with its stack", logged.String())
	}
}

func TestErrorData(t *testing.T) {
	got, _ := JSON(ErrorData(diag.Errorf(diag.T9106, "twice").With("count", 2)))
	want := "{\n  \"error\": {\n    \"code\": \"T9106\",\n    \"count\": 2,\n    \"message\": \"twice\"\n  }\n}\n"
	if string(got) != want {
		t.Errorf("got %s", got)
	}
}

// TestConcurrentEdits runs edits of distinct lines of one file at once:
// tools that write run one after another, so every edit lands.
func TestConcurrentEdits(t *testing.T) {
	const n = 50
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	w, dir := openFiles(t, map[string]string{"f.ts": b.String()})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			input := fmt.Sprintf(`{"path": "f.ts", "find": "line %d\n", "with": "edited %d\n"}`, i, i)
			if _, err := call(w, "edit", input); err != nil {
				t.Error(err)
			}
			if _, err := call(w, "read", `{"path": "f.ts"}`); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	got := readFile(t, dir, "f.ts")
	if strings.Contains(got, "line") || strings.Count(got, "edited") != n {
		t.Errorf("not every edit landed:\n%s", got)
	}
}

func TestDocs(t *testing.T) {
	w, _ := openFiles(t, nil)
	for _, topic := range docs.Topics() {
		ans, err := call(w, "docs", fmt.Sprintf(`{"topic": %q}`, topic))
		if err != nil || !strings.HasPrefix(ans.Text, "# ") {
			t.Errorf("docs %s: %v %.40q", topic, err, ans.Text)
		}
	}
	_, err := call(w, "docs", `{"topic": "nothing"}`)
	te := wantCode(t, err, diag.T9108)
	if fmt.Sprint(te.Data["topics"]) != fmt.Sprint(docs.Topics()) {
		t.Errorf("topics %v", te.Data["topics"])
	}
	_, err = call(w, "docs", `{"topic": "../docs"}`)
	wantCode(t, err, diag.T9108)
	// A tool's page by its command's spelling; a likely typo is named.
	for _, tt := range []struct{ topic, page, nearest string }{
		{"changed-by", "changedBy", ""},
		{"changedBy", "changedBy", ""},
		{"remot", "", "remote"},
		{"Undo", "", "undo"},
		{"xyzzy", "", ""},
	} {
		ans, err := call(w, "docs", fmt.Sprintf(`{"topic": %q}`, tt.topic))
		if tt.page != "" {
			if err != nil || ans.Data.(DocsAnswer).Topic != tt.page {
				t.Errorf("docs %s: %v, %+v; want the page %s", tt.topic, err, ans.Data, tt.page)
			}
			continue
		}
		te := wantCode(t, err, diag.T9108)
		if near, _ := te.Data["nearest"].(string); near != tt.nearest || (near != "") != strings.Contains(te.Message, "did you mean "+near+"?") {
			t.Errorf("docs %s: %q, nearest %q; want %q", tt.topic, te.Message, near, tt.nearest)
		}
	}
	// Every registered tool has its page.
	for _, tool := range All() {
		if _, ok := docs.Page(tool.Name); !ok {
			t.Errorf("tool %s has no docs page", tool.Name)
		}
	}
}

// TestCodesPage checks that the codes page lists every code of package
// diag, read from its source so that a new code cannot be forgotten.
func TestCodesPage(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "../diag/diag.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := docs.Page("codes")
	n := 0
	ast.Inspect(f, func(node ast.Node) bool {
		if v, ok := node.(*ast.ValueSpec); ok {
			for _, name := range v.Names {
				if strings.HasPrefix(name.Name, "T") && len(name.Name) == 5 {
					n++
					if !strings.Contains(page, "| "+name.Name+" |") {
						t.Errorf("the codes page lacks %s", name.Name)
					}
				}
			}
		}
		return true
	})
	if n < 40 {
		t.Errorf("found only %d codes in diag.go", n)
	}
}

// TestDocsLinks checks that every topic a page names in backquotes as
// `codes-...` exists, so that the pages point nowhere that is not there.
func TestDocsLinks(t *testing.T) {
	for _, topic := range docs.Topics() {
		page, _ := docs.Page(topic)
		for _, part := range strings.Split(page, "`")[1:] {
			if strings.HasPrefix(part, "codes-") && !strings.ContainsAny(part, " \n") {
				if _, ok := docs.Page(part); !ok {
					t.Errorf("page %s names the topic %s, which does not exist", topic, part)
				}
			}
		}
	}
}

// TestInputNotJSON: input that is no JSON says where it breaks and what
// was expected there.
func TestInputNotJSON(t *testing.T) {
	w, _ := openFiles(t, map[string]string{"project.ts": "shop\n"})
	tests := []struct{ input, want string }{
		{`{"path": "project.ts", "find": "shop"`, `line 1, column 38 (byte 37): the input ends early; expected a } to close an object`},
		{`{"path": "project.ts", "find": "sh`, `line 1, column 35 (byte 34): the input ends early; expected the " that ends a string, then a } to close an object`},
		{"{\"path\": \"project.ts\",\n \"edits\": [{\"find\": \"a\"", `line 2, column 24 (byte 46): the input ends early; expected a } to close an object, then a ] to close an array, then a } to close an object`},
		{"{\"path\": \"project.ts\",\n  \"find\" \"shop\"}", `line 2, column 10 (byte 32): invalid character '"' after object key`},
		{`{"path": 'project.ts'}`, `line 1, column 10 (byte 9): invalid character '\'' looking for beginning of value`},
	}
	for _, tt := range tests {
		t.Run(tt.input, func(t *testing.T) {
			_, err := call(w, "edit", tt.input)
			te := wantCode(t, err, diag.T9102)
			if !strings.Contains(te.Message, tt.want) {
				t.Errorf("got %q\nwant it to hold %q", te.Message, tt.want)
			}
		})
	}
}
