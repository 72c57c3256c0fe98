// Package words writes counts and sizes the way the tools' answers say
// them to a person: "1 line", "3 entries", "5.0 MB".
package words

import (
	"fmt"
	"strings"
)

// Plural is word for one and its plural for any other n: "line",
// "lines"; "entry", "entries".
func Plural(n int, word string) string {
	if n == 1 {
		return word
	}
	if strings.HasSuffix(word, "y") && !strings.HasSuffix(word, "ey") {
		return strings.TrimSuffix(word, "y") + "ies"
	}
	return word + "s"
}

// Count is n and word, plural where n is not one: "1 line", "3 lines".
func Count(n int, word string) string {
	return fmt.Sprintf("%d %s", n, Plural(n, word))
}

// Bytes is a byte count for a person: "820 bytes", "1.5 KB", "5.0 MB".
func Bytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return Count(int(n), "byte")
}
