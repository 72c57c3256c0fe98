package main

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"strings"

	"github.com/tent-tools/tent-tools/check"
	"github.com/tent-tools/tent-tools/diag"
)

// changedSince asks git which lines of the project in dir changed since
// ref: from the commit where the current branch left ref (their merge
// base, so that what ref gained since is not counted) to the files as they
// are now, committed or not, with files git does not track yet counted as
// new as a whole. Renames are followed, so a moved file brings only the
// lines it changed. Paths are relative to dir, as the findings' are.
func changedSince(ctx context.Context, dir, ref string) (*check.ChangedLines, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, diag.Errorf(diag.T9135, "--changed-since needs git, which is not on the PATH")
	}
	if strings.HasPrefix(ref, "-") {
		return nil, diag.Errorf(diag.T9135, "--changed-since %q: a ref does not start with -", ref)
	}
	if _, err := gitOutput(ctx, dir, "rev-parse", "--show-toplevel"); err != nil {
		return nil, diag.Errorf(diag.T9135, "--changed-since: the project is not in a git repository: %v", err)
	}
	if _, err := gitOutput(ctx, dir, "rev-parse", "--verify", "--quiet", ref+"^{commit}"); err != nil {
		return nil, diag.Errorf(diag.T9135, "--changed-since %s: git knows no such commit (in a shallow clone, fetch it first: git fetch origin %s)", ref, ref)
	}
	base, err := gitOutput(ctx, dir, "merge-base", ref, "HEAD")
	if err != nil {
		return nil, diag.Errorf(diag.T9135, "--changed-since %s: no common history with HEAD (in a shallow clone, fetch more of it: fetch-depth: 0): %v", ref, err)
	}
	// Fixed prefixes and no external diff or colour, whatever the user's
	// git config says, so that the output is the form ParseDiff reads.
	diff, err := gitOutput(ctx, dir, "-c", "core.quotePath=false", "diff", "--no-color", "--no-ext-diff",
		"--src-prefix=a/", "--dst-prefix=b/", "-M", "-U0", "--relative", strings.TrimSpace(string(base)), "--")
	if err != nil {
		return nil, diag.Errorf(diag.T9135, "--changed-since %s: git diff: %v", ref, err)
	}
	changed, err := check.ParseDiff(diff)
	if err != nil {
		return nil, diag.Errorf(diag.T9135, "--changed-since %s: %v", ref, err)
	}
	untracked, err := gitOutput(ctx, dir, "ls-files", "--others", "--exclude-standard", "-z")
	if err != nil {
		return nil, diag.Errorf(diag.T9135, "--changed-since %s: git ls-files: %v", ref, err)
	}
	for _, p := range strings.Split(string(untracked), "\x00") {
		if p != "" {
			changed.AddFile(p)
		}
	}
	return changed, nil
}

// gitOutput runs git in dir and returns its output; a failure carries
// git's own message.
func gitOutput(ctx context.Context, dir string, args ...string) ([]byte, error) {
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
