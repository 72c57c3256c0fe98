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
