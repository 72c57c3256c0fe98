// Package spelling measures how far apart two names are, for the "did you
// mean" hints of tool errors and the certain fixes of the check. It imports
// nothing of the project's own.
package spelling

import (
	"slices"
	"strings"
)

// Nearest returns the candidate closest to name by Distance, ignoring
// case, when it is close enough to be a likely typo (at most a third of
// name's letters, and at least two, are edits; ties: the first in sorted
// order), or "". It is the one rule of every "did you mean" (columns,
// tables, commands, flags, functions, routes).
func Nearest(name string, candidates []string) string {
	candidates = slices.Clone(candidates)
	slices.Sort(candidates)
	best, bestDist := "", max(2, len(name)/3)+1
	for _, c := range candidates {
		if d := Distance(strings.ToLower(name), strings.ToLower(c)); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// Distance is the optimal string alignment distance between a and b: the
// edits are inserting, deleting or changing a letter, or swapping two
// neighbours (nmae -> name is one edit, the commonest typo). Names are
// identifiers, so bytes are letters.
func Distance(a, b string) int {
	// rows[i][j] is the distance between a[:i] and b[:j]; three rows suffice.
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
