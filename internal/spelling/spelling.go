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

// Within is Distance(a, b) where that is at most k, else k+1. It works
// out only the cells of the alignment within k of its diagonal and stops
// as soon as no alignment can stay within k, so a name compared with
// thousands of others (a check's "did you mean" among every table) costs
// a few cells each, and it allocates nothing for names of up to 64 bytes.
func Within(a, b string, k int) int {
	if k < 0 {
		k = 0
	}
	big := k + 1
	if len(a)-len(b) > k || len(b)-len(a) > k {
		return big
	}
	n := len(b) + 1
	var buf [3 * 65]int
	var rows []int
	if 3*n <= len(buf) {
		rows = buf[:3*n]
	} else {
		rows = make([]int, 3*n)
	}
	prev2, prev, cur := rows[:n], rows[n:2*n], rows[2*n:]
	for j := range prev {
		prev[j] = min(j, big)
	}
	// lastMin is the least cell of the row before; an alignment can
	// still come back within k only through a cell of this row or, by a
	// swap, one of the row before plus one.
	lastMin := 0
	for i := 1; i <= len(a); i++ {
		lo, hi := max(1, i-k), min(len(b), i+k)
		cur[0] = min(i, big)
		if lo > 1 {
			cur[lo-1] = big
		}
		rowMin := cur[0]
		if lo > 1 {
			rowMin = big
		}
		for j := lo; j <= hi; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			c := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				c = min(c, prev2[j-2]+1)
			}
			c = min(c, big)
			cur[j] = c
			rowMin = min(rowMin, c)
		}
		if hi < len(b) {
			cur[hi+1] = big // the next row reads one cell past this row's band
		}
		if min(rowMin, lastMin+1) > k {
			return big
		}
		lastMin = rowMin
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[len(b)], big)
}

// Letters is the set of the bytes of name as bits: a-z, A-Z, 0-9 and _
// each one of its own, every other byte the last. One edit sets or clears
// at most two of them (a changed letter: the one gone, the one come), so
// Distance(a, b) is at least half the bits in which Letters(a) and
// Letters(b) differ: kept beside a long list of names, it rules out most
// of them for a "did you mean" at the cost of an instruction each.
func Letters(name string) uint64 {
	var set uint64
	for i := 0; i < len(name); i++ {
		c := name[i]
		bit := 63
		switch {
		case 'a' <= c && c <= 'z':
			bit = int(c - 'a')
		case 'A' <= c && c <= 'Z':
			bit = 26 + int(c-'A')
		case '0' <= c && c <= '9':
			bit = 52 + int(c-'0')
		case c == '_':
			bit = 62
		}
		set |= 1 << bit
	}
	return set
}
