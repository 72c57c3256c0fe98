package check

import "strings"

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
		d := distance(name, c)
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

// distance is the optimal string alignment distance between a and b: the
// edits are inserting, deleting or changing a letter, or swapping two
// neighbours (nmae -> name is one edit, the commonest typo). Names are
// identifiers, so bytes are letters.
func distance(a, b string) int {
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
