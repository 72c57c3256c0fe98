package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

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

// BenchmarkInitializeToFirstDiagnostics starts a session with the index
// cache present (.tent/index, written by a session before the timing),
// as an editor opening a project it opened before does. The project's
// files are older than the cache's racy window when it is written: a
// file changed within 2 s of its stamp is read again by every later
// process (definitions.Stamp.Racy), which a project just generated would
// make of every file.
func BenchmarkInitializeToFirstDiagnostics(b *testing.B) {
	dir := bigProject(b)
	time.Sleep(2*time.Second + 100*time.Millisecond)
	warm := start(b, dir)
	warm.initialize(map[string]any{}, nil)
	warm.open(hubFile)
	warm.diagnosticsOf(0, hubFile, func(p published) bool { return p.Version != nil && *p.Version == 1 })
	warm.shutdown()
	b.ResetTimer()
	var cpu time.Duration
	for i := 0; i < b.N; i++ {
		c := start(b, dir)
		c.initialize(map[string]any{}, nil)
		c.open(hubFile)
		c.diagnosticsOf(0, hubFile, func(p published) bool { return p.Version != nil && *p.Version == 1 })
		// The session's end is not timed: the server gives a client that
		// keeps its stdin open a second to close it.
		b.StopTimer()
		c.shutdown()
		b.StartTimer()
		// The server's CPU time, the whole session: on a busy machine
		// the wall time says more about the neighbours.
		cpu += c.cmd.ProcessState.UserTime() + c.cmd.ProcessState.SystemTime()
	}
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "server-cpu-ms/op")
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

// BenchmarkDidChangeToDiagnostics types one character into the hub
// table's comment and takes it out again, each a version, each waited for
// (so the debounce's delay is set to 0 for it: a burst is one check).
func BenchmarkDidChangeToDiagnostics(b *testing.B) {
	c, text := warmSession(b, map[string]any{"diagnosticDelay": 0})
	at := posOf(b, text, "// Accounts", 0, 3)
	cpu := serverCPU(b, c)
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
	b.StopTimer()
	b.ReportMetric(float64((serverCPU(b, c)-cpu).Milliseconds())/float64(b.N), "server-cpu-ms/op")
}

// serverCPU is the CPU time the server process has used so far (Linux's
// /proc; in clock ticks of 10 ms, so loops of many ops say the most).
func serverCPU(b *testing.B, c *client) time.Duration {
	b.Helper()
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", c.cmd.Process.Pid))
	if err != nil {
		b.Skipf("no CPU time of the server: %v", err)
	}
	// The fields after the command's name, which is in parentheses.
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond
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
