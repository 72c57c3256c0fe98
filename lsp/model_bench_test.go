package lsp

import (
	"encoding/json"
	"testing"
)

// applySession is a warm session where the server writes, the hub
// table's buffer closed (the benchmark's client applies no edit, so an
// open buffer would be left behind the disk).
func applySession(b *testing.B) *client {
	c, _ := warmSession(b, map[string]any{"writes": "server"})
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": c.uri(hubFile)}})
	return c
}

// BenchmarkModelWarm: tent/model on the 1,000-table project, asked again
// of an unchanged snapshot, over stdio: the whole 3.8 MB answer, kept
// encoded; the wall time is mostly the client's reading it.
func BenchmarkModelWarm(b *testing.B) {
	c, _ := warmSession(b, nil)
	c.must("tent/model", nil)
	cpu := serverCPU(b, c)
	b.ResetTimer()
	for range b.N {
		c.must("tent/model", nil)
	}
	b.ReportMetric(float64((serverCPU(b, c)-cpu).Milliseconds())/float64(b.N), "server-cpu-ms/op")
}

// BenchmarkModelSince: tent/model asked with the tag of the model the
// client holds, of an unchanged snapshot: the few bytes of "unchanged"
// (target: <= 10 ms).
func BenchmarkModelSince(b *testing.B) {
	c, _ := warmSession(b, nil)
	var m struct {
		Tag string `json:"tag"`
	}
	json.Unmarshal(c.must("tent/model", nil), &m)
	since := map[string]any{"since": m.Tag}
	cpu := serverCPU(b, c)
	b.ResetTimer()
	for range b.N {
		c.must("tent/model", since)
	}
	b.ReportMetric(float64((serverCPU(b, c)-cpu).Milliseconds())/float64(b.N), "server-cpu-ms/op")
}

// BenchmarkModelAfterChange: tent/model after each one-op tent/apply (a
// model made anew: the snapshot changed); the apply is not timed.
func BenchmarkModelAfterChange(b *testing.B) {
	c := applySession(b)
	for i := range b.N {
		b.StopTimer()
		c.must("tent/apply", json.RawMessage(toggle(i)))
		b.StartTimer()
		c.must("tent/model", nil)
	}
}

// BenchmarkApplyOneOpWarm: a one-op tent/apply (a column made optional
// or required again), planned, judged, committed as a point, over stdio
// with the server writing.
func BenchmarkApplyOneOpWarm(b *testing.B) {
	c := applySession(b)
	c.must("tent/apply", json.RawMessage(toggle(1))) // the first commit records the starting state
	cpu := serverCPU(b, c)
	b.ResetTimer()
	for i := range b.N {
		c.must("tent/apply", json.RawMessage(toggle(i)))
	}
	b.ReportMetric(float64((serverCPU(b, c)-cpu).Milliseconds())/float64(b.N), "server-cpu-ms/op")
}

// toggle makes accounts.phone required (even i) or optional (odd i).
func toggle(i int) string {
	if i%2 == 0 {
		return `{"ops": [{"op": "setColumn", "column": "accounts.phone", "optional": false}]}`
	}
	return `{"ops": [{"op": "setColumn", "column": "accounts.phone", "optional": true}]}`
}

// wsSession is a warm session over the WebSocket (`lsp --listen`) on the
// big project, the hub table's buffer closed.
func wsSession(b *testing.B, opts map[string]any) *client {
	dir := bigProject(b)
	c := dialClient(b, listen(b, "--root", dir), dir)
	c.initialize(map[string]any{}, opts)
	c.notify("initialized", map[string]any{})
	return c
}

// BenchmarkModelWebSocket: tent/model over the WebSocket, as the studio
// asks it: the whole answer of an unchanged snapshot, and since its tag.
func BenchmarkModelWebSocket(b *testing.B) {
	c := wsSession(b, nil)
	var m struct {
		Tag string `json:"tag"`
	}
	json.Unmarshal(c.must("tent/model", nil), &m)
	for _, bb := range []struct {
		name   string
		params any
	}{{"Whole", nil}, {"Since", map[string]any{"since": m.Tag}}} {
		b.Run(bb.name, func(b *testing.B) {
			c.t = b
			for range b.N {
				c.must("tent/model", bb.params)
			}
		})
	}
}

// BenchmarkApplyWebSocket: a one-op tent/apply over the WebSocket where
// the server writes, as the studio applies it.
func BenchmarkApplyWebSocket(b *testing.B) {
	c := wsSession(b, map[string]any{"writes": "server"})
	c.must("tent/apply", json.RawMessage(toggle(1))) // the first commit records the starting state
	b.ResetTimer()
	for i := range b.N {
		c.must("tent/apply", json.RawMessage(toggle(i)))
	}
}
