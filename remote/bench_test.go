package remote

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/tent-tools/tent-tools/internal/projectgen"
	"github.com/tent-tools/tent-tools/internal/sample"
	"github.com/tent-tools/tent-tools/tools"
)

// caller is the tools' common face of a local workspace and a remote one,
// for the benchmarks.
type caller func(ctx context.Context, tool string, input json.RawMessage) (tools.Answer, error)

// benchCalls are the calls measured: two reads and two writes, each write
// undone by its pair (the even and odd runs), so every run does the same.
var benchCalls = []struct {
	name   string
	tool   string
	inputs [2]string
}{
	{"map", "map", [2]string{`{}`, `{}`}},
	{"check", "check", [2]string{`{}`, `{}`}},
	{"edit", "edit", [2]string{
		`{"path": "tables/orders.ts", "find": "    total: money(),\n", "with": "    total: money(),\n    tip: money({ optional: true }),\n"}`,
		`{"path": "tables/orders.ts", "find": "    tip: money({ optional: true }),\n", "with": ""}`}},
	{"rename", "rename", [2]string{`{"name": "users", "to": "customers"}`, `{"name": "customers", "to": "users"}`}},
}

// BenchmarkCall measures one call on the sample shop, on a warm local
// workspace and through a warm link to a far side on the loopback sshd
// (127.0.0.1:PATH): the difference is the cost of the link (framing, ssh,
// the far process's own calls).
func BenchmarkCall(b *testing.B) {
	r := needRig(b)
	opts := tools.Options{Caller: "ann"}
	for _, c := range benchCalls {
		for _, side := range []string{"local", "remote"} {
			b.Run(c.name+"/"+side, func(b *testing.B) {
				dir := sample.Copy(b, "../testdata/projects/shop")
				call := openSide(b, r, side, dir, opts)
				for i := 0; i < 2; i++ { // warm: the index read, the history started
					mustCall(b, call, c.tool, c.inputs[i%2])
				}
				b.ResetTimer()
				for i := range b.N {
					mustCall(b, call, c.tool, c.inputs[i%2])
				}
			})
		}
	}
}

// BenchmarkMapLarge is map of a generated project of 1,000 tables, whose
// answer is large (the link carries all of it).
func BenchmarkMapLarge(b *testing.B) {
	r := needRig(b)
	dir := b.TempDir()
	if err := projectgen.Write(dir, projectgen.Generate(projectgen.Options{Tables: 1000, Seed: 1})); err != nil {
		b.Fatal(err)
	}
	for _, side := range []string{"local", "remote"} {
		b.Run(side, func(b *testing.B) {
			call := openSide(b, r, side, dir, tools.Options{Caller: "ann"})
			mustCall(b, call, "map", `{}`)
			b.ResetTimer()
			for range b.N {
				mustCall(b, call, "map", `{}`)
			}
		})
	}
}

// BenchmarkOpen measures reaching a far side whose machine has the binary
// (the cost a one-shot command pays before its first call: the transport,
// the hash check, the far process's start and its hello), and with the
// binary copied first (a new cache each time): the first call's cost.
func BenchmarkOpen(b *testing.B) {
	r := needRig(b)
	dir := sample.Copy(b, "../testdata/projects/shop")
	for _, first := range []bool{false, true} {
		name := "cached"
		if first {
			name = "with-copy"
		}
		b.Run(name, func(b *testing.B) {
			cache := filepath.Join(b.TempDir(), "cache")
			for i := range b.N {
				if first {
					cache = filepath.Join(b.TempDir(), "cache", string(rune('a'+i%26)))
				}
				hosts := NewHosts(HostsConfig{Transports: map[string][]string{"127.0.0.1": r.transport(cache)}, Binary: r.bin})
				w, err := Open(context.Background(), hosts, Target{Host: "127.0.0.1", Path: dir})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := w.Call(context.Background(), "map", nil, tools.Options{}); err != nil {
					b.Fatal(err)
				}
				w.Close()
			}
		})
	}
}

// openSide opens dir here (local) or as 127.0.0.1:dir (remote).
func openSide(b *testing.B, r *sshRig, side, dir string, opts tools.Options) caller {
	if side == "local" {
		ws, err := tools.Open(dir, opts)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { ws.Close() })
		return func(ctx context.Context, tool string, input json.RawMessage) (tools.Answer, error) {
			return tools.Call(ctx, ws, tool, input)
		}
	}
	w, err := Open(context.Background(), r.hosts(), Target{Host: "127.0.0.1", Path: dir})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { w.Close() })
	return func(ctx context.Context, tool string, input json.RawMessage) (tools.Answer, error) {
		return w.Call(ctx, tool, input, opts)
	}
}

func mustCall(b *testing.B, call caller, tool, input string) {
	b.Helper()
	if _, err := call(context.Background(), tool, json.RawMessage(input)); err != nil {
		b.Fatalf("%s %s: %v", tool, input, err)
	}
}
