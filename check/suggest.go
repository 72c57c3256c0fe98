package check

import (
	"strings"

	"github.com/tent-tools/tent-tools/internal/spelling"
)

// suggest returns the one candidate that name most likely misspells, or ""
// when there is none or no single best one. A candidate fits when it is the
// plural or singular of name, or when it is at most two edits away (and
// those edits are less than half of the longer word, so that short names do
// not match everything). A plural or singular match beats any edit; among
// edits the nearest wins, and a tie means no suggestion: a fix must be certain.
func suggest(name string, candidates []string) string {
	best, bestDist, tie := "", 3, false
	for _, c := range candidates {
		if c == name {
			continue
		}
		if pluralOf(name, c) || pluralOf(c, name) {
			return c
		}
		d := spelling.Distance(name, c)
		if d > 2 || 2*d >= max(len(name), len(c)) {
			continue
		}
		switch {
		case d < bestDist:
			best, bestDist, tie = c, d, false
		case d == bestDist:
			tie = true
		}
	}
	if tie {
		return ""
	}
	return best
}

// pluralOf reports whether plural is an English plural of singular:
// user/users, box/boxes, category/categories.
func pluralOf(singular, plural string) bool {
	switch {
	case singular == "" || plural == "":
		return false
	case plural == singular+"s", plural == singular+"es":
		return true
	case strings.HasSuffix(singular, "y") && plural == strings.TrimSuffix(singular, "y")+"ies":
		return true
	}
	return false
}
