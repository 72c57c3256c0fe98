package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/internal/projectgen"
	"github.com/tent-tools/tent-tools/internal/sample"
)

func TestRunCommands(t *testing.T) {
	dir := shop(t)
	order := `{"buyer":"u3","items":[{"product":"p2","quantity":1}],"shipTo":"Leith"}`
	tests := []struct {
		name   string
		args   []string
		exit   int
		stdout []string
		stderr []string
	}{
		{"run", []string{"--json", "run", "listProducts", "--input", `{"inStockOnly":true}`}, 0, []string{`"result": [`, `"name": "Watering can"`, `"ms": `}, nil},
		{"no terminal is a no", []string{"run", "placeOrder", "--as", "u3", "--input", order}, 1, nil, []string{"T3103: nobody was asked to let placeOrder send data out (mail): stdin is no terminal", "say yes with --yes"}},
		{"--yes", []string{"run", "placeOrder", "--as", "chen@example.com", "--input", order, "--yes"}, 0, []string{`result: {"order":"orders_1","total":3450}`, "mail to chen@example.com: Order orders_1 placed"}, nil},
		{"system not let", []string{"run", "listProducts", "--as", "system"}, 1, nil, []string{"T3102"}},
		{"app error", []string{"--json", "run", "addReview", "--as", "u3", "--input", `{"product":"p1","rating":9}`}, 1, []string{`"at": "functions/catalogue.ts:29:13"`}, []string{"T4003: a rating is 1 to 5 stars (at functions/catalogue.ts:29:13)"}},
		{"unknown", []string{"run", "nope"}, 1, nil, []string{"T4001: no function or flow named nope"}},
		{"input not JSON", []string{"run", "listProducts", "--input", "{bad"}, 2, nil, []string{"--input is not JSON"}},
		{"no name", []string{"run"}, 2, nil, []string{"run takes one NAME"}},
		{"rows", []string{"rows", "orders", "--limit", "1"}, 0, []string{"orders: 1 of 5 rows", `"id":"o1"`, "private columns left out: note, shipTo"}, nil},
		{"rows unknown", []string{"rows", "nope"}, 1, nil, []string{"T9103"}},
		{"logs", []string{"logs", "--errors", "--since", "1h"}, 0, []string{"addReview as u3", "at run (functions/catalogue.ts:29:13)", "nope as nobody"}, nil},
		{"logs bad since", []string{"logs", "--since", "soon"}, 1, nil, []string{"T9102"}},
		{"reset", []string{"reset"}, 0, []string{"rebuilt from the test data"}, nil},
		{"rows after reset", []string{"rows", "orders"}, 0, []string{"orders: 4 of 4 rows"}, nil},
	}
	for _, tt := range tests {
		res := tentTools(t, dir, "", tt.args...)
		if res.exit != tt.exit {
			t.Errorf("%s: exit %d, want %d\nstdout: %s\nstderr: %s", tt.name, res.exit, tt.exit, res.stdout, res.stderr)
			continue
		}
		for _, w := range tt.stdout {
			if !strings.Contains(res.stdout, w) {
				t.Errorf("%s: stdout lacks %q:\n%s", tt.name, w, res.stdout)
			}
		}
		for _, w := range tt.stderr {
			if !strings.Contains(res.stderr, w) {
				t.Errorf("%s: stderr lacks %q:\n%s", tt.name, w, res.stderr)
			}
		}
	}
}

// shopFor copies the sample project for a benchmark.
func shopFor(b *testing.B) string {
	return sample.Copy(b, "../../testdata/projects/shop")
}

// timeProcess runs cmd b.N times and reports the wall time and the CPU
// time (user and system) of each process.
func timeProcess(b *testing.B, make func() *exec.Cmd) {
	var cpu time.Duration
	for b.Loop() {
		cmd := make()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
		cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
}

// BenchmarkColdRun is `tent-tools run listProducts` on shop as a whole
// process: a new process, the index built, the test database opened, the
// bundle read from .tent/cache (an earlier run wrote it), a run, the log.
func BenchmarkColdRun(b *testing.B) {
	dir := shopFor(b)
	cmd := exec.Command(bin, "run", "listProducts")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%v: %s", err, out)
	}
	timeProcess(b, func() *exec.Cmd {
		c := exec.Command(bin, "run", "listProducts")
		c.Dir = dir
		return c
	})
}

// BenchmarkColdRunLarge is `tent-tools run` as a whole process on a
// project of 1,000 tables (tent-gen's), warm on the disk: the walk, the
// app snapshot, a worker started meanwhile, the run in it, the log.
// cpu-ns/op holds the worker's CPU time too (the process waits for it).
func BenchmarkColdRunLarge(b *testing.B) {
	dir := b.TempDir()
	if err := projectgen.Write(dir, projectgen.Generate(projectgen.Options{Tables: 1000, Seed: 1})); err != nil {
		b.Fatal(err)
	}
	newCmd := func() *exec.Cmd {
		c := exec.Command(bin, "run", "listAccounts", "--as", "account-1")
		c.Dir = dir
		return c
	}
	if out, err := newCmd().CombinedOutput(); err != nil {
		b.Fatalf("%v: %s", err, out)
	}
	timeProcess(b, newCmd)
}

// nodeHarness runs the bundle the runner made for functions/catalogue.ts
// in Node, with a ctx whose db answers products from the test data: Node
// running the same code, to set beside BenchmarkColdRun.
const nodeHarness = `
const fs = require('fs')
const cache = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'))
const products = JSON.parse(fs.readFileSync(process.argv[3], 'utf8'))
const exportsOf = new Function(cache.bundle.code + '\nreturn __tent_exports')()
const ctx = {
  user: null,
  now: () => new Date().toISOString(),
  log: () => {},
  db: {
    products: {
      where: async (match, opts) => {
        const rows = products.filter((p) => Object.keys(match).every((k) => p[k] === match[k]))
        if (opts && opts.order) rows.sort((a, b) => a[opts.order] - b[opts.order])
        return rows
      },
    },
  },
}
exportsOf.listProducts.run(ctx, { inStockOnly: false }).then((r) => console.log(JSON.stringify(r)))
`

// BenchmarkNodeRun runs the same bundled code in a Node process.
func BenchmarkNodeRun(b *testing.B) {
	node, err := exec.LookPath("node")
	if err != nil {
		b.Skip("node is not installed")
	}
	dir := shopFor(b)
	cmd := exec.Command(bin, "run", "listProducts")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%v: %s", err, out)
	}
	bundle := findBundle(b, dir, "functions/catalogue.ts")
	harness := filepath.Join(dir, "harness.js")
	if err := os.WriteFile(harness, []byte(nodeHarness), 0o644); err != nil {
		b.Fatal(err)
	}
	products := filepath.Join(dir, "testdata", "products.json")
	timeProcess(b, func() *exec.Cmd { return exec.Command(node, harness, bundle, products) })
}

// findBundle answers the cached bundle file of an entry in .tent/cache.
func findBundle(b *testing.B, dir, entry string) string {
	files, _ := filepath.Glob(filepath.Join(dir, ".tent", "cache", "bundle-*.json"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		var d struct {
			Bundle struct {
				Entry string `json:"entry"`
			} `json:"bundle"`
		}
		if json.Unmarshal(data, &d) == nil && d.Bundle.Entry == entry {
			return f
		}
	}
	b.Fatalf("no cached bundle of %s in %s", entry, dir)
	return ""
}
