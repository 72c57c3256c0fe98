package main

import (
	"fmt"
	"math"
	"os"
	"strings"
)

// sectionHeading is the heading of the page's section that the benchmark
// writes; updatePage replaces that section whole.
const sectionHeading = "## Side by side: the language servers and MCP"

// markdown is the page's section: what was measured, on what, the tables
// and the plot.
func markdown(r *run, svgRef string) string {
	var b strings.Builder
	b.WriteString(sectionHeading + "\n\n")
	b.WriteString("`scripts/bench/lsp.sh` drives `tent-tools lsp` and TypeScript 7's language server (`tsc --lsp\n" +
		"--stdio`, the native compiler, npm `typescript@7`, which the script installs into a cache folder from\n" +
		"its committed lock) over the same generated project (`tent-gen`, with a `tsconfig.json` and the\n" +
		"`tent` module's types, on which `tsc` finds no error) with the same requests, and `tent-tools mcp`\n" +
		"over the calls an agent makes. Both servers are started on the project and open the same three\n" +
		"documents (`tables/accounts2.ts`, `functions/accounts2.ts`, `tables/accounts.ts`); then each\n" +
		"round makes every request of each server, the two alternating first and second from round to\n" +
		"round, so that a load that comes and goes hits both; before each timed request the other server's\n" +
		"process is waited for until it used no CPU for 50 ms (at most 2 s), so that its work after its own\n" +
		"answer (checking on, collecting garbage) is not timed as this one's. Each answer is checked: a didChange puts a\n" +
		"line in (`await ctx.db.nosuchTable.all(nosuchName)` in a function's body, `extra:\n" +
		"ref('nosuchTable', nosuchOptions),` among a table's columns) and takes it out again, each a\n" +
		"version timed from the change's sending to its diagnostics (pushed by tent-tools, with\n" +
		"`diagnosticDelay` 0; asked for by `textDocument/diagnostic` from tsgo), and the error must be there\n" +
		"(T2501 or T2003; TS2304) and then gone; a rename (planned: the `WorkspaceEdit`, nothing\n" +
		"written) and references must answer edits and locations. Each server answers by its own rules\n" +
		"(tent-tools renames a table in `ref('accounts')`, `ctx.db.accounts` and test data too;\n" +
		"TypeScript renames the identifier), so the last table says what each answered. Memory is\n" +
		"each process's resident set (`/proc/PID/status`) after the open and at the end of the session.\n" +
		"Every request is made once before the rounds, checked and not timed, as an editor's session\n" +
		"pays for what a server builds once. The MCP calls are made once before the timing (warm), after\n" +
		"both language servers have ended.\n\n")
	if len(r.Sizes) == 0 {
		return b.String()
	}
	commit := ""
	if r.Commit != "" {
		commit = " on main " + r.Commit
	}
	fmt.Fprintf(&b, "Measured %s%s, on %d cores (%s), load average %s at the start and %s at the end\n"+
		"(the machine is shared: other work ran meanwhile, so read the ratios more than the times).\n",
		r.Date, commit, r.Cores, r.CPU, r.LoadStart, r.LoadEnd)
	versions := []string{"tent-tools: " + r.Sizes[0].Servers[tentName].Version}
	if r.Commit != "" {
		versions[0] = "tent-tools: main " + r.Commit
	}
	if sr := r.Sizes[0].Servers[tsgoName]; sr != nil {
		versions = append(versions, "tsgo: `tsc --version` "+sr.Version)
	}
	var rounds []string
	for _, s := range r.Sizes {
		rounds = append(rounds, fmt.Sprintf("%d at %s tables", s.Rounds, thousands(s.Tables)))
	}
	budget := ""
	if r.Budget != "" {
		budget = ", as many as fit in " + r.Budget + " a size after the warm-up"
	}
	fmt.Fprintf(&b, "Rounds: %s%s (a didChange gives two samples a round). %s.\n\n", strings.Join(rounds, ", "), budget, strings.Join(versions, "; "))

	two := r.Sizes[0].Servers[tsgoName] != nil
	// The medians.
	header := func(first string) {
		b.WriteString(first)
		sep := "|---|"
		for _, s := range r.Sizes {
			if two {
				fmt.Fprintf(&b, " %s tables: tent-tools | tsgo | tsgo ÷ tent-tools |", thousands(s.Tables))
				sep += "---|---|---|"
			} else {
				fmt.Fprintf(&b, " %s tables: tent-tools |", thousands(s.Tables))
				sep += "---|"
			}
		}
		b.WriteString("\n" + sep + "\n")
	}
	header("| LSP, median |")
	cell := func(s *sizeResult, name string, get func(*serverResult) (float64, bool), format func(float64) string) (string, float64) {
		sr := s.Servers[name]
		if sr == nil {
			return "", 0
		}
		if sr.Err != "" {
			return "failed to open", 0
		}
		v, ok := get(sr)
		if !ok {
			return "failed", 0
		}
		return format(v), v
	}
	row := func(title string, get func(*serverResult) (float64, bool), format func(float64) string) {
		b.WriteString("| " + title + " |")
		for _, s := range r.Sizes {
			a, av := cell(s, tentName, get, format)
			if !two {
				b.WriteString(" " + a + " |")
				continue
			}
			t, tv := cell(s, tsgoName, get, format)
			ratio := ""
			if av > 0 && tv > 0 {
				ratio = fmtRatio(tv / av)
			}
			fmt.Fprintf(&b, " %s | %s | %s |", a, t, ratio)
		}
		b.WriteString("\n")
	}
	for _, req := range requests {
		key := req.key
		row(req.title, func(sr *serverResult) (float64, bool) {
			se := sr.Requests[key]
			if se == nil || len(se.MS) == 0 {
				return 0, false
			}
			return median(se.MS), true
		}, fmtMS)
	}
	row("open: start to the first diagnostics", func(sr *serverResult) (float64, bool) { return sr.OpenMS, sr.OpenMS > 0 }, fmtMS)
	row("memory after the open", func(sr *serverResult) (float64, bool) { return sr.MemOpen, sr.MemOpen > 0 }, fmtMB)
	row("memory at the end", func(sr *serverResult) (float64, bool) { return sr.MemEnd, sr.MemEnd > 0 }, fmtMB)
	b.WriteString("\n")
	if two {
		b.WriteString("A ratio over 1× is tent-tools' lead (for memory too: tsgo's resident set ÷ tent-tools'). " +
			"\"failed\" is a request that failed or timed out (below).\n\n")
	}

	// The servers' CPU time: what a request cost the machine, which a
	// busy machine's wait for a core does not inflate (a server may spend
	// it on several cores at once, or after its answer). /proc counts it
	// in ticks of 10 ms: a mean of 0 is under a tick in every sample.
	header("| LSP, server CPU per request (mean) |")
	for _, req := range requests {
		key := req.key
		row(req.title, func(sr *serverResult) (float64, bool) {
			se := sr.Requests[key]
			if se == nil || len(se.MS) == 0 {
				return 0, false
			}
			return se.CPUMS / float64(len(se.MS)), true
		}, fmtCPU)
	}
	b.WriteString("\n")
	// What each answered.
	b.WriteString("| what each answered |")
	sep := "|---|"
	for _, s := range r.Sizes {
		for _, name := range serverNames(s) {
			fmt.Fprintf(&b, " %s: %s |", thousands(s.Tables), name)
			sep += "---|"
		}
	}
	b.WriteString("\n" + sep + "\n")
	for _, req := range requests {
		b.WriteString("| " + req.title + " |")
		for _, s := range r.Sizes {
			for _, name := range serverNames(s) {
				se := s.Servers[name].Requests[req.key]
				note := ""
				if se != nil {
					note = se.Note
				}
				b.WriteString(" " + note + " |")
			}
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")

	// MCP.
	if len(r.Sizes[0].MCP) > 0 {
		b.WriteString("| MCP call, warm, median (bytes of text / of structuredContent) |")
		sep = "|---|"
		for _, s := range r.Sizes {
			fmt.Fprintf(&b, " %s tables |", thousands(s.Tables))
			sep += "---|"
		}
		b.WriteString("\n" + sep + "\n")
		for _, c := range mcpCalls {
			name := "`" + c.tool + "`"
			if c.title != "" {
				name += ": " + c.title
			}
			b.WriteString("| " + name + " |")
			for _, s := range r.Sizes {
				m := s.MCP[c.key]
				switch {
				case m == nil:
					b.WriteString(" |")
				case len(m.MS) == 0:
					b.WriteString(" failed |")
				default:
					fmt.Fprintf(&b, " %s (%s / %s) |", fmtMS(median(m.MS)), fmtBytes(m.TextBytes), fmtBytes(m.StructuredBytes))
				}
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}

	// Failures, said plainly.
	var fails []string
	for _, s := range r.Sizes {
		for _, name := range serverNames(s) {
			sr := s.Servers[name]
			if sr.Err != "" {
				fails = append(fails, fmt.Sprintf("%s tables, %s: %s", thousands(s.Tables), name, oneLine(sr.Err)))
			}
			for _, req := range requests {
				if se := sr.Requests[req.key]; se != nil && se.Err != "" {
					fails = append(fails, fmt.Sprintf("%s tables, %s, %s: %s", thousands(s.Tables), name, req.title, oneLine(se.Err)))
				}
			}
		}
		if s.MCPErr != "" {
			fails = append(fails, fmt.Sprintf("%s tables, MCP: %s", thousands(s.Tables), oneLine(s.MCPErr)))
		}
		for _, c := range mcpCalls {
			if m := s.MCP[c.key]; m != nil && m.Err != "" {
				fails = append(fails, fmt.Sprintf("%s tables, MCP %s: %s", thousands(s.Tables), c.tool, oneLine(m.Err)))
			}
		}
	}
	if len(fails) > 0 {
		b.WriteString("Failed or cut short (no more samples after it):\n\n")
		for _, f := range fails {
			b.WriteString("- " + f + "\n")
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "![Median request time against the project's size, tent-tools and tsgo, log scales](%s)\n\n", svgRef)
	fmt.Fprintf(&b, "The plot (`%s`, beside this page) is made by the same run: each request's median\n"+
		"against the project's size, both on log scales, tent-tools solid and tsgo dashed.\n\n", svgRef)
	b.WriteString("```sh\nscripts/bench/lsp.sh                          # 1,000, 5,000 and 10,000 tables, 5 rounds each\n" +
		"SIZES=1000 ROUNDS=3 scripts/bench/lsp.sh      # a quick look\n" +
		"WRITE=1 scripts/bench/lsp.sh                  # also rewrite this section and the plot\n```\n")
	return b.String()
}

// updatePage puts section into the page in place of its section of the
// same heading (up to the next "## " heading), or before "## Profiling"
// where it has none, or at its end.
func updatePage(path, section string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("update the page: %w", err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	start, end := -1, len(lines)
	for i, l := range lines {
		t := strings.TrimRight(l, "\n")
		if start < 0 && t == sectionHeading {
			start = i
			continue
		}
		if start >= 0 && strings.HasPrefix(t, "## ") {
			end = i
			break
		}
	}
	if start < 0 {
		start, end = len(lines), len(lines)
		for i, l := range lines {
			if strings.HasPrefix(l, "## Profiling") {
				start, end = i, i
				break
			}
		}
	}
	if !strings.HasSuffix(section, "\n") {
		section += "\n"
	}
	if end < len(lines) {
		section += "\n"
	}
	out := strings.Join(lines[:start], "") + section + strings.Join(lines[end:], "")
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		return fmt.Errorf("update the page: %w", err)
	}
	return nil
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return strings.ReplaceAll(s, "|", "\\|")
}

// fmtMS says milliseconds with three significant digits or so.
func fmtMS(v float64) string {
	switch {
	case v < 10:
		return fmt.Sprintf("%.2f ms", v)
	case v < 100:
		return fmt.Sprintf("%.1f ms", v)
	default:
		return thousands(int(math.Round(v))) + " ms"
	}
}

// fmtCPU says a mean of CPU ticks: 0 is under a tick.
func fmtCPU(v float64) string {
	if v == 0 {
		return "< 10 ms"
	}
	return fmtMS(v)
}

func fmtMB(v float64) string { return thousands(int(math.Round(v))) + " MB" }

func fmtRatio(v float64) string {
	if v < 10 {
		return fmt.Sprintf("%.2f×", v)
	}
	return fmt.Sprintf("%.0f×", v)
}

func fmtBytes(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000000:
		return fmt.Sprintf("%.1f KB", float64(n)/1000)
	default:
		return fmt.Sprintf("%.2f MB", float64(n)/1e6)
	}
}

// thousands writes n with commas: 10,000.
func thousands(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
