package tools

import (
	"bytes"
	"slices"
	"unicode"
	"unicode/utf8"
)

// foldedText finds a text in any case as Go's regexp does with (?i) and
// the text quoted (regexp.QuoteMeta), without the regexp's machine, which
// has no fast scan for a text in any case (it was five times slower than
// the exact search): each rune of the text matches any rune of its case
// folding orbit (unicode.SimpleFold: k matches K, k and the Kelvin sign),
// and a byte that is no UTF-8 is the rune utf8.RuneError, as the regexp
// reads it.
type foldedText struct {
	orbits [][]rune // for each rune of the text, the runes it matches
	// firsts are the first bytes of the UTF-8 of the runes the text's
	// first rune matches: where a match may start.
	firsts []byte
}

// newFoldedText prepares the search of text (valid UTF-8, not empty) in
// any case.
func newFoldedText(text string) *foldedText {
	f := &foldedText{}
	for _, r := range text {
		orbit := []rune{r}
		for o := unicode.SimpleFold(r); o != r; o = unicode.SimpleFold(o) {
			orbit = append(orbit, o)
		}
		f.orbits = append(f.orbits, orbit)
	}
	var enc [utf8.UTFMax]byte
	for _, r := range f.orbits[0] {
		utf8.EncodeRune(enc[:], r)
		if !slices.Contains(f.firsts, enc[0]) {
			f.firsts = append(f.firsts, enc[0])
		}
	}
	if slices.Contains(f.orbits[0], utf8.RuneError) {
		// U+FFFD also matches each byte that starts no valid UTF-8.
		for b := 0x80; b <= 0xFF; b++ {
			if !slices.Contains(f.firsts, byte(b)) {
				f.firsts = append(f.firsts, byte(b))
			}
		}
	}
	return f
}

// foldWindow is how far index looks for the next possible start at once:
// each first byte is looked for with bytes.IndexByte within the window and
// its place kept until passed, so that a byte found far away is not looked
// for again and again (index is called again after each line it finds).
const foldWindow = 4096

// index returns where the text first starts in src and how many bytes
// it spans there, or -1. Each first byte is ASCII or starts a UTF-8
// sequence, never a continuation byte, so each place found starts a rune
// as the regexp reads src.
func (f *foldedText) index(src []byte) (at, n int) {
	if len(f.firsts) > 4 {
		return f.indexByTable(src)
	}
	var next [4]int // where each first byte is next in the window, at or after i; -1: not in it
	for from := 0; from < len(src); from += foldWindow {
		window := src[from:min(len(src), from+foldWindow)]
		for k, b := range f.firsts {
			next[k] = bytes.IndexByte(window, b)
		}
		for {
			j := -1
			for k := range f.firsts {
				if next[k] >= 0 && (j < 0 || next[k] < j) {
					j = next[k]
				}
			}
			if j < 0 {
				break
			}
			if n, ok := f.matchAt(src[from+j:]); ok {
				return from + j, n
			}
			for k, b := range f.firsts {
				if next[k] == j {
					if m := bytes.IndexByte(window[j+1:], b); m >= 0 {
						next[k] = j + 1 + m
					} else {
						next[k] = -1
					}
				}
			}
		}
	}
	return -1, 0
}

// indexByTable is index for a text whose first rune may start with many
// bytes (U+FFFD, which also matches each byte that starts no valid UTF-8):
// src is read rune by rune, as the regexp reads it, so that no match
// starts within a rune (a continuation byte alone is U+FFFD too).
func (f *foldedText) indexByTable(src []byte) (at, n int) {
	var first [256]bool
	for _, b := range f.firsts {
		first[b] = true
	}
	for i := 0; i < len(src); {
		if first[src[i]] {
			if n, ok := f.matchAt(src[i:]); ok {
				return i, n
			}
		}
		_, size := utf8.DecodeRune(src[i:])
		i += size
	}
	return -1, 0
}

// matchAt reports whether src starts with the text in any case, and how
// many bytes of src it spans.
func (f *foldedText) matchAt(src []byte) (int, bool) {
	n := 0
	for _, orbit := range f.orbits {
		if n == len(src) {
			return 0, false
		}
		r, size := utf8.DecodeRune(src[n:])
		if !slices.Contains(orbit, r) {
			return 0, false
		}
		n += size
	}
	return n, true
}
