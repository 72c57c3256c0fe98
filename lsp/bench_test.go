package lsp

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/tent-tools/tent-tools/internal/projectgen"
)

// The benchmarks run the binary on the generated 1,000-table project
// (cmd/tent-gen) over stdio, as an editor does. Their targets (issue 10):
// initialize to the first diagnostics <= 1.5 s (cold process), a
// one-character didChange to its publishDiagnostics <= 30 ms,
// documentSymbol <= 5 ms, a warm column rename with its commit <= 20 ms,
// references of the hub table <= 10 ms. Compare the figures within one
// run: go test ./lsp -run XXX -bench . -benchtime 3x

// bigProject writes the generated project into a new folder.
func bigProject(b *testing.B) string {
	b.Helper()
	dir := b.TempDir()
	if err := projectgen.Write(dir, projectgen.Generate(projectgen.Options{Tables: 1000, Seed: 1})); err != nil {
		b.Fatal(err)
	}
	return dir
}

// hubFile is the hub table's file of the generated project (accounts,
// which most tables reference).
const hubFile = "tables/accounts.ts"

func BenchmarkInitializeToFirstDiagnostics(b *testing.B) {
	dir := bigProject(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c := start(b, dir)
		c.initialize(map[string]any{}, nil)
		c.open(hubFile)
		c.diagnosticsOf(0, hubFile, func(p published) bool { return p.Version != nil && *p.Version == 1 })
		c.shutdown()
	}
}

// warmSession starts a session on the big project with the hub table open.
func warmSession(b *testing.B, opts map[string]any) (*client, string) {
	b.Helper()
	c := start(b, bigProject(b))
	c.initialize(map[string]any{}, opts)
	text := c.open(hubFile)
	c.diagnosticsOf(0, hubFile, func(p published) bool { return p.Version != nil && *p.Version == 1 })
	return c, text
}

func BenchmarkDidChangeToDiagnostics(b *testing.B) {
	c, text := warmSession(b, nil)
	at := posOf(b, text, "// Accounts", 0, 3)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		version := i + 2
		change := map[string]any{"range": map[string]any{"start": at, "end": at}, "text": "x"}
		if i%2 == 1 { // take the character out again
			end := map[string]any{"line": at["line"], "character": at["character"].(int) + 1}
			change = map[string]any{"range": map[string]any{"start": at, "end": end}, "text": ""}
		}
		from := c.mark()
		c.notify("textDocument/didChange", map[string]any{
			"textDocument": map[string]any{"uri": c.uri(hubFile), "version": version}, "contentChanges": []any{change}})
		c.diagnosticsOf(from, hubFile, func(p published) bool { return p.Version != nil && *p.Version == version })
	}
}

func BenchmarkDocumentSymbol(b *testing.B) {
	c, _ := warmSession(b, nil)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.must("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": c.uri(hubFile)}})
	}
}

func BenchmarkReferencesOfTheHubTable(b *testing.B) {
	c, text := warmSession(b, nil)
	params := map[string]any{"textDocument": map[string]any{"uri": c.uri(hubFile)}, "position": posOf(b, text, "accounts = table", 0, 1),
		"context": map[string]any{"includeDeclaration": true}}
	b.ResetTimer()
	var n int
	for i := 0; i < b.N; i++ {
		var locs []json.RawMessage
		json.Unmarshal(c.must("textDocument/references", params), &locs)
		n = len(locs)
	}
	b.ReportMetric(float64(n), "refs")
}

func BenchmarkRenameColumnWarm(b *testing.B) {
	c, _ := warmSession(b, map[string]any{"writes": "server"})
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": c.uri(hubFile)}})
	names := []string{"phone", "mobile"}
	// One rename first: the first commit records the starting state.
	rename := func(i int) {
		text, err := os.ReadFile(c.dir + "/" + hubFile)
		if err != nil {
			b.Fatal(err)
		}
		from, to := names[i%2], names[(i+1)%2]
		c.must("textDocument/rename", map[string]any{"textDocument": map[string]any{"uri": c.uri(hubFile)},
			"position": posOf(b, string(text), from+":", 0, 1), "newName": to})
	}
	rename(0)
	b.ResetTimer()
	for i := 1; i <= b.N; i++ {
		rename(i)
	}
	b.StopTimer()
}
