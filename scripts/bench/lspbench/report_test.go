package main

import (
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestUpdatePage(t *testing.T) {
	const section = sectionHeading + "\n\nnew\n"
	tests := []struct {
		name, page, want string
	}{
		{"replaced up to the next heading",
			"# P\n\n" + sectionHeading + "\n\nold\nold\n\n## Next\n\nx\n",
			"# P\n\n" + section + "\n## Next\n\nx\n"},
		{"replaced at the end",
			"# P\n\n" + sectionHeading + "\n\nold\n",
			"# P\n\n" + section},
		{"put before Profiling",
			"# P\n\n## A\n\na\n\n## Profiling a command\n\np\n",
			"# P\n\n## A\n\na\n\n" + section + "\n## Profiling a command\n\np\n"},
		{"appended",
			"# P\n\n## A\n\na\n\n",
			"# P\n\n## A\n\na\n\n" + section},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "page.md")
			if err := os.WriteFile(path, []byte(tt.page), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := updatePage(path, section); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(path)
			if string(got) != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
			// A second update changes nothing more.
			if err := updatePage(path, section); err != nil {
				t.Fatal(err)
			}
			again, _ := os.ReadFile(path)
			if string(again) != string(got) {
				t.Errorf("a second update gave\n%s", again)
			}
		})
	}
}

// sample is a run of two sizes: tsgo failed one request at the larger.
func sample() *run {
	size := func(n int, f float64) *sizeResult {
		s := &sizeResult{Tables: n, Rounds: 3, Servers: map[string]*serverResult{}, MCP: map[string]*mcpResult{}}
		for _, name := range []string{tentName, tsgoName} {
			g := f
			if name == tsgoName {
				g *= 4
			}
			sr := &serverResult{Version: "v", OpenMS: 1000 * g, MemOpen: 100 * g, MemEnd: 150 * g, Requests: map[string]*series{}}
			for _, req := range requests {
				sr.Requests[req.key] = &series{MS: []float64{1 * g, 3 * g, 2 * g}, CPUMS: 30 * g, Note: "3 things"}
			}
			s.Servers[name] = sr
		}
		for _, c := range mcpCalls {
			s.MCP[c.key] = &mcpResult{series: series{MS: []float64{5 * f}}, TextBytes: 8000, StructuredBytes: 20000}
		}
		return s
	}
	r := &run{Date: "2026-12-01 14:40 UTC", Cores: 2, CPU: "a CPU", LoadStart: "2.0 2.0 2.0", LoadEnd: "3.0 2.5 2.1", Commit: "abc1234",
		Sizes: []*sizeResult{size(1000, 1), size(5000, 5)}}
	r.Sizes[1].Servers[tsgoName].Requests["renameHub"] = &series{Err: "tsgo textDocument/rename: context deadline exceeded"}
	return r
}

func TestMarkdown(t *testing.T) {
	md := markdown(sample(), "plot.svg")
	for _, want := range []string{
		sectionHeading + "\n",
		"on main abc1234, on 2 cores (a CPU), load average 2.0 2.0 2.0 at the start and 3.0 2.5 2.1",
		"| LSP, median | 1,000 tables: tent-tools | tsgo | tsgo ÷ tent-tools | 5,000 tables: tent-tools | tsgo | tsgo ÷ tent-tools |",
		// Medians (of 1, 3, 2) and ratios.
		"| hover on a table | 2.00 ms | 8.00 ms | 4.00× | 10.0 ms | 40.0 ms | 4.00× |",
		"| rename the hub table (planned) | 2.00 ms | 8.00 ms | 4.00× | 10.0 ms | failed |  |",
		// The CPU table: 30 ms (120 ms) over three samples.
		"| hover on a table | 10.0 ms | 40.0 ms | 4.00× | 50.0 ms | 200 ms | 4.00× |",
		"| memory after the open | 100 MB | 400 MB | 4.00× | 500 MB | 2,000 MB | 4.00× |",
		"| `change`: the hub table renamed, dryRun | 5.00 ms (8.0 KB / 20.0 KB) | 25.0 ms (8.0 KB / 20.0 KB) |",
		"- 5,000 tables, tsgo, rename the hub table (planned): tsgo textDocument/rename: context deadline exceeded",
		"![Median request time against the project's size, tent-tools and tsgo, log scales](plot.svg)",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("no %q in\n%s", want, md)
		}
	}
}

// TestPlot checks that the plot is well-formed XML with a panel per
// request and no value that is not a number.
func TestPlot(t *testing.T) {
	for _, r := range []*run{sample(), {Date: "d", Sizes: []*sizeResult{{Tables: 1000, Servers: map[string]*serverResult{}}}}} {
		svg := plot(r)
		d := xml.NewDecoder(strings.NewReader(svg))
		for {
			_, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("not XML: %v\n%s", err, svg)
			}
		}
		for _, bad := range []string{"NaN", "Inf"} {
			if strings.Contains(svg, bad) {
				t.Errorf("the plot holds %s", bad)
			}
		}
		for _, req := range requests {
			if !strings.Contains(svg, ">"+req.short+"<") {
				t.Errorf("no panel %q", req.short)
			}
		}
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 10000: "10,000", 1234567: "1,234,567", -5000: "-5,000"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %s, want %s", n, got, want)
		}
	}
}

func TestDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{3 * time.Minute: "3m", 10 * time.Second: "10s", 90 * time.Second: "1m30s", time.Hour: "1h0m"} {
		if got := duration(d); got != want {
			t.Errorf("duration(%v) = %s, want %s", d, got, want)
		}
	}
}
