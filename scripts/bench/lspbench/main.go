// Command lspbench measures tent-tools' language server beside TypeScript
// 7's (`tsc --lsp --stdio`, the native compiler) over the same generated
// projects with the same requests, and tent-tools' MCP server over the
// calls an agent makes; it prints medians and ratios, and writes a
// Markdown table, a plot (SVG) and the raw samples (JSON).
// scripts/bench/lsp.sh builds it and the peers and runs it:
//
//	lspbench -tent BIN -tsc BIN -types DIR -work DIR [-sizes 1000,5000,10000]
//	         [-rounds 5] [-budget 10m] [-md FILE] [-svg FILE] [-doc FILE] [-json FILE]
//
// For each size it generates the project (internal/projectgen, as
// tent-gen does) with a tsconfig.json and the `tent` module's types
// (scripts/tsc-compare), starts both servers on it, opens the same three
// documents in each and waits for their first diagnostics, then makes
// rounds of every request, the servers alternating first and second from
// round to round (a load that comes and goes hits both). A round's answer
// is checked: the diagnostics hold the error an edit made and lose it
// when the edit is taken back, references and renames are not empty.
// Memory is each process's resident set (/proc) after the open and at the
// end. The MCP calls run after both language servers have ended, warm
// (each call made once before the timing).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/tent-tools/tent-tools/internal/projectgen"
)

// series is the samples of one request on one server at one size.
type series struct {
	MS []float64 `json:"ms,omitempty"`
	// CPUMS is the server's CPU time over every timed request, in ms
	// (10 ms ticks: read the sum, or the mean of many).
	CPUMS float64 `json:"cpuMs,omitempty"`
	Note  string  `json:"note,omitempty"` // what the answer held (a count)
	Err   string  `json:"err,omitempty"`  // why it has no more samples
}

// serverResult is one server's results at one size.
type serverResult struct {
	Version  string             `json:"version"`
	OpenMS   float64            `json:"openMs"` // start to the first diagnostics of the open documents
	MemOpen  float64            `json:"memOpenMB"`
	MemEnd   float64            `json:"memEndMB"`
	Requests map[string]*series `json:"requests"`
	Err      string             `json:"err,omitempty"` // it could not be started or opened
}

// mcpResult is one MCP call's results at one size.
type mcpResult struct {
	series
	TextBytes       int `json:"textBytes"`
	StructuredBytes int `json:"structuredBytes"`
}

// sizeResult is everything measured on one generated project.
type sizeResult struct {
	Tables  int                      `json:"tables"`
	Files   int                      `json:"files"`
	Lines   int                      `json:"lines"`
	Rounds  int                      `json:"rounds"`
	Servers map[string]*serverResult `json:"servers"`
	MCP     map[string]*mcpResult    `json:"mcp"`
	MCPErr  string                   `json:"mcpErr,omitempty"`
}

// run is a whole run: the machine, and each size's results.
type run struct {
	Date      string        `json:"date"`
	Cores     int           `json:"cores"`
	CPU       string        `json:"cpu"`
	LoadStart string        `json:"loadStart"`
	LoadEnd   string        `json:"loadEnd"`
	Commit    string        `json:"commit"`
	Budget    string        `json:"budget,omitempty"` // the most a size's rounds may take
	Sizes     []*sizeResult `json:"sizes"`
}

// Server names, as the tables say them.
const (
	tentName = "tent-tools"
	tsgoName = "tsgo"
)

func main() {
	var (
		tent    = flag.String("tent", "", "the tent-tools binary (required)")
		tsc     = flag.String("tsc", "", "TypeScript 7's native tsc binary; none: tent-tools alone")
		types   = flag.String("types", "", "the folder with tsconfig.json and tent/ (the tent module's types) for TypeScript (required with -tsc)")
		work    = flag.String("work", "", "the folder to generate the projects in (required)")
		sizes   = flag.String("sizes", "1000,5000,10000", "the projects' sizes, in tables")
		rounds  = flag.Int("rounds", 5, "rounds of every request at each size")
		budget  = flag.Duration("budget", 10*time.Minute, "at most this long for one size's rounds: fewer rounds where they take longer (at least one)")
		timeout = flag.Duration("timeout", 5*time.Minute, "the longest one request or open may take")
		mcpOn   = flag.Bool("mcp", true, "measure the MCP calls too")
		warmup  = flag.Bool("warmup", true, "make every request once, checked and not timed, before the rounds")
		from    = flag.String("from", "", "measure nothing: write the outputs of the samples FILE (an earlier -json) again")
		commit  = flag.String("commit", "", "the commit measured, for the table")
		mdOut   = flag.String("md", "", "write the Markdown section to FILE")
		svgOut  = flag.String("svg", "", "write the plot to FILE")
		docOut  = flag.String("doc", "", "put the Markdown section into the page FILE (in place of its section of the same heading)")
		jsonOut = flag.String("json", "", "write the samples to FILE")
		svgRef  = flag.String("svg-ref", "performance-lsp.svg", "the plot's path as the page names it")
	)
	flag.Parse()
	if *from != "" {
		b, err := os.ReadFile(*from)
		r := &run{}
		if err == nil {
			err = json.Unmarshal(b, r)
		}
		if err == nil {
			err = writeOutputs(r, *svgRef, *mdOut, *svgOut, "", *docOut)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "lspbench:", err)
			os.Exit(1)
		}
		return
	}
	if *tent == "" || *work == "" || (*tsc != "" && *types == "") || *rounds < 1 || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	var ns []int
	for _, f := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 60 {
			fmt.Fprintf(os.Stderr, "lspbench: bad size %q (a number of tables, at least 60: the table accounts2 is the 51st)\n", f)
			os.Exit(2)
		}
		ns = append(ns, n)
	}
	r := &run{Date: time.Now().UTC().Format("2006-01-02 15:04 UTC"), Cores: runtime.NumCPU(), CPU: cpuModel(), LoadStart: load(), Commit: *commit, Budget: duration(*budget)}
	ctx := context.Background()
	for _, n := range ns {
		res, err := measureSize(ctx, n, *tent, *tsc, *types, *work, *rounds, *budget, *timeout, *mcpOn, *warmup)
		if err != nil {
			fmt.Fprintln(os.Stderr, "lspbench:", err)
			os.Exit(1)
		}
		r.Sizes = append(r.Sizes, res)
		fmt.Println(textSummary(res))
	}
	r.LoadEnd = load()
	if err := writeOutputs(r, *svgRef, *mdOut, *svgOut, *jsonOut, *docOut); err != nil {
		fmt.Fprintln(os.Stderr, "lspbench:", err)
		os.Exit(1)
	}
}

// writeOutputs prints the Markdown section and writes each output that
// has a path.
func writeOutputs(r *run, svgRef, mdOut, svgOut, jsonOut, docOut string) error {
	md := markdown(r, svgRef)
	fmt.Println(md)
	writes := []struct {
		path string
		data func() ([]byte, error)
	}{
		{mdOut, func() ([]byte, error) { return []byte(md), nil }},
		{svgOut, func() ([]byte, error) { return []byte(plot(r)), nil }},
		{jsonOut, func() ([]byte, error) { return json.MarshalIndent(r, "", "  ") }},
	}
	for _, w := range writes {
		if w.path == "" {
			continue
		}
		b, err := w.data()
		if err == nil {
			err = os.WriteFile(w.path, b, 0o644)
		}
		if err != nil {
			return fmt.Errorf("write %s: %w", w.path, err)
		}
	}
	if docOut != "" {
		return updatePage(docOut, md)
	}
	return nil
}

// measureSize generates a project of n tables and measures it.
func measureSize(ctx context.Context, n int, tent, tsc, types, work string, rounds int, budget, timeout time.Duration, mcpOn, warmup bool) (*sizeResult, error) {
	dir, files, lines, err := generate(n, work, types)
	if err != nil {
		return nil, err
	}
	res := &sizeResult{Tables: n, Files: files, Lines: lines, Servers: map[string]*serverResult{}, MCP: map[string]*mcpResult{}}
	specs := []serverSpec{{name: tentName, argv: []string{tent, "lsp"},
		// No debounce: the benchmark waits for each change's diagnostics
		// (an editor's burst of keys is checked once after 50 ms).
		initOptions: map[string]any{"diagnosticDelay": 0}}}
	if tsc != "" {
		specs = append(specs, serverSpec{name: tsgoName, argv: []string{tsc, "--lsp", "--stdio"}, pull: true})
	}
	var servers []*lspServer
	defer func() {
		for _, s := range servers {
			s.shutdown()
		}
	}()
	for _, spec := range specs {
		sr := &serverResult{Version: version(spec.argv[0]), Requests: map[string]*series{}}
		res.Servers[spec.name] = sr
		fmt.Fprintf(os.Stderr, "%d tables: opening %s\n", n, spec.name)
		octx, cancel := context.WithTimeout(ctx, timeout)
		s, took, err := openServer(octx, spec, dir)
		cancel()
		if err != nil {
			sr.Err = err.Error()
			fmt.Fprintf(os.Stderr, "%d tables: %s: %v\n", n, spec.name, err)
			continue
		}
		sr.OpenMS = ms(took)
		if sr.MemOpen, err = s.c.rssMB(); err != nil {
			return nil, err
		}
		servers = append(servers, s)
	}
	deadline := time.Now().Add(budget)
	if warmup {
		// The first of each request pays for what a server builds once
		// (TypeScript's checker of the files a rename reaches, say): an
		// editor pays it once a session too. It is checked, not timed.
		fmt.Fprintf(os.Stderr, "%d tables: warming up\n", n)
		for _, req := range requests {
			for _, s := range servers {
				rctx, cancel := context.WithTimeout(ctx, timeout)
				_, note, err := req.run(rctx, s)
				cancel()
				se := &series{Note: note}
				res.Servers[s.name].Requests[req.key] = se
				if err != nil {
					se.Err = "warming up: " + err.Error()
					fmt.Fprintf(os.Stderr, "%d tables: %s: %s: %v\n", n, s.name, req.key, err)
				}
			}
		}
	}
	for round := 0; round < rounds && (round == 0 || time.Now().Before(deadline)); round++ {
		res.Rounds = round + 1
		fmt.Fprintf(os.Stderr, "%d tables: round %d\n", n, round+1)
		for _, req := range requests {
			order := servers
			if round%2 == 1 {
				order = reversed(servers)
			}
			for _, s := range order {
				sr := res.Servers[s.name]
				se := sr.Requests[req.key]
				if se == nil {
					se = &series{}
					sr.Requests[req.key] = se
				}
				if se.Err != "" {
					continue
				}
				quietPeers(servers, s)
				rctx, cancel := context.WithTimeout(ctx, timeout)
				cpu0, err0 := s.c.cpuMS()
				ds, note, err := req.run(rctx, s)
				cpu1, err1 := s.c.cpuMS()
				cancel()
				if err != nil {
					se.Err = err.Error()
					fmt.Fprintf(os.Stderr, "%d tables: %s: %s: %v\n", n, s.name, req.key, err)
					continue
				}
				if err0 == nil && err1 == nil {
					se.CPUMS += cpu1 - cpu0
				}
				for _, d := range ds {
					se.MS = append(se.MS, ms(d))
				}
				se.Note = note
			}
		}
	}
	for _, s := range servers {
		mem, err := s.c.rssMB()
		if err != nil {
			return nil, err
		}
		res.Servers[s.name].MemEnd = mem
		s.shutdown()
	}
	servers = nil
	if mcpOn {
		if err := measureMCP(ctx, res, tent, dir, rounds, budget, timeout); err != nil {
			res.MCPErr = err.Error()
			fmt.Fprintf(os.Stderr, "%d tables: mcp: %v\n", n, err)
		}
	}
	return res, nil
}

// measureMCP makes every MCP call once (warm), then in rounds.
func measureMCP(ctx context.Context, res *sizeResult, tent, dir string, rounds int, budget, timeout time.Duration) error {
	octx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	m, err := openMCP(octx, tent, dir)
	if err != nil {
		return err
	}
	defer m.close()
	for _, c := range mcpCalls {
		r := &mcpResult{}
		res.MCP[c.key] = r
		if _, r.TextBytes, r.StructuredBytes, err = m.call(octx, c); err != nil {
			r.Err = err.Error()
		}
	}
	deadline := time.Now().Add(budget)
	for round := 0; round < rounds && (round == 0 || time.Now().Before(deadline)); round++ {
		for _, c := range mcpCalls {
			r := res.MCP[c.key]
			if r.Err != "" {
				continue
			}
			cctx, cancel := context.WithTimeout(ctx, timeout)
			d, _, _, err := m.call(cctx, c)
			cancel()
			if err != nil {
				r.Err = err.Error()
				continue
			}
			r.MS = append(r.MS, ms(d))
		}
	}
	return nil
}

// generate writes the project of n tables under work (anew) with what
// TypeScript needs beside it, and waits out the index's racy window (a
// file stamped within 2 s of its change is read again by every later
// process: definitions.Stamp.Racy), so that both servers read the same
// settled files.
func generate(n int, work, types string) (dir string, files, lines int, err error) {
	dir, err = filepath.Abs(filepath.Join(work, fmt.Sprintf("project-%d", n)))
	if err != nil {
		return "", 0, 0, err
	}
	if err := os.RemoveAll(dir); err != nil {
		return "", 0, 0, fmt.Errorf("generate: %w", err)
	}
	gen := projectgen.Generate(projectgen.Options{Tables: n, Seed: 1})
	for _, b := range gen {
		lines += strings.Count(string(b), "\n")
	}
	if types != "" {
		for _, p := range []string{"tsconfig.json", "tent/index.d.ts", "tent/ui.d.ts", "tent/package.json"} {
			b, err := os.ReadFile(filepath.Join(types, filepath.FromSlash(p)))
			if err != nil {
				return "", 0, 0, fmt.Errorf("generate: the types for TypeScript: %w", err)
			}
			if p != "tsconfig.json" {
				p = "node_modules/" + p
			}
			gen[p] = b
		}
	}
	if err := projectgen.Write(dir, gen); err != nil {
		return "", 0, 0, err
	}
	time.Sleep(2100 * time.Millisecond)
	return dir, len(gen), lines, nil
}

// quietPeers waits, before a request of server s is timed, until the
// other servers' processes used no CPU over the last peerQuiet (at most
// peerWait): a server's work after its answer (a peer goes on checking,
// or collecting its garbage) would otherwise land on the next server's
// timing, not its own, on two cores. A server's own work after its last
// answer is not waited for: it is that server's cost.
func quietPeers(servers []*lspServer, s *lspServer) {
	var peers []*lspServer
	for _, p := range servers {
		if p != s {
			peers = append(peers, p)
		}
	}
	if len(peers) == 0 {
		return
	}
	total := func() float64 {
		sum := 0.0
		for _, p := range peers {
			if ms, err := p.c.cpuMS(); err == nil {
				sum += ms
			}
		}
		return sum
	}
	deadline := time.Now().Add(peerWait)
	last, quietSince := total(), time.Now()
	for time.Now().Before(deadline) && time.Since(quietSince) < peerQuiet {
		time.Sleep(peerPoll)
		if now := total(); now != last {
			last, quietSince = now, time.Now()
		}
	}
}

// How quietPeers waits: the peers' CPU (in /proc's ticks of 10 ms) looked
// at every peerPoll, still for peerQuiet, for at most peerWait.
const (
	peerPoll  = 5 * time.Millisecond
	peerQuiet = 50 * time.Millisecond
	peerWait  = 2 * time.Second
)

func reversed[T any](s []T) []T {
	out := make([]T, len(s))
	for i, v := range s {
		out[len(s)-1-i] = v
	}
	return out
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// median is the middle sample (the mean of the two middle ones).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// version is what a server binary says it is, first line.
func version(bin string) string {
	out, err := exec.Command(bin, "--version").CombinedOutput()
	if err != nil {
		out, err = exec.Command(bin, "version").CombinedOutput()
	}
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
}

// load is the machine's load averages (1, 5, 15 minutes).
func load() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// cpuModel is the first CPU's model name (/proc/cpuinfo).
func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}

// textSummary is one size's medians, for the terminal.
func textSummary(res *sizeResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d tables (%d files, %d lines), %d rounds\n", res.Tables, res.Files, res.Lines, res.Rounds)
	names := serverNames(res)
	for _, name := range names {
		sr := res.Servers[name]
		if sr.Err != "" {
			fmt.Fprintf(&b, "  %s: %s\n", name, sr.Err)
			continue
		}
		fmt.Fprintf(&b, "  %s (%s): open %.0f ms, %.0f MB after open, %.0f MB at the end\n", name, sr.Version, sr.OpenMS, sr.MemOpen, sr.MemEnd)
	}
	for _, req := range requests {
		fmt.Fprintf(&b, "  %-48s", req.title)
		for _, name := range names {
			se := res.Servers[name].Requests[req.key]
			switch {
			case se == nil:
				fmt.Fprintf(&b, "  %s -", name)
			case len(se.MS) == 0:
				fmt.Fprintf(&b, "  %s failed", name)
			default:
				fmt.Fprintf(&b, "  %s %s, CPU %s (%s)", name, fmtMS(median(se.MS)), fmtMS(se.CPUMS/float64(len(se.MS))), se.Note)
			}
		}
		b.WriteString("\n")
	}
	for _, c := range mcpCalls {
		if r := res.MCP[c.key]; r != nil {
			if len(r.MS) > 0 {
				fmt.Fprintf(&b, "  mcp %-44s %s (text %d B, structured %d B)\n", c.tool+" "+c.title, fmtMS(median(r.MS)), r.TextBytes, r.StructuredBytes)
			} else {
				fmt.Fprintf(&b, "  mcp %-44s failed: %s\n", c.tool+" "+c.title, r.Err)
			}
		}
	}
	return b.String()
}

// serverNames are the servers of a result, tent-tools first.
func serverNames(res *sizeResult) []string {
	var names []string
	for _, n := range []string{tentName, tsgoName} {
		if res.Servers[n] != nil {
			names = append(names, n)
		}
	}
	return names
}

// duration writes a duration as people do: 3m, not 3m0s.
func duration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	return s
}
