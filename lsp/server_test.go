package lsp

import (
	"encoding/json"
	"go.lsp.dev/protocol"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/internal/golden"
)

func TestInitialize(t *testing.T) {
	tests := []struct {
		name     string
		params   func(c *client) map[string]any
		wantEnc  string
		wantCode string // an error's tool code, "" for success
	}{
		{"utf-16 by default", func(c *client) map[string]any {
			return map[string]any{"rootUri": c.uri(""), "capabilities": map[string]any{}}
		}, "utf-16", ""},
		{"utf-8 where offered", func(c *client) map[string]any {
			return map[string]any{"rootUri": c.uri(""), "capabilities": map[string]any{"general": map[string]any{"positionEncodings": []string{"utf-16", "utf-8"}}}}
		}, "utf-8", ""},
		{"one workspace folder", func(c *client) map[string]any {
			return map[string]any{"workspaceFolders": []any{map[string]any{"uri": c.uri(""), "name": "shop"}}, "capabilities": map[string]any{}}
		}, "utf-16", ""},
		{"a second folder", func(c *client) map[string]any {
			return map[string]any{"workspaceFolders": []any{map[string]any{"uri": c.uri(""), "name": "a"}, map[string]any{"uri": c.uri("tables"), "name": "b"}}, "capabilities": map[string]any{}}
		}, "", "T9121"},
		{"no folder", func(c *client) map[string]any {
			return map[string]any{"capabilities": map[string]any{}}
		}, "", "T9121"},
		{"a folder that is not one", func(c *client) map[string]any {
			return map[string]any{"rootUri": c.uri("project.ts"), "capabilities": map[string]any{}}
		}, "", "T9121"},
		{"bad writes", func(c *client) map[string]any {
			return map[string]any{"rootUri": c.uri(""), "capabilities": map[string]any{}, "initializationOptions": map[string]any{"writes": "both"}}
		}, "", "T9102"},
		{"an unknown option", func(c *client) map[string]any {
			return map[string]any{"rootUri": c.uri(""), "capabilities": map[string]any{}, "initializationOptions": map[string]any{"project": "/etc"}}
		}, "", "T9102"},
		{"a bad policy", func(c *client) map[string]any {
			return map[string]any{"rootUri": c.uri(""), "capabilities": map[string]any{}, "initializationOptions": map[string]any{"policy": map[string]any{"alow": []string{"**"}}}}
		}, "", "T9102"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := start(t, copyShop(t))
			res, err := c.call("initialize", tc.params(c))
			if tc.wantCode != "" {
				wantToolError(t, err, tc.wantCode)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got struct {
				Capabilities struct {
					PositionEncoding string `json:"positionEncoding"`
				} `json:"capabilities"`
			}
			json.Unmarshal(res, &got)
			if got.Capabilities.PositionEncoding != tc.wantEnc {
				t.Errorf("positionEncoding %q, want %q", got.Capabilities.PositionEncoding, tc.wantEnc)
			}
			if code := c.shutdown(); code != 0 {
				t.Errorf("exit status %d after shutdown and exit", code)
			}
		})
	}
}

// wantToolError fails t unless err is a tool error with the code: its
// message starts with the code and its data is the tool error's JSON.
func wantToolError(t testing.TB, err *rpcError, code string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error; want %s", code)
	}
	var data struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	json.Unmarshal(err.Data, &data)
	if !strings.HasPrefix(err.Message, code+": ") || data.Code != code || data.Message == "" {
		t.Fatalf("got error %v with data %s; want %s", err, err.Data, code)
	}
}

func TestExitWithoutShutdown(t *testing.T) {
	c := start(t, copyShop(t))
	c.initialize(map[string]any{}, nil)
	c.notify("exit", nil)
	<-c.done
	c.cmd.Wait()
	if code := c.cmd.ProcessState.ExitCode(); code != 1 {
		t.Errorf("exit without shutdown: status %d, want 1", code)
	}
}

// diagnostics decodes a publishDiagnostics.
type published struct {
	URI         string `json:"uri"`
	Version     *int   `json:"version"`
	Diagnostics []struct {
		Range struct {
			Start struct{ Line, Character int } `json:"start"`
		} `json:"range"`
		Code            string `json:"code"`
		Source          string `json:"source"`
		Message         string `json:"message"`
		CodeDescription *struct {
			Href string `json:"href"`
		} `json:"codeDescription"`
		Data *struct {
			Fix *struct {
				Title string `json:"title"`
			} `json:"fix"`
		} `json:"data"`
		RelatedInformation []json.RawMessage `json:"relatedInformation"`
	} `json:"diagnostics"`
}

func (p published) codes() []string {
	var out []string
	for _, d := range p.Diagnostics {
		out = append(out, d.Code)
	}
	return out
}

// diagnosticsOf waits for the diagnostics of a file that ok accepts.
func (c *client) diagnosticsOf(from int, rel string, ok func(published) bool) (published, int) {
	c.t.Helper()
	var got published
	_, next := c.waitFor(from, "textDocument/publishDiagnostics", func(raw json.RawMessage) bool {
		var p published
		json.Unmarshal(raw, &p)
		if p.URI != c.uri(rel) || !ok(p) {
			return false
		}
		got = p
		return true
	})
	return got, next
}

func TestDiagnosticsFollowTheBuffer(t *testing.T) {
	c := start(t, copyShop(t))
	c.initialize(fullCapabilities(), nil)
	const orders = "tables/orders.ts"
	text := c.open(orders)
	first, at := c.diagnosticsOf(0, orders, func(p published) bool { return p.Version != nil && *p.Version == 1 })
	if slices.Contains(first.codes(), "T2003") {
		t.Fatalf("the sample has T2003 already: %v", first.codes())
	}
	// An incremental change breaks the ref: userz.
	at0 := c.mark()
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": c.uri(orders), "version": 2},
		"contentChanges": []any{map[string]any{"range": map[string]any{"start": posOf(t, text, "ref('users')", 0, 9), "end": posOf(t, text, "ref('users')", 0, 10)}, "text": "z"}},
	})
	broken, _ := c.diagnosticsOf(at0, orders, func(p published) bool { return p.Version != nil && *p.Version == 2 })
	if !slices.Contains(broken.codes(), "T2003") {
		t.Fatalf("after breaking the ref: %v, want T2003", broken.codes())
	}
	for _, d := range broken.Diagnostics {
		if d.Code == "T2003" {
			if d.Source != "tent" || d.CodeDescription == nil || !strings.Contains(d.CodeDescription.Href, "codes-t2#t2003") {
				t.Errorf("T2003's diagnostic: source %q, codeDescription %+v", d.Source, d.CodeDescription)
			}
			if d.Data == nil || d.Data.Fix == nil || !strings.Contains(d.Data.Fix.Title, "users") {
				t.Errorf("T2003's diagnostic carries no certain fix to users: %+v", d.Data)
			}
		}
	}
	if got := c.file(orders); got != text {
		t.Errorf("a change of the buffer reached the disk")
	}
	// A full-text change (no range) fixes it: the diagnostic goes.
	at1 := c.mark()
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": c.uri(orders), "version": 3},
		"contentChanges": []any{map[string]any{"text": text}},
	})
	fixed, _ := c.diagnosticsOf(at1, orders, func(p published) bool { return p.Version != nil && *p.Version == 3 })
	if slices.Contains(fixed.codes(), "T2003") {
		t.Errorf("after the fix: %v", fixed.codes())
	}
	_ = first
	_ = at
	// Removing a column in the buffer makes findings in other files
	// (the test data that still has it, the code that writes it).
	at2 := c.mark()
	noTotal := strings.Replace(text, "    total: money(),\n", "", 1)
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": c.uri(orders), "version": 4},
		"contentChanges": []any{map[string]any{"text": noTotal}},
	})
	other, _ := c.diagnosticsOf(at2, "testdata/orders.json", func(p published) bool { return len(p.Diagnostics) > 0 })
	if !slices.Contains(other.codes(), "T2602") {
		t.Errorf("test data of a removed column: %v, want T2602", other.codes())
	}
	// Closing the document drops its overlay: the findings of the disk's text.
	at3 := c.mark()
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": c.uri(orders)}})
	cleared, _ := c.diagnosticsOf(at3, "testdata/orders.json", func(p published) bool { return true })
	if len(cleared.Diagnostics) != 0 {
		t.Errorf("after closing, testdata/orders.json still has %v; want [] published", cleared.codes())
	}
	if code := c.shutdown(); code != 0 {
		t.Errorf("exit status %d", code)
	}
}

// TestNavigation is a golden of the answers of the reading requests.
func TestNavigation(t *testing.T) {
	dir := copyShop(t)
	c := start(t, dir)
	c.initialize(fullCapabilities(), nil)
	orders := c.open("tables/orders.ts")
	fn := c.file("functions/orders.ts")
	flow := c.file("flows/checkout.ts")
	data := c.file("testdata/orders.json")
	requests := []struct {
		name, method string
		params       any
	}{
		{"documentSymbol of a table", "textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": c.uri("tables/orders.ts")}}},
		{"documentSymbol of a flow", "textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": c.uri("flows/checkout.ts")}}},
		{"workspace/symbol fuzzy", "workspace/symbol", map[string]any{"query": "ordbuy"}},
		{"hover on a column", "textDocument/hover", c.docPos("tables/orders.ts", posOf(t, orders, "buyer:", 0, 1))},
		{"hover on a table in code", "textDocument/hover", c.docPos("functions/orders.ts", posOf(t, fn, "ctx.db.orders", 0, 8))},
		{"definition of a column key in code", "textDocument/definition", c.docPos("functions/orders.ts", posOf(t, fn, "buyer: input.buyer", 0, 1))},
		{"definition of a ref", "textDocument/definition", c.docPos("functions/orders.ts", posOf(t, fn, "ref('orders')", 0, 6))},
		{"definition of a step", "textDocument/definition", c.docPos("flows/checkout.ts", posOf(t, flow, "'placeOrder'", 0, 2))},
		{"definition of an import", "textDocument/definition", c.docPos("functions/orders.ts", posOf(t, fn, "'../tables/orders'", 0, 3))},
		{"references of a column", "textDocument/references", map[string]any{"textDocument": map[string]any{"uri": c.uri("tables/orders.ts")}, "position": posOf(t, orders, "status:", 0, 1), "context": map[string]any{"includeDeclaration": true}}},
		{"tent/references of a column", "tent/references", map[string]any{"textDocument": map[string]any{"uri": c.uri("tables/orders.ts")}, "position": posOf(t, orders, "status:", 0, 1), "context": map[string]any{"includeDeclaration": true}}},
		{"prepareRename on a column", "textDocument/prepareRename", c.docPos("tables/orders.ts", posOf(t, orders, "buyer:", 0, 2))},
		{"prepareRename on a test data key", "textDocument/prepareRename", c.docPos("testdata/orders.json", posOf(t, data, `"buyer"`, 0, 2))},
		{"prepareRename on a step", "textDocument/prepareRename", c.docPos("flows/checkout.ts", posOf(t, flow, "'chargeCard'", 0, 1))},
		{"prepareRename on a keyword", "textDocument/prepareRename", c.docPos("tables/orders.ts", posOf(t, orders, "export", 0, 1))},
		{"prepareRename on a code site", "textDocument/prepareRename", c.docPos("functions/orders.ts", posOf(t, fn, "ctx.db.orders", 0, 8))},
	}
	var out strings.Builder
	for _, r := range requests {
		res, err := c.call(r.method, r.params)
		out.WriteString("## " + r.name + "\n")
		if err != nil {
			e, _ := json.MarshalIndent(err, "", "  ")
			out.Write(c.rooted(e))
		} else {
			var v any
			json.Unmarshal(res, &v)
			pretty, _ := json.MarshalIndent(v, "", "  ")
			out.Write(c.rooted(pretty))
		}
		out.WriteString("\n\n")
	}
	golden.Check(t, "testdata/navigation.golden", []byte(out.String()))
	c.shutdown()
}

// writeEdit applies a WorkspaceEdit's documentChanges to the disk as an
// editor that saves every file would, and answers the paths it wrote.
func applyEdit(t *testing.T, dir string, raw json.RawMessage) {
	t.Helper()
	var edit struct {
		Changes         map[string][]textEdit `json:"changes"`
		DocumentChanges []json.RawMessage     `json:"documentChanges"`
	}
	if err := json.Unmarshal(raw, &edit); err != nil {
		t.Fatal(err)
	}
	path := func(uri string) string {
		p, err := filePath(uri)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	for uri, edits := range edit.Changes {
		editFile(t, path(uri), edits)
	}
	for _, dc := range edit.DocumentChanges {
		var op struct {
			Kind         string `json:"kind"`
			URI          string `json:"uri"`
			OldURI       string `json:"oldUri"`
			NewURI       string `json:"newUri"`
			TextDocument struct {
				URI string `json:"uri"`
			} `json:"textDocument"`
			Edits []textEdit `json:"edits"`
		}
		json.Unmarshal(dc, &op)
		switch op.Kind {
		case "rename":
			if err := os.Rename(path(op.OldURI), path(op.NewURI)); err != nil {
				t.Fatal(err)
			}
		case "delete":
			if err := os.Remove(path(op.URI)); err != nil {
				t.Fatal(err)
			}
		case "create":
			if err := os.WriteFile(path(op.URI), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		case "":
			editFile(t, path(op.TextDocument.URI), op.Edits)
		default:
			t.Fatalf("unexpected operation %s", dc)
		}
	}
}

type textEdit struct {
	Range struct {
		Start struct{ Line, Character int } `json:"start"`
		End   struct{ Line, Character int } `json:"end"`
	} `json:"range"`
	NewText string `json:"newText"`
}

// editFile applies text edits (UTF-16 positions; the sample is ASCII
// where it is edited) to a file, last first.
func editFile(t *testing.T, path string, edits []textEdit) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	l := newLines(data, encUTF16)
	type span struct {
		start, end int
		text       string
	}
	var spans []span
	for _, e := range edits {
		s, err1 := l.offset(toPos(e.Range.Start.Line, e.Range.Start.Character))
		en, err2 := l.offset(toPos(e.Range.End.Line, e.Range.End.Character))
		if err1 != nil || err2 != nil {
			t.Fatalf("bad edit range in %s", path)
		}
		spans = append(spans, span{s, en, e.NewText})
	}
	slices.SortFunc(spans, func(a, b span) int { return b.start - a.start })
	for _, s := range spans {
		data = append(append(append([]byte{}, data[:s.start]...), s.text...), data[s.end:]...)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// snapshot reads every file of a project but the framework's state.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() && rel == ".tent" {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			data, _ := os.ReadFile(p)
			out[filepath.ToSlash(rel)] = string(data)
		}
		return nil
	})
	return out
}

func toPos(line, char int) protocol.Position {
	return protocol.Position{Line: uint32(line), Character: uint32(char)}
}

// TestNoProjectWarns: a root that holds no project.ts (an editor that took
// the folder above the project for the root) is told to the person, by
// window/showMessage and a line of the server's log; a project's root is
// not.
func TestNoProjectWarns(t *testing.T) {
	parent := t.TempDir()
	shop := copyShop(t)
	if err := os.Rename(shop, filepath.Join(parent, "shop")); err != nil {
		t.Fatal(err)
	}
	c := start(t, parent)
	c.initialize(fullCapabilities(), nil)
	msg, _ := c.waitFor(0, "window/showMessage", nil)
	var shown struct {
		Type    int    `json:"type"`
		Message string `json:"message"`
	}
	json.Unmarshal(msg, &shown)
	if shown.Type != 2 || !strings.Contains(shown.Message, parent+" holds no project.ts") || !strings.Contains(shown.Message, "find project.ts upward") {
		t.Errorf("showMessage %s", msg)
	}
	c.shutdown()
	c.mu.Lock()
	logged := c.stderr.String()
	c.mu.Unlock()
	if !strings.Contains(logged, "tent-tools lsp: tent-tools: "+parent+" holds no project.ts") {
		t.Errorf("the log says: %s", logged)
	}

	p := start(t, copyShop(t))
	p.initialize(fullCapabilities(), nil)
	p.open("tables/orders.ts")
	p.waitFor(0, "textDocument/publishDiagnostics", nil)
	p.mu.Lock()
	for _, n := range p.notes {
		if n.Method == "window/showMessage" {
			t.Errorf("a project's root was warned about: %s", n.Params)
		}
	}
	p.mu.Unlock()
	p.shutdown()
}
