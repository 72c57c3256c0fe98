package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"syscall"
	"testing"
	"time"
)

// The benchmarks of this file run the server in the test's process, over
// pipes, on the generated 1,000-table project, so that -cpuprofile and
// -memprofile see the server's work and B/op is what a request allocates
// (the server's and the client's reading of the answer). Their targets
// (issue 24, docs/pages/performance.md): a planned rename of an ordinary
// table <= 3 ms, of the hub (most files name it) <= 60 ms; references,
// hover and documentSymbol at or under TypeScript 7's server. Run:
//
//	go test ./lsp -run XXX -bench Requests -benchtime 50x -benchmem

// pipeConn is the server's end of the pipes: it reads what the client
// sends and writes what the client reads.
type pipeConn struct {
	io.Reader
	io.WriteCloser
}

// startInProcess serves one session on dir in this process.
func startInProcess(b *testing.B, dir string) *client {
	b.Helper()
	return startInProcessWith(b, dir, Options{})
}

// startInProcessWith is startInProcess with the server's options (the
// bench's caller set).
func startInProcessWith(b *testing.B, dir string, opts Options) *client {
	b.Helper()
	opts.DefaultCaller = func(string) string { return "bench" }
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	c := &client{t: b, dir: dir, in: fromClient, done: make(chan struct{}), pending: map[string]chan message{}, changed: make(chan struct{}, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() {
		defer close(served)
		Serve(ctx, pipeConn{toServer, fromServer}, opts)
		fromServer.Close()
	}()
	go c.read(bufio.NewReader(toClient))
	b.Cleanup(func() {
		fromClient.Close()
		cancel()
		<-served
		<-c.done
	})
	return c
}

// processCPU is the CPU time this process has used so far.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkRequests: each request of an editor on the 1,000-table
// project, warm (asked before the timing), the answer waited for. One
// session serves them all, in the client's default write mode (the
// client writes: a rename is planned and judged, and answered as an
// edit). The hub table's file is open, as an editor has it.
func BenchmarkRequests(b *testing.B) {
	c := startInProcess(b, bigProject(b))
	c.initialize(map[string]any{}, nil)
	hub := c.open(hubFile)
	c.diagnosticsOf(0, hubFile, func(p published) bool { return p.Version != nil && *p.Version == 1 })
	ordinary := "tables/accounts2.ts" // named by 10 other files
	src, err := os.ReadFile(c.dir + "/" + ordinary)
	if err != nil {
		b.Fatal(err)
	}
	text := string(src)
	doc := func(rel string) map[string]any { return map[string]any{"uri": c.uri(rel)} }
	at := func(rel, text, what string) map[string]any {
		return map[string]any{"textDocument": doc(rel), "position": posOf(b, text, what, 0, 1)}
	}
	with := func(p map[string]any, k string, v any) map[string]any {
		out := map[string]any{k: v}
		for k, v := range p {
			out[k] = v
		}
		return out
	}
	refs := map[string]any{"includeDeclaration": true}
	requests := []struct {
		name, method string
		params       map[string]any
	}{
		{"RenameTablePlanned", "textDocument/rename", with(at(ordinary, text, "accounts2 = table"), "newName", "ledgers")},
		{"RenameHubPlanned", "textDocument/rename", with(at(hubFile, hub, "accounts = table"), "newName", "members")},
		{"RenameColumnPlanned", "textDocument/rename", with(at(ordinary, text, "amount:"), "newName", "total")},
		{"ReferencesTable", "textDocument/references", with(at(ordinary, text, "accounts2 = table"), "context", refs)},
		{"ReferencesHub", "textDocument/references", with(at(hubFile, hub, "accounts = table"), "context", refs)},
		{"HoverColumn", "textDocument/hover", at(ordinary, text, "amount:")},
		{"HoverHub", "textDocument/hover", at(hubFile, hub, "accounts = table")},
		{"DocumentSymbol", "textDocument/documentSymbol", map[string]any{"textDocument": doc(hubFile)}},
	}
	for _, r := range requests {
		b.Run(r.name, func(b *testing.B) {
			c.t = b
			var answer json.RawMessage
			answer = c.must(r.method, r.params) // warm
			cpu := processCPU(b)
			b.ResetTimer()
			for range b.N {
				answer = c.must(r.method, r.params)
			}
			b.StopTimer()
			b.ReportMetric(float64(len(answer)), "answer-bytes")
			// The CPU the process spent (server and client, every
			// goroutine): on a loaded machine the wall time says more
			// about the neighbours.
			b.ReportMetric(float64((processCPU(b)-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
}

// BenchmarkApplyInProcess: a one-op tent/apply (a column made optional
// or required again) on the 1,000-table project where the server writes:
// planned, judged, committed as a point, the open buffers brought along.
func BenchmarkApplyInProcess(b *testing.B) {
	c := startInProcess(b, bigProject(b))
	c.initialize(map[string]any{}, map[string]any{"writes": "server"})
	c.open("tables/accounts2.ts") // an open buffer the change does not touch
	c.diagnosticsOf(0, "tables/accounts2.ts", func(p published) bool { return p.Version != nil && *p.Version == 1 })
	c.must("tent/apply", json.RawMessage(toggle(1))) // the first commit records the starting state
	cpu := processCPU(b)
	b.ResetTimer()
	for i := range b.N {
		c.must("tent/apply", json.RawMessage(toggle(i)))
	}
	b.StopTimer()
	b.ReportMetric(float64((processCPU(b)-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// BenchmarkModelAfterChangeInProcess: tent/model after each one-op
// tent/apply (the apply not timed): the model made anew for the new
// snapshot, with the findings it counts.
func BenchmarkModelAfterChangeInProcess(b *testing.B) {
	c := startInProcess(b, bigProject(b))
	c.initialize(map[string]any{}, map[string]any{"writes": "server"})
	c.must("tent/model", nil)
	var cpu time.Duration
	for i := range b.N {
		b.StopTimer()
		c.must("tent/apply", json.RawMessage(toggle(i)))
		b.StartTimer()
		before := processCPU(b)
		c.must("tent/model", nil)
		cpu += processCPU(b) - before
	}
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
}
