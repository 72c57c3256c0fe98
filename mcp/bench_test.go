package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tent-tools/tent-tools/internal/projectgen"
	"github.com/tent-tools/tent-tools/tools"
)

// The MCP face's cost over the engine's, warm: the same read and the same
// one-line edit through tools.Call in this process, and through `tent-tools
// mcp` on stdio (the Go SDK's client, JSON-RPC over a pipe to the binary).
// The target is within 1 ms of tools.Call; tools/list within 2 ms.
//
//	go test ./mcp -run '^$' -bench . -benchtime 200x

// benchFaces runs one call through both faces, each on its own copy of
// shop with lib/values.ts; input(i) is the i-th call's input.
func benchFaces(b *testing.B, tool string, input func(i int) string) {
	const values = "export const v = 0\n"
	prepare := func(b *testing.B) string {
		dir := copyProject(b, "shop")
		if err := os.WriteFile(filepath.Join(dir, "lib", "values.ts"), []byte(values), 0o644); err != nil {
			b.Fatal(err)
		}
		return dir
	}
	b.Run("tools.Call", func(b *testing.B) {
		w, err := tools.Open(prepare(b), tools.Options{})
		if err != nil {
			b.Fatal(err)
		}
		defer w.Close()
		ctx := context.Background()
		if _, err := tools.Call(ctx, w, "read", json.RawMessage(`{"path": "lib/values.ts"}`)); err != nil {
			b.Fatal(err) // warm: the index read, the history open
		}
		i := 0
		for b.Loop() {
			if _, err := tools.Call(ctx, w, tool, json.RawMessage(input(i))); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("mcp-stdio", func(b *testing.B) {
		cs := connect(b, prepare(b), nil, nil)
		ctx := context.Background()
		call(b, cs, "read", `{"path": "lib/values.ts"}`)
		i := 0
		for b.Loop() {
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: json.RawMessage(input(i))})
			if err != nil || res.IsError {
				b.Fatalf("%v %v", err, res)
			}
			i++
		}
	})
}

func BenchmarkRead(b *testing.B) {
	benchFaces(b, "read", func(int) string { return `{"path": "tables/orders.ts"}` })
}

// BenchmarkEdit edits one line, back and forth, so every call changes the
// file and records a point.
func BenchmarkEdit(b *testing.B) {
	benchFaces(b, "edit", func(i int) string {
		return fmt.Sprintf(`{"path": "lib/values.ts", "find": "v = %d", "with": "v = %d"}`, i%2, (i+1)%2)
	})
}

func BenchmarkToolsList(b *testing.B) {
	cs := connect(b, copyProject(b, "shop"), nil, nil)
	ctx := context.Background()
	for b.Loop() {
		if _, err := cs.ListTools(ctx, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// bigProject writes a generated 1,000-table project into a new folder,
// its files older than the racy window, change times too (as a project's
// files are but for the few just edited; a file changed less than 2 s
// before a look is read again at every look, definitions.Stamp.Racy).
func bigProject(b *testing.B) string {
	dir := b.TempDir()
	if err := projectgen.Write(dir, projectgen.Generate(projectgen.Options{Tables: 1000, Seed: 1})); err != nil {
		b.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			os.Chtimes(p, old, old)
		}
		return nil
	})
	time.Sleep(2100 * time.Millisecond)
	return dir
}

// BenchmarkMapBig is a warm map call over a session on a 1,000-table
// project (issue 24's target: 10 ms), with the bytes of its text and of
// its structuredContent (the target: within 4× the text's).
//
//	go test ./mcp -run '^$' -bench MapBig -benchtime 20x
func BenchmarkMapBig(b *testing.B) {
	cs := connect(b, bigProject(b), nil, nil)
	res := call(b, cs, "map", `{}`) // warm: the index read
	defer reportBytes(b, res)
	ctx := context.Background()
	for b.Loop() {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "map", Arguments: json.RawMessage(`{}`)})
		if err != nil || res.IsError {
			b.Fatalf("%v %v", err, res)
		}
	}
}

// BenchmarkRenameHubBig plans the rename of the hub table (accounts,
// named from about half the project) on a 1,000-table project, back and
// forth, and reports
// the bytes of the answer's text and structuredContent.
func BenchmarkRenameHubBig(b *testing.B) {
	cs := connect(b, bigProject(b), nil, nil)
	res := call(b, cs, "rename", `{"name": "accounts", "to": "members"}`)
	if res.IsError {
		b.Fatalf("rename: %s", text(res))
	}
	defer reportBytes(b, res)
	// Each call renames it back and forth: the same sites each time.
	names := [2]string{"members", "accounts"}
	i := 0
	for b.Loop() {
		in := fmt.Sprintf(`{"name": %q, "to": %q}`, names[i%2], names[(i+1)%2])
		if res := call(b, cs, "rename", in); res.IsError {
			b.Fatalf("rename: %s", text(res))
		}
		i++
	}
}

// reportBytes reports the bytes of a result's text and structuredContent
// (after the loop: b.Loop's first call resets the metrics).
func reportBytes(b *testing.B, res *sdk.CallToolResult) {
	data, _ := json.Marshal(res.StructuredContent)
	b.ReportMetric(float64(len(text(res))), "text-bytes")
	b.ReportMetric(float64(len(data)), "structured-bytes")
}
