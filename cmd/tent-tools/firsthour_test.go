package main

import (
	"runtime/debug"
	"strings"
	"testing"
)

// TestFirstHour holds what a new user types first: help for every command
// (lsp too, which is a server), --version, and a "did you mean" for a
// command, a flag, a function and a route spelled one letter wrong.
func TestFirstHour(t *testing.T) {
	dir := shop(t)
	tests := []struct {
		args   []string
		exit   int
		stdout []string // each stands in stdout
		stderr []string // each stands in stderr
	}{
		{args: []string{"help", "lsp"}, stdout: []string{"usage: tent-tools lsp [flags]", "--listen HOST:PORT", "--origin ORIGIN"}},
		{args: []string{"lsp", "--help"}, stdout: []string{"usage: tent-tools lsp [flags]"}},
		{args: []string{"lsp", "--lisen", "x"}, exit: 2, stderr: []string{"unknown flag --lisen; did you mean --listen?"}},
		// The flags lsp shares with every command may stand before its name.
		{args: []string{"--policy", "agent.json", "--caller", "ann", "lsp", "--help"}, stdout: []string{"usage: tent-tools lsp [flags]"}},
		{args: []string{"-C", ".", "lsp"}, exit: 2, stderr: []string{"lsp takes its project from the editor's root folder, not -C"}},
		{args: []string{"--version"}, stdout: []string{"tent-tools "}},
		{args: []string{"raed", "project.ts"}, exit: 2, stderr: []string{`unknown command "raed"; did you mean "read"?`}},
		{args: []string{"changedBy", "orders"}, exit: 1, stderr: []string{"T9103: no point changed orders"}},
		{args: []string{"chaged-by", "orders"}, exit: 2, stderr: []string{`did you mean "changed-by"?`}},
		{args: []string{"read", "--fro", "2", "project.ts"}, exit: 2, stderr: []string{"unknown flag --fro; did you mean --from?"}},
		{args: []string{"--jsn", "map"}, exit: 2, stderr: []string{"unknown flag --jsn; did you mean --json?"}},
		{args: []string{"read", "--zzzzzz", "project.ts"}, exit: 2, stderr: []string{"unknown flag --zzzzzz\n"}},
		{args: []string{"run", "placeOrdr"}, exit: 1, stderr: []string{"T4001: no function or flow named placeOrdr; did you mean placeOrder?"}},
		{args: []string{"shot", "/order/o1", "--html"}, exit: 1, stderr: []string{"T9103: no screen has the path /order/o1; did you mean /orders/:id?"}},
	}
	for _, tt := range tests {
		r := tentTools(t, dir, "", tt.args...)
		if r.exit != tt.exit {
			t.Errorf("%v: exit %d, want %d\nstdout: %s\nstderr: %s", tt.args, r.exit, tt.exit, r.stdout, r.stderr)
			continue
		}
		for _, want := range tt.stdout {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("%v: stdout lacks %q:\n%s", tt.args, want, r.stdout)
			}
		}
		for _, want := range tt.stderr {
			if !strings.Contains(r.stderr, want) {
				t.Errorf("%v: stderr lacks %q:\n%s", tt.args, want, r.stderr)
			}
		}
	}

	help := tentTools(t, dir, "", "--help").stdout
	for name := range commands {
		if !strings.Contains(help, "\n  "+name+" ") {
			t.Errorf("--help does not list the command %s", name)
		}
	}
	if !strings.Contains(help, "--version") {
		t.Errorf("--help does not list --version")
	}
}

// TestVersionLine is --version's line for the build infos a binary can
// carry: a release that go install built, a clone's build that stamped its
// commit, and a build that knows nothing.
func TestVersionLine(t *testing.T) {
	tests := []struct {
		info debug.BuildInfo
		want string
	}{
		{debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.0"}}, "tent-tools v1.2.0 (go1.26.8)\n"},
		{debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20261201095512-5156f7d9a8b7+dirty"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "5156f7d9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3"}, {Key: "vcs.time", Value: "2026-12-01T09:55:12Z"}, {Key: "vcs.modified", Value: "true"},
		}}, "tent-tools v0.0.0-20261201095512-5156f7d9a8b7+dirty (commit 5156f7d9a8b7, 2026-12-01T09:55:12Z, with uncommitted changes, go1.26.8)\n"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "tent-tools (devel)\n"},
	}
	for _, tt := range tests {
		if got := versionLine(&tt.info); got != tt.want {
			t.Errorf("versionLine(%+v) = %q, want %q", tt.info.Main, got, tt.want)
		}
	}
}

// TestMessagesSayWhatHappened holds the answers that once said something
// other than what happened: an 8 MB write on stdin told as 1.0 MB, an
// empty logs --errors told as "no runs" after runs that succeeded, a
// missing folder of list told as "no file", and a limit of 0 taken for
// the default while -1 was refused.
func TestMessagesSayWhatHappened(t *testing.T) {
	dir := shop(t)
	big := strings.Repeat("a", 8_000_000)
	tests := []struct {
		args   []string
		stdin  string
		exit   int
		stdout string
		stderr string
	}{
		{[]string{"write", "lib/big.ts"}, big, 1, "", "T9104: the text is 7.6 MB; write at most 1.0 MB"},
		{[]string{"logs", "--errors"}, "", 0, "no runs\n", ""},
		{[]string{"run", "listProducts"}, "", 0, "", ""},
		{[]string{"logs", "--errors"}, "", 0, "no failed runs: every run succeeded", ""},
		{[]string{"logs", "--errors", "--since", "1h"}, "", 0, "no failed runs since 1h", ""},
		{[]string{"list", "nope"}, "", 1, "", "T9103: no folder nope in the project"},
		{[]string{"list", "tables/orders.ts"}, "", 1, "", "T9102: tables/orders.ts is a file, not a folder"},
		{[]string{"search", "order", "--limit", "0"}, "", 1, "", "T9102: bad input: limit 0: give 1 or more, or leave it out for 100"},
		{[]string{"search", "order", "--limit", "-1"}, "", 1, "", "T9102: bad input: limit -1: give 1 or more"},
		{[]string{"rows", "orders", "--limit", "0"}, "", 1, "", "T9102: bad input: limit 0: give 1 or more, or leave it out for 100"},
		{[]string{"rows", "orders"}, "", 0, "orders: 4 of 4 rows", ""},
		{[]string{"call", "rows", `{"table": "orders", "limit": 0}`}, "", 1, "", "T9102: bad input: limit 0"},
	}
	for _, tt := range tests {
		r := tentTools(t, dir, tt.stdin, tt.args...)
		if r.exit != tt.exit || !strings.Contains(r.stdout, tt.stdout) || !strings.Contains(r.stderr, tt.stderr) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d, stdout with %q, stderr with %q",
				tt.args, r.exit, r.stdout, r.stderr, tt.exit, tt.stdout, tt.stderr)
		}
	}
}
