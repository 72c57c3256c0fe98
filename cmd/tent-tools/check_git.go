package main

import (
	"github.com/tent-tools/tent-tools/check"
	"github.com/tent-tools/tent-tools/internal/gitdiff"
)

// changedSince asks git which lines of the project of -C changed since
// ref (gitdiff.Since): git runs where the project is, here or, for
// -C HOST:PATH, on that host through the link the calls take.
func changedSince(e *env, ref string) (*check.ChangedLines, error) {
	if t, ok := e.remoteTarget(); ok {
		rws, err := e.remoteWorkspace(t)
		if err != nil {
			return nil, err
		}
		return rws.ChangedSince(e.ctx, ref)
	}
	c, err := gitdiff.Since(e.ctx, e.dir, ref, "")
	if err != nil {
		return nil, err
	}
	return c.Lines()
}
