// Package gitdiff is the one place tent-tools runs git: what changed in a
// project since a ref, for `check --changed-since` (docs/pages/ci.md). The
// CI face runs it on this machine; for a project of another machine
// (`-C HOST:PATH`) the far side runs it there (package remote), where the
// project and its repository are, and sends the Changes back.
package gitdiff

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"strings"

	"github.com/tent-tools/tent-tools/check"
	"github.com/tent-tools/tent-tools/diag"
)

// Changes is what git says changed in a project since a ref, as it
// travels: the diff of the tracked files (`git diff -U0` from where the
// branch left the ref to the files as they are) and the files git does not
// track yet, paths relative to the project.
type Changes struct {
	Ref       string   `json:"ref"`
	Diff      string   `json:"diff"`
	Untracked []string `json:"untracked"`
}

// Since asks git which lines of the project in dir changed since ref:
// from the commit where the current branch left ref (their merge base, so
// that what ref gained since is not counted) to the files as they are
// now, committed or not, with files git does not track yet counted as new
// as a whole. Renames are followed, so a moved file brings only the lines
// it changed. Paths are relative to dir, as the findings' are.
//
// host names the machine git runs on in the errors ("" for this one).
// Every error is T9135: no git, a folder in no repository, an unknown
// ref, no common history.
func Since(ctx context.Context, dir, ref, host string) (Changes, error) {
	on, there := "", ""
	if host != "" {
		on, there = " on "+host, " there"
	}
	fail := func(format string, args ...any) (Changes, error) {
		err := diag.Errorf(diag.T9135, format, args...).With("ref", ref)
		if host != "" {
			err = err.With("host", host)
		}
		return Changes{}, err
	}
	if _, err := exec.LookPath("git"); err != nil {
		return fail("--changed-since needs git%s, which is not on the PATH%s", on, there)
	}
	if strings.HasPrefix(ref, "-") {
		return fail("--changed-since %q: a ref does not start with -", ref)
	}
	if _, err := output(ctx, dir, "rev-parse", "--show-toplevel"); err != nil {
		return fail("--changed-since: the project%s is not in a git repository: %v", on, err)
	}
	if _, err := output(ctx, dir, "rev-parse", "--verify", "--quiet", ref+"^{commit}"); err != nil {
		return fail("--changed-since %s: git%s knows no such commit (in a shallow clone, fetch it first: git fetch origin %s)", ref, on, ref)
	}
	base, err := output(ctx, dir, "merge-base", ref, "HEAD")
	if err != nil {
		return fail("--changed-since %s: no common history with HEAD%s (in a shallow clone, fetch more of it: fetch-depth: 0): %v", ref, on, err)
	}
	// Fixed prefixes and no external diff or colour, whatever the user's
	// git config says, so that the output is the form check.ParseDiff
	// reads.
	diff, err := output(ctx, dir, "-c", "core.quotePath=false", "diff", "--no-color", "--no-ext-diff",
		"--src-prefix=a/", "--dst-prefix=b/", "-M", "-U0", "--relative", strings.TrimSpace(string(base)), "--")
	if err != nil {
		return fail("--changed-since %s: git diff%s: %v", ref, on, err)
	}
	untracked, err := output(ctx, dir, "ls-files", "--others", "--exclude-standard", "-z")
	if err != nil {
		return fail("--changed-since %s: git ls-files%s: %v", ref, on, err)
	}
	c := Changes{Ref: ref, Diff: string(diff), Untracked: []string{}}
	for _, p := range strings.Split(string(untracked), "\x00") {
		if p != "" {
			c.Untracked = append(c.Untracked, p)
		}
	}
	return c, nil
}

// Lines reads the changed lines of c, for check's report: the lines the
// diff adds or changes (a line moved is no change, check.ParseDiff), and
// each untracked file whole.
func (c Changes) Lines() (*check.ChangedLines, error) {
	changed, err := check.ParseDiff([]byte(c.Diff))
	if err != nil {
		return nil, diag.Errorf(diag.T9135, "--changed-since %s: %v", c.Ref, err).With("ref", c.Ref)
	}
	for _, p := range c.Untracked {
		changed.AddFile(p)
	}
	return changed, nil
}

// output runs git in dir and returns its output; a failure carries git's
// own message.
func output(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, errors.New(msg)
		}
		return nil, err
	}
	return out, nil
}
