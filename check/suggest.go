package check

import (
	"math/bits"
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
	return suggestIn(name, nameList{names: candidates})
}

// nameList is a list of candidates for suggest, with the letters of each
// (spelling.Letters) where they are kept beside it (the tables' sorted
// names: thousands of them), nil where they are worked out as asked.
type nameList struct {
	names   []string
	letters []uint64
}

// suggestIn is suggest over the candidates of the lists, one after the
// other.
func suggestIn(name string, lists ...nameList) string {
	best, bestDist, tie := "", 3, false
	letters := spelling.Letters(name)
	for _, l := range lists {
		for i, c := range l.names {
			if c == name {
				continue
			}
			if pluralOf(name, c) || pluralOf(c, name) {
				return c
			}
			// At most two edits, fewer than half of the longer word, and
			// no more than the best so far. An edit changes two of a
			// name's letters at most, so most names are ruled out by
			// their letters alone, the rest by a distance that stops
			// past k: a name looked for among thousands costs little.
			k := min(2, (max(len(name), len(c))-1)/2, bestDist)
			if len(name)-len(c) > k || len(c)-len(name) > k {
				continue
			}
			cl := uint64(0)
			if l.letters != nil {
				cl = l.letters[i]
			} else {
				cl = spelling.Letters(c)
			}
			if bits.OnesCount64(letters^cl) > 2*k {
				continue
			}
			d := spelling.Within(name, c, k)
			if d > k {
				continue
			}
			switch {
			case d < bestDist:
				best, bestDist, tie = c, d, false
			case d == bestDist:
				tie = true
			}
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
	// Compared in place: the check asks of every table's name.
	n := len(singular)
	switch {
	case n == 0:
		return false
	case len(plural) == n+1:
		return plural[n] == 's' && strings.HasPrefix(plural, singular)
	case len(plural) == n+2:
		return strings.HasPrefix(plural, singular) && plural[n:] == "es" ||
			singular[n-1] == 'y' && strings.HasPrefix(plural, singular[:n-1]) && plural[n-1:] == "ies"
	}
	return false
}
